// The primary-key lookup the baselines run: the bare Fastify route (bare-fastify.ts) and the
// driver's own prepared statement beside findCheck's in-process timing (scenarios/get.ts).
// Kept in step by hand with findCheck in src/store/checks/checks.repository.ts: if that query changes,
// change this one, or the ratio compares different database work.
export const FIND_CHECK = `SELECT c.id, c.bank_account_id, b.name AS bank_account_name, c.payee_id, p.name AS payee_name,
  c.category_id, c.voucher_id, c.serial_number, c.issue_date, c.amount_cents, c.memo, c.note, c.account_number,
  c.invoice_number, c.reference_id, c.no_sign, c.no_amount, c.no_date, c.no_payee, c.custom_elements, c.status, c.cleared_date, c.created_at,
  s.status AS st_status, s.created_at AS st_at
  FROM checks c JOIN bank_accounts b ON b.id = c.bank_account_id LEFT JOIN payees p ON p.id = c.payee_id
  LEFT JOIN check_statements s ON s.check_id = c.id
  WHERE c.id = ? AND c.account_id = ? AND c.env = ? ORDER BY s.id`;
