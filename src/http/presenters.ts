// Domain records -> the spec's wire shapes. The only place amounts leave integer cents.
import { amountInWords } from '../domain/amount-words.ts';
import { statusDescription } from '../domain/check-status.ts';
import { BANK_FILE_LAYOUTS, MAX_LISTED_MISMATCHES } from '../domain/cleared-items.ts';
import { localMoment } from '../domain/dates.ts';
import { centsToDecimalString, centsToNumber } from '../domain/money.ts';
import type { Address } from '../domain/address.ts';
import type { BankAccount } from '../domain/bank-account.ts';
import type { Category } from '../domain/category.ts';
import type { Check } from '../domain/check.ts';
import type { CheckApproval } from '../domain/approvals/policy.ts';
import type { Mailing } from '../domain/mailing.ts';
import type { CheckMailing } from '../services/mailing.service.ts';
import type { Payee } from '../domain/payee.ts';
import type { Voucher } from '../domain/voucher.ts';
import type { CreatedCheck } from '../services/checks/write.service.ts';
import type { Reconciliation, ReconciledRow } from '../services/checks/clearing.service.ts';
import type { CheckRegisterRow } from '../services/check-register.service.ts';
import type { Outstanding } from '../domain/clearing.ts';

export function createdCheckWire(c: CreatedCheck) {
  return {
    checkId: c.checkId,
    serialNumber: c.serialNumber,
    amount: centsToDecimalString(c.amountCents ?? 0),
    status: c.status,
    bankAccount: c.bankAccount,
    // A check made with noPayee has no payee: the object keeps its string-typed fields, empty.
    payee: { payeeId: c.payee.payeeId ?? '', name: c.payee.name ?? '' },
  };
}

/** A check's mailing as the check's read shape carries it: enough to tell where it is in the queue. */
function checkMailingWire(m: Mailing, shippingTypeName: string, timeZone: string) {
  return {
    mailingId: m.id,
    shippingTypeId: m.shippingTypeId,
    shippingType: shippingTypeName,
    status: m.status,
    queued: localMoment(m.createdAt, timeZone),
    // When it was dispatched or cancelled; null while it waits in the queue.
    settled: m.status === 'queued' ? null : localMoment(m.updatedAt, timeZone),
  };
}

/**
 * `mailing` is given by the routes that look it up; a check never queued for mail has none and
 * the field is left out (an addition to the spec's read shape, docs/lifecycle.md): it is undefined
 * here, which the response serializer leaves out like a missing field.
 *
 * One object literal, no spread: V8 builds an object spread into a literal with more fields after
 * it the slow way, and the serializer then reads it slowly too — the read shape and its
 * serialization cost 10 µs that way against 3.5 µs as a literal, in one process
 * (docs/benchmarks.md, "GET /checks/{id}: async hooks off, the read shape as one literal").
 */
export function checkWire(check: Check, timeZone: string, mailing?: CheckMailing | undefined) {
  return {
    checkId: check.id,
    serialNumber: check.serialNumber,
    amount: centsToNumber(check.amountCents ?? 0),
    // A blank-amount check (noAmount without an amount) has no legal line to show.
    amountInWord: check.amountCents === null ? '' : amountInWords(check.amountCents),
    date: check.issueDate,
    status: check.status,
    memo: check.memo,
    accountNumber: check.accountNumber,
    invoiceNumber: check.invoiceNumber,
    referenceId: check.referenceId,
    bankAccount: { bankAccountId: check.bankAccountId, name: check.bankAccountName },
    payee: { payeeId: check.payeeId ?? '', name: check.payeeName ?? '' },
    checkStatus: { status: check.status, description: statusDescription(check.status) },
    checkStatements: check.statements.map((s) => statementWire(s, timeZone)),
    // An addition to the spec's read shape (docs/reconciliation.md): the day the bank paid it.
    clearedDate: check.clearedDate,
    mailing: mailing === undefined ? undefined : checkMailingWire(mailing.mailing, mailing.shippingTypeName, timeZone),
  };
}

/** A statement of a check at its local date and time. */
function statementWire(s: Check['statements'][number], timeZone: string) {
  const at = localMoment(s.at, timeZone);
  return { status: s.status, date: at.date, time: at.time };
}

/** A check with its approval (GET /checks/{id}, GET /checks items): an addition to the spec's shape. */
export function checkWithApprovalWire(
  check: Check,
  timeZone: string,
  approval: CheckApproval,
  mailing?: CheckMailing | undefined,
) {
  // A field added to the literal, not the literal spread into a new one (see checkWire).
  return Object.assign(checkWire(check, timeZone, mailing), { approval: approvalWire(approval) });
}

export function approvalWire(a: CheckApproval) {
  return {
    status: a.status,
    required: a.required,
    approvals: a.approvals.map((x) => ({ by: x.by, at: new Date(x.at).toISOString() })),
    rejectedBy: a.rejectedBy,
    rejectedAt: a.rejectedAt === null ? null : new Date(a.rejectedAt).toISOString(),
    reason: a.reason,
  };
}

export function payeeWire(p: Payee) {
  return {
    payeeId: p.id,
    name: p.name,
    nickName: p.nickName,
    company: p.company,
    email: p.email,
    phone: p.phone,
    address1: p.address1,
    address2: p.address2,
    city: p.city,
    state: p.state,
    zip: p.zip,
    country: p.country,
  };
}

export function bankAccountWire(b: BankAccount) {
  return {
    bankAccountId: b.id,
    name: b.name,
    bankName: b.bankName,
    bankAddress: b.bankAddress,
    routingNumber: b.routingNumber,
    accountNumber: b.accountNumberMasked,
    nextSerial: String(b.nextSerial),
    customFromAddressId: b.customFromAddressId,
    hasSignature: b.hasSignature,
    printOffsetX: b.printOffsetX,
    printOffsetY: b.printOffsetY,
    // The hosted service's names (docs/api-notes.md): one column each, both names on the wire.
    bankRoutingNumber: b.routingNumber,
    bankAddress1: b.bankAddress,
    nickName: b.nickName,
    addressLine1: b.addressLine1,
    addressLine2: b.addressLine2,
    phone: b.phone,
    city: b.city,
    state: b.state,
    zip: b.zip,
    bankCity: b.bankCity,
    bankState: b.bankState,
    bankZip: b.bankZip,
  };
}

export function categoryWire(c: Category) {
  return { categoryId: c.id, name: c.name, type: c.type };
}

function addressFields(a: Address) {
  return {
    name: a.name,
    companyName: a.companyName,
    addressLine1: a.addressLine1,
    addressLine2: a.addressLine2,
    city: a.city,
    state: a.state,
    zip: a.zip,
    country: a.country,
    phone: a.phone,
    email: a.email,
    note: a.note,
  };
}

/** Spec "Custom 'from' address": the single read names its id `id`. */
export function customFromAddressWire(a: Address) {
  return { id: a.id, ...addressFields(a) };
}

/** List and create items name the id by kind (API decisions). */
export function fromAddressListWire(a: Address) {
  return { customFromAddressId: a.id, ...addressFields(a) };
}

export function toAddressListWire(a: Address) {
  return { customToAddressId: a.id, ...addressFields(a) };
}

export function voucherWire(v: Voucher) {
  return {
    voucherId: v.id,
    voucherNumber: v.voucherNumber,
    date: v.date,
    payeeId: v.payeeId,
    memo: v.memo,
    voucherItems: v.items.map((item) => ({
      invoiceNumber: item.invoiceNumber,
      name: item.name,
      description: item.description,
      quantity: item.quantity,
      unitCost: centsToDecimalString(item.unitCostCents),
      total: centsToDecimalString(item.totalCents),
    })),
  };
}

export function metaWire(total: number, page: number, perPage: number) {
  return { total, currentPage: page, perPage };
}

/** A row of GET /bankAccounts/{id}/register (docs/reconciliation.md). */
export function registerRowWire(row: CheckRegisterRow) {
  const c = row.check;
  return {
    checkId: c.id,
    serialNumber: c.serialNumber,
    date: c.issueDate,
    payee: { payeeId: c.payeeId ?? '', name: c.payeeName ?? '' },
    amount: centsToNumber(c.amountCents ?? 0),
    status: c.status,
    statusDescription: statusDescription(c.status),
    clearedDate: c.clearedDate,
    outstanding: row.outstanding,
    runningOutstanding: centsToNumber(row.runningCents),
  };
}

export function outstandingWire(o: Outstanding) {
  return { count: o.count, total: centsToNumber(o.totalCents) };
}

/** The answer to a cleared-items file: what matched (and was cleared), what did not and why. */
export function reconciliationWire(r: Reconciliation) {
  const row = (m: ReconciledRow) => ({
    line: m.line,
    checkNumber: m.checkNumber,
    amount: centsToNumber(m.amountCents),
    clearedDate: m.clearedDate,
    checkId: m.check?.id ?? null,
  });
  const clearedCents = r.matched.reduce((sum, m) => sum + m.amountCents, 0);
  return {
    matched: r.matched.map(row),
    // The error list is bounded whatever the file holds; the count says how many rows in all.
    mismatchedCount: r.mismatched.length,
    mismatched: r.mismatched.slice(0, MAX_LISTED_MISMATCHES).map((m) => ({
      ...row(m),
      reason: m.reason,
      message: m.message,
      checkAmount: m.check === null || m.check.amountCents === null ? null : centsToNumber(m.check.amountCents),
      checkStatus: m.check?.status ?? null,
      checkClearedDate: m.check?.clearedDate ?? null,
    })),
    // Money in that carries a number: never a check paid, shown so the office sees it was read.
    creditsCount: r.credits.length,
    credits: r.credits.slice(0, MAX_LISTED_MISMATCHES).map((c) => ({
      line: c.line,
      checkNumber: c.checkNumber,
      amount: centsToNumber(c.amountCents),
      date: c.date,
    })),
    skippedLines: r.skippedLines,
    layout: r.layout,
    layoutName: BANK_FILE_LAYOUTS[r.layout],
    columns: r.columns,
    cleared: { count: r.matched.length, total: centsToNumber(clearedCents) },
  };
}
