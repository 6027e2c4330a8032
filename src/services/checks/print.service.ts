// Checks on paper: builds the renderer's CheckDocument from our records, renders PDFs, and moves
// printed checks to `printed` with their statement. Rendering validates everything first (routing
// checksum, field widths), so a bad check is a 422, never a broken PDF. The database is read here,
// on the main thread; the drawing runs as heavy work (ctx.heavyWork: a worker thread in the
// server, with a heap cap and a deadline), so a 500-check print does not stall other requests.
import type { Owner, Principal } from '../../domain/owner.ts';
import type { Account } from '../../domain/account.ts';
import type { Check } from '../../domain/check.ts';
import type { Payee } from '../../domain/payee.ts';
import { canPrint, statusCode, statusName } from '../../domain/check-status.ts';
import { notFound, validationError } from '../../errors.ts';
import { partyFromCustomAddress, type CheckDocument, type CheckParty } from '../../render/check-document.ts';
import { RenderInputError } from '../../render/render-error.ts';
import { DEFAULT_PRINT_OPTIONS, type PrintOptions } from '../../render/print-layout.ts';
import { stopIfClientGone } from '../../heavy-work/request-signal.ts';
import { pdfOf } from '../../heavy-work/tasks/render-outcome.ts';
import * as accounts from '../../store/accounts.repository.ts';
import * as checks from '../../store/checks/checks.repository.ts';
import * as addressStore from '../../store/addresses.repository.ts';
import * as bankAccountStore from '../../store/bank-accounts.repository.ts';
import * as payeeStore from '../../store/payees.repository.ts';
import * as voucherStore from '../../store/vouchers.repository.ts';
import * as mailings from '../../store/mailings.repository.ts';
import type { Queryable } from '../../store/db.ts';
import { record } from '../audit.service.ts';
import type { ServiceContext } from '../context.ts';
import { rules } from '../validation.ts';
import { accountNumberOf } from '../bank-account.service.ts';
import { TEST_ACCOUNT_NUMBER } from '../../domain/account-number.ts';
import { checkEventData, emit } from '../events.ts';
import { isHeld, refuseHeld } from '../approvals/approvals.service.ts';

function payeeParty(payee: Payee): CheckParty {
  const cityLine = [[payee.city, payee.state].filter((s) => s !== '').join(', '), payee.zip]
    .filter((s) => s !== '')
    .join(' ');
  const country = /^(us|usa|united states)$/i.test(payee.country) ? '' : payee.country;
  return {
    name: payee.name,
    addressLines: [payee.address1, payee.address2, cityLine, country].filter((s) => s.trim() !== ''),
  };
}

/**
 * What the checks of one print job share, each read once: the account, and per bank account its
 * row with the signature image (up to 512 KB) and its from-address. A 500-check batch on one bank
 * account reads them once, not 500 times.
 */
interface SharedReads {
  account(): Promise<Account | undefined>;
  bank(id: string): ReturnType<typeof bankAccountStore.findBankAccountForPrinting>;
  fromAddress(id: string): ReturnType<typeof addressStore.findAddress>;
  /** The logo a bank account's checks print: its own, else the account's. */
  logo(bankAccountId: string): Promise<Buffer | null>;
  /** The account's settings: its address and phone complete the drawer block without a from address. */
  settings(): ReturnType<typeof accounts.findAccountSettings>;
  /** A payee, read once however many of the job's checks pay it. */
  payee(id: string): ReturnType<typeof payeeStore.findPayeeForPrinting>;
}

function sharedReads(q: Queryable, principal: Principal): SharedReads {
  const once = <T>(cache: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> => {
    let found = cache.get(key);
    if (found === undefined) {
      found = read();
      cache.set(key, found);
    }
    return found;
  };
  const banks = new Map<string, ReturnType<typeof bankAccountStore.findBankAccountForPrinting>>();
  const addresses = new Map<string, ReturnType<typeof addressStore.findAddress>>();
  const account = new Map<string, Promise<Account | undefined>>();
  const logos = new Map<string, Promise<Buffer | null>>();
  const settings = new Map<string, ReturnType<typeof accounts.findAccountSettings>>();
  const payees = new Map<string, ReturnType<typeof payeeStore.findPayeeForPrinting>>();
  return {
    account: () => once(account, principal.accountId, () => accounts.findAccountById(q, principal.accountId)),
    bank: (id) => once(banks, id, () => bankAccountStore.findBankAccountForPrinting(q, principal, id)),
    fromAddress: (id) => once(addresses, id, () => addressStore.findAddress(q, principal, 'from', id)),
    logo: (id) => once(logos, id, () => bankAccountStore.logoForPrinting(q, principal, id)),
    settings: () => once(settings, principal.accountId, () => accounts.findAccountSettings(q, principal.accountId)),
    payee: (id) => once(payees, id, () => payeeStore.findPayeeForPrinting(q, principal, id)),
  };
}

/**
 * The drawer block without a custom 'from' address: the company and its address from the settings;
 * with no company name set, the bank account's holder (its name and address, as the hosted
 * service's bank accounts carry them), so the block is never blank on a check.
 */
function drawerOf(
  company: string,
  settings: { companyAddress: string; companyPhone: string } | undefined,
  bank: { name: string; addressLine1: string; addressLine2: string; city: string; state: string; zip: string },
): { name: string; addressLines: string[] } {
  const companyLines = [settings?.companyAddress ?? '', settings?.companyPhone ?? ''].filter((l) => l !== '');
  if (company.trim() !== '') return { name: company, addressLines: companyLines };
  const place = [bank.city, [bank.state, bank.zip].filter((p) => p !== '').join(' ')]
    .filter((p) => p !== '')
    .join(', ');
  const holderLines = [bank.addressLine1, bank.addressLine2, place].filter((l) => l !== '');
  return { name: bank.name, addressLines: companyLines.length > 0 ? companyLines : holderLines };
}

async function documentFor(
  ctx: Pick<ServiceContext, 'vault'>,
  q: Queryable,
  principal: Principal,
  check: Check,
  shared: SharedReads = sharedReads(q, principal),
): Promise<CheckDocument> {
  const bank = await shared.bank(check.bankAccountId);
  if (bank === undefined) throw notFound('Bank account');
  const account = await shared.account();
  const fromAddress =
    bank.account.customFromAddressId === null ? undefined : await shared.fromAddress(bank.account.customFromAddressId);
  const logo = await shared.logo(check.bankAccountId);
  const settings = fromAddress === undefined ? await shared.settings() : undefined;
  const payee = check.payeeId === null ? undefined : await shared.payee(check.payeeId);
  const voucher = check.voucherId === null ? undefined : await voucherStore.findVoucher(q, principal, check.voucherId);
  return {
    environment: principal.env,
    from:
      fromAddress === undefined
        ? drawerOf(account?.company ?? '', settings, bank.account)
        : partyFromCustomAddress(fromAddress),
    bankName: bank.account.bankName === '' ? bank.account.name : bank.account.bankName,
    routingNumber: bank.account.routingNumber,
    // The real number is not even opened for a test check: its MICR line carries the test number.
    accountNumber: principal.env === 'test' ? TEST_ACCOUNT_NUMBER : accountNumberOf(ctx, bank.account),
    checkNumber: check.serialNumber,
    issueDate: check.issueDate,
    payee: payee === undefined ? null : payeeParty(payee),
    amountCents: check.amountCents,
    memo: check.memo,
    invoiceNumber: check.invoiceNumber,
    signature: bank.signature === null ? null : { data: bank.signature },
    logo: logo === null ? null : { data: logo },
    customElements: check.customElements,
    noSign: check.noSign,
    noAmount: check.noAmount || check.amountCents === null,
    noDate: check.noDate,
    noPayee: check.noPayee || payee === undefined,
    voucher:
      voucher === undefined
        ? null
        : {
            voucherNumber: voucher.voucherNumber === '' ? null : voucher.voucherNumber,
            date: voucher.date,
            memo: voucher.memo === '' ? null : voucher.memo,
            items: voucher.items,
          },
    printOffset: { x: bank.account.printOffsetX, y: bank.account.printOffsetY },
  };
}

/** A renderer refusal, worded like every other validation failure. */
function refusal(error: RenderInputError, path: string): Error {
  return validationError(`The check ${path}cannot be printed: ${error.message}.`.replace(/\.\.$/, '.'));
}

async function render(
  ctx: Pick<ServiceContext, 'heavyWork'>,
  owner: Owner,
  documents: CheckDocument[],
  paths: string[],
  options: PrintOptions,
  lane?: 'payee',
): Promise<Buffer> {
  try {
    const work = lane === undefined ? { owner } : { owner, lane };
    return pdfOf(await ctx.heavyWork.run('render-checks-pdf', { documents, options }, work));
  } catch (error) {
    if (error instanceof RenderInputError) throw refusal(error, paths[error.index ?? 0] ?? '');
    throw error;
  }
}

/**
 * GET /checks/{id}/pdf: the check as it would print; its status does not change. The panel asks
 * for a `preview`, which is stamped "PREVIEW — NOT PRINTED"; the API's bytes are unmarked.
 */
export async function checkPdf(
  ctx: ServiceContext,
  principal: Principal,
  checkId: string,
  { preview = false, lane }: { preview?: boolean; lane?: 'payee' } = {},
): Promise<{ pdf: Buffer; serialNumber: string }> {
  const check = await checks.findCheck(ctx.db, principal, checkId);
  if (check === undefined) throw notFound('Check');
  if (statusName(check.status) === 'void') throw validationError('The check cannot be printed: its status is void.');
  const base = preview ? { ...DEFAULT_PRINT_OPTIONS, preview } : DEFAULT_PRINT_OPTIONS;
  const options = (await isHeld(ctx.db, principal, check.id)) ? { ...base, notApproved: true } : base;
  return {
    pdf: await render(ctx, principal, [await documentFor(ctx, ctx.db, principal, check)], [''], options, lane),
    serialNumber: check.serialNumber,
  };
}

/**
 * The checks a panel print form names, in the order given. An id that is not a check of this
 * account and environment is a 404, as on every page that takes an id (the API's batch answers
 * the spec's 422 instead). Nothing changes.
 */
export async function checksToPrint(
  ctx: ServiceContext,
  principal: Principal,
  checkIds: readonly string[],
): Promise<Check[]> {
  const found = await checks.findChecks(ctx.db, principal, checkIds);
  return checkIds.map((id) => {
    const check = found.get(id);
    if (check === undefined) throw notFound('Check');
    return check;
  });
}

/** Digit strings compared as numbers (check numbers may be longer than a safe integer). */
function byCheckNumber(a: Check, b: Check): number {
  const x = a.serialNumber.replace(/^0+/, '');
  const y = b.serialNumber.replace(/^0+/, '');
  return x.length - y.length || (x < y ? -1 : x > y ? 1 : 0);
}

export interface PrintRequest extends PrintOptions {
  /**
   * Print in ascending check number instead of the order given (the panel: pre-printed stock is
   * numbered in that order). Refusals still name the field by the position it was given in.
   */
  readonly inCheckNumberOrder?: boolean;
}

/** Checks whose documents are read in one turn of the event loop (see printChecks). */
const DOCUMENTS_PER_TURN = 50;

/** What a print does to a check from each status it may be printed from: `new` prints, `printed` reprints. */
const PRINT_STATEMENT = { new: 'printed', printed: 'reprinted' } as const;

function printStatement(check: Check): string {
  return statusName(check.status) === 'printed' ? PRINT_STATEMENT.printed : PRINT_STATEMENT.new;
}

/**
 * POST /checks/print: several checks, one PDF, on the stock and page layout asked for (blank
 * stock, check on top, one check a page by default); each moves to `printed` with a statement
 * (`printed`, or `reprinted` for a check printed before: the same check and number, never a new
 * one). All or nothing: any unknown or unprintable check refuses the whole request.
 */
export async function printChecks(
  ctx: ServiceContext,
  principal: Principal,
  checkIds: readonly string[],
  request: PrintRequest = DEFAULT_PRINT_OPTIONS,
): Promise<Buffer> {
  const seen = new Set<string>();
  checkIds.forEach((id, i) => {
    if (seen.has(id)) throw rules.distinct(`checkIds.${i}`);
    seen.add(id);
  });
  const found = await checks.findChecks(ctx.db, principal, checkIds);
  stopIfClientGone('Printing the checks');
  const ordered = checkIds.map((id, i) => {
    const check = found.get(id);
    if (check === undefined) throw rules.invalid(`checkIds.${i}`);
    if (!canPrint(check.status))
      throw rules.custom(
        `checkIds.${i}`,
        `names a check that cannot be printed: its status is ${statusName(check.status)}`,
      );
    return check;
  });
  // Pre-printed paper carries one bank account's MICR line and numbers: one print job, one account.
  if (request.stock === 'preprinted') {
    const first = ordered[0];
    const other = ordered.findIndex((check) => check.bankAccountId !== first?.bankAccountId);
    if (other !== -1)
      throw rules.custom(
        `checkIds.${other}`,
        'names a check of another bank account: pre-printed stock carries one bank account, so print each bank account separately',
      );
  }
  const queuedForMail = async (q: Queryable): Promise<void> => {
    const queued = await mailings.checksWithPendingMailing(
      q,
      principal,
      ordered.map((check) => check.id),
    );
    const i = ordered.findIndex((check) => queued.has(check.id));
    if (i !== -1) throw rules.custom(`checkIds.${i}`, 'names a check that is queued for mailing');
  };
  // Refused before rendering when it is already so, and again under the row locks below, where
  // a mailing queued while we rendered is seen.
  await queuedForMail(ctx.db);
  // A check held for approval never prints; checked again under the row locks below, so an
  // approval still uncommitted there counts as missing.
  await refuseHeld(ctx.db, principal, ordered);
  const shared = sharedReads(ctx.db, principal);
  const positions = new Map(checkIds.map((id, i) => [id, i]));
  const printed = request.inCheckNumberOrder === true ? [...ordered].sort(byCheckNumber) : ordered;
  const documents: CheckDocument[] = [];
  for (let start = 0; start < printed.length; start += DOCUMENTS_PER_TURN) {
    // On SQLite every read is synchronous: a turn of the event loop between slices lets other
    // requests in while 500 checks' documents are read.
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    // A print whose client has hung up stops here: 500 documents read for nobody are other
    // tenants' time on the event loop.
    stopIfClientGone('Printing the checks');
    const slice = printed.slice(start, start + DOCUMENTS_PER_TURN);
    documents.push(...(await Promise.all(slice.map((check) => documentFor(ctx, ctx.db, principal, check, shared)))));
  }
  // Render before writing: a refusal leaves every check as it was.
  const pdf = await render(
    ctx,
    principal,
    documents,
    printed.map((check) => `in checkIds.${positions.get(check.id) ?? 0} `),
    { stock: request.stock, layout: request.layout },
  );
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    // A concurrent void between our read and this write must not be overwritten: each status moves
    // only from the one we read, a statement for all the checks read in that status.
    for (const status of new Set(ordered.map((check) => check.status))) {
      const group = ordered.filter((check) => check.status === status);
      const ids = group.map((check) => check.id);
      const moved = await checks.moveStatuses(tx, principal, ids, status, statusCode('printed'));
      if (moved !== ids.length) {
        const current = await checks.findChecks(tx, principal, ids);
        const changed = group.find((check) => current.get(check.id)?.status !== statusCode('printed')) ?? group[0];
        const i = changed === undefined ? 0 : ordered.indexOf(changed);
        throw rules.custom(`checkIds.${i}`, 'names a check whose status changed while printing; try again');
      }
    }
    await queuedForMail(tx);
    await refuseHeld(tx, principal, ordered);
    await checks.insertStatements(
      tx,
      ordered.map((check) => ({ checkId: check.id, status: printStatement(check), at: now })),
    );
    await emit(
      tx,
      principal,
      ordered.map((check) => ({
        type: 'check.printed' as const,
        data: checkEventData({ ...check, status: statusCode('printed') }),
      })),
      now,
    );
    await record(
      tx,
      principal,
      ordered.map((check) => ({
        action: printStatement(check) === 'reprinted' ? 'check.reprint' : 'check.print',
        objectType: 'check',
        objectId: check.id,
        changes: [{ field: 'status', old: statusName(check.status), new: 'printed' }],
      })),
      now,
    );
  });
  return pdf;
}

/**
 * GET /bankAccounts/{id}/micr-test.pdf: the MICR test page for one bank account, with the line its
 * next check would carry, shifted by its printer offsets. Reads only: the serial is not taken.
 */
export async function micrTestPage(ctx: ServiceContext, principal: Principal, bankAccountId: string): Promise<Buffer> {
  const bank = await bankAccountStore.findBankAccount(ctx.db, principal, bankAccountId);
  if (bank === undefined) throw notFound('Bank account');
  try {
    const outcome = await ctx.heavyWork.run(
      'render-micr-test-page',
      {
        environment: principal.env,
        bankAccountName: bank.name,
        bankName: bank.bankName,
        routingNumber: bank.routingNumber,
        // The line a test check would carry (the test number): a test key never prints the real one.
        accountNumber: principal.env === 'test' ? TEST_ACCOUNT_NUMBER : accountNumberOf(ctx, bank),
        serialNumber: String(bank.nextSerial),
        printOffset: { x: bank.printOffsetX, y: bank.printOffsetY },
        createdAt: new Date(ctx.now()),
      },
      { owner: principal },
    );
    return pdfOf(outcome);
  } catch (error) {
    if (error instanceof RenderInputError)
      throw validationError(`The MICR test page cannot be printed: ${error.message}.`);
    throw error;
  }
}
