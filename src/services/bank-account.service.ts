import { recordFor } from './audit.service.ts';
import { type AuditEvent, changesBetween } from '../domain/audit.ts';
import type { Owner } from '../domain/owner.ts';
import { BANK_ACCOUNT_DETAILS, type BankAccount, type BankAccountDetail } from '../domain/bank-account.ts';
import { newId } from '../domain/ids.ts';
import { maskAccountNumber } from '../domain/account-number.ts';
import { bankAccountNumberContext, sealedKeyId } from '../domain/sealed.ts';
import { ForeignKeyViolation, type Queryable } from '../store/db.ts';
import { currentDataKeyId } from '../store/server-secret.ts';
import { isValidRoutingNumber } from '../domain/routing-number.ts';
import { AppError, duplicate, notFound } from '../errors.ts';
import { type ImagePurpose, isRefusal, MAX_IMAGE_BYTES, normalizeImage } from './normalize-image.ts';
import type { Page } from '../store/owned-queries.ts';
import type { Paged } from '../domain/paging.ts';
import * as bankAccountStore from '../store/bank-accounts.repository.ts';
import * as addressStore from '../store/addresses.repository.ts';
import type { ServiceContext } from './context.ts';
import type { BankAccountChanges, BankAccountInput } from '../schemas/bank-accounts.ts';
import { emptyToNull, rules } from './validation.ts';

/** Check numbers start here unless the bank account says otherwise (API decisions). */
export const DEFAULT_STARTING_SERIAL = 10001;

/** A serial number given as a number or as digits (the schema bounds both to 12 digits). */
function serialFrom(value: number | string, path: string): number {
  const serial = Number(value);
  if (!Number.isSafeInteger(serial) || serial < 1) throw rules.custom(path, 'must be at least 1');
  return serial;
}

/**
 * A field given under our name and the hosted one (`routingNumber` / `bankRoutingNumber`,
 * `bankAddress` / `bankAddress1`): either, or both when they agree.
 */
function eitherName(
  path: string,
  ours: [string, string | undefined],
  hosted: [string, string | undefined],
): string | undefined {
  const [ourName, ourValue] = ours;
  const [hostedName, hostedValue] = hosted;
  if (ourValue !== undefined && hostedValue !== undefined && ourValue !== hostedValue)
    throw rules.custom(`${path}${hostedName}`, `must be the same as ${ourName} when both are given`);
  return ourValue ?? hostedValue;
}

/** The hosted detail fields given, as stored. */
function detailsOf(item: Partial<Record<BankAccountDetail, string>>): Partial<Record<BankAccountDetail, string>> {
  return Object.fromEntries(BANK_ACCOUNT_DETAILS.flatMap((f) => (item[f] === undefined ? [] : [[f, item[f]]])));
}

export async function createBankAccounts(
  ctx: ServiceContext,
  owner: Owner,
  items: readonly BankAccountInput[],
): Promise<BankAccount[]> {
  const now = ctx.now();
  // Looked at first, so a wrong address is the error reported before the others (as before);
  // looked at again, locked, in the writing transaction below.
  for (const [i, item] of items.entries())
    await checkFromAddress(ctx.db, owner, `bankAccounts.${i}.customFromAddressId`, item.customFromAddressId);
  // The number is sealed before it reaches the database; the key id is read each time, so a
  // rotation by the CLI while the server runs is followed at once.
  const keyId = await currentDataKeyId(ctx.db);
  const accounts = items.map((item, i): BankAccount => {
    const path = `bankAccounts.${i}.`;
    const routingNumber = eitherName(
      path,
      ['routingNumber', item.routingNumber],
      ['bankRoutingNumber', item.bankRoutingNumber],
    );
    if (routingNumber === undefined) throw rules.required(`${path}routingNumber`);
    if (!isValidRoutingNumber(routingNumber))
      throw rules.custom(
        `${path}${item.routingNumber === undefined ? 'bankRoutingNumber' : 'routingNumber'}`,
        'must be a valid 9-digit ABA routing number',
      );
    const id = newId('bank', now);
    const details = detailsOf(item);
    return {
      id,
      name: item.name,
      bankName: item.bankName ?? '',
      bankAddress: eitherName(path, ['bankAddress', item.bankAddress], ['bankAddress1', item.bankAddress1]) ?? '',
      routingNumber,
      accountNumberMasked: maskAccountNumber(item.accountNumber),
      sealedAccountNumber: ctx.vault.seal(item.accountNumber, keyId, bankAccountNumberContext(id)),
      nextSerial:
        item.startingSerial === undefined
          ? DEFAULT_STARTING_SERIAL
          : serialFrom(item.startingSerial, `bankAccounts.${i}.startingSerial`),
      customFromAddressId: emptyToNull(item.customFromAddressId),
      hasSignature: false,
      printOffsetX: item.printOffsetX ?? 0,
      printOffsetY: item.printOffsetY ?? 0,
      ...(Object.fromEntries(BANK_ACCOUNT_DETAILS.map((f) => [f, details[f] ?? ''])) as Record<
        BankAccountDetail,
        string
      >),
      createdAt: now,
    };
  });
  // One bank account per real account: two records of it would keep two check-number counters and
  // print the same number twice. A repeat is answered with the existing id (docs/api-notes.md,
  // "Duplicates"); it is the caller's own record, so naming it reveals nothing.
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const key = `${accounts[i]?.routingNumber}/${item.accountNumber}`;
    if (seen.has(key)) throw rules.distinct(`bankAccounts.${i}.accountNumber`);
    seen.set(key, i);
  });
  await ctx.db
    .transaction(async (tx) => {
      for (const [i, item] of items.entries())
        await checkFromAddress(tx, owner, `bankAccounts.${i}.customFromAddressId`, item.customFromAddressId);
      for (const [i, account] of accounts.entries()) {
        const plain = items[i]?.accountNumber ?? '';
        const candidates = await bankAccountStore.sameNumberCandidates(
          tx,
          owner,
          account.routingNumber,
          account.accountNumberMasked,
        );
        const existing = candidates.find(
          (c) => sealedKeyId(c.sealed) !== null && ctx.vault.open(c.sealed, bankAccountNumberContext(c.id)) === plain,
        );
        if (existing !== undefined)
          throw duplicate(`The bankAccounts.${i}.accountNumber has already been taken.`, 'bankAccountId', existing.id);
      }
      for (const account of accounts) await bankAccountStore.insertBankAccount(tx, owner, account);
      await recordFor(
        tx,
        owner,
        accounts.map((account, i) => ({
          action: 'bank-account.create',
          objectType: 'bank-account',
          objectId: account.id,
          // The number as typed goes through the trail's masking: its last four digits only.
          changes: changesBetween(null, { ...account, accountNumber: items[i]?.accountNumber ?? '' }, [
            'name',
            'bankName',
            'routingNumber',
            'accountNumber',
            'nextSerial',
            'customFromAddressId',
          ]),
        })),
        now,
      );
    })
    .catch((error: unknown) => {
      throw fromAddressGone(error, 'bankAccounts.customFromAddressId');
    });
  return accounts;
}

/**
 * The signature image of a live (not deleted) bank account as stored, the bytes checks print, or
 * null when none is on file (the panel's preview); another owner's id is a 404.
 */
export async function signatureImage(ctx: ServiceContext, owner: Owner, id: string): Promise<Buffer | null> {
  await getBankAccount(ctx, owner, id);
  const found = await bankAccountStore.findBankAccountForPrinting(ctx.db, owner, id);
  return found?.signature ?? null;
}

export async function getBankAccount(ctx: ServiceContext, owner: Owner, id: string): Promise<BankAccount> {
  const account = await bankAccountStore.findBankAccount(ctx.db, owner, id);
  if (account === undefined) throw notFound('Bank account');
  return account;
}

/**
 * The drawer's address printed on the checks must be one of the caller's custom 'from' addresses.
 * Inside the transaction that writes the bank account, the address stays locked against a racing
 * delete until it commits (addresses.repository.ts, findAddressForUse).
 */
async function checkFromAddress(
  q: Queryable,
  owner: Owner,
  path: string,
  id: string | null | undefined,
): Promise<void> {
  const wanted = emptyToNull(id);
  if (wanted !== null && (await addressStore.findAddressForUse(q, owner, 'from', wanted)) === undefined)
    throw rules.invalid(path);
}

/** The last guard behind checkFromAddress's lock: the address was deleted between look and write. */
function fromAddressGone(error: unknown, path: string): unknown {
  return error instanceof ForeignKeyViolation ? rules.invalid(path) : error;
}

export async function updateBankAccount(
  ctx: ServiceContext,
  owner: Owner,
  id: string,
  changes: BankAccountChanges,
): Promise<BankAccount> {
  const {
    customFromAddressId,
    nextSerial,
    routingNumber,
    bankRoutingNumber,
    bankAddress,
    bankAddress1,
    name,
    bankName,
    printOffsetX,
    printOffsetY,
  } = changes;
  // A check's routing number is where its money comes from: it is never changed in place (a
  // client that sends the whole record back sends the current one, which is accepted).
  const routing = eitherName('', ['routingNumber', routingNumber], ['bankRoutingNumber', bankRoutingNumber]);
  const address = eitherName('', ['bankAddress', bankAddress], ['bankAddress1', bankAddress1]);
  const update = {
    ...(name === undefined ? {} : { name }),
    ...(bankName === undefined ? {} : { bankName }),
    ...(address === undefined ? {} : { bankAddress: address }),
    ...(printOffsetX === undefined ? {} : { printOffsetX }),
    ...(printOffsetY === undefined ? {} : { printOffsetY }),
    ...detailsOf(changes),
    ...(nextSerial === undefined ? {} : { nextSerial: serialFrom(nextSerial, 'nextSerial') }),
    ...(customFromAddressId === undefined ? {} : { customFromAddressId: emptyToNull(customFromAddressId) }),
  };
  // The address is looked at and the row written in one transaction, the address locked between
  // (checkFromAddress): a racing DELETE /customFromAddresses waits, then sees this bank account.
  await ctx.db
    .transaction(async (tx) => {
      await checkFromAddress(tx, owner, 'customFromAddressId', customFromAddressId);
      if (routing !== undefined) {
        const current = await bankAccountStore.findBankAccount(tx, owner, id);
        if (current === undefined) throw notFound('Bank account');
        if (routing !== current.routingNumber)
          throw rules.custom(
            routingNumber === undefined ? 'bankRoutingNumber' : 'routingNumber',
            'cannot be changed: create a new bank account for another routing number',
          );
      }
      const before = await bankAccountStore.findBankAccount(tx, owner, id);
      if ((await bankAccountStore.updateBankAccount(tx, owner, id, update)) === 0) throw notFound('Bank account');
      const changed = changesBetween(before ?? null, { ...before, ...update }, Object.keys(update));
      if (changed.length > 0)
        await recordFor(
          tx,
          owner,
          [{ action: 'bank-account.edit', objectType: 'bank-account', objectId: id, changes: changed }],
          ctx.now(),
        );
    })
    .catch((error: unknown) => {
      throw fromAddressGone(error, 'customFromAddressId');
    });
  return getBankAccount(ctx, owner, id);
}

/** Largest signature upload accepted: a signature is a small picture, not a scan of a page. */
export const MAX_SIGNATURE_BYTES = MAX_IMAGE_BYTES.signature;

/** Largest logo upload accepted (a small picture in the check's corner). */
export const MAX_LOGO_BYTES = MAX_IMAGE_BYTES.logo;

/**
 * The image to store for an upload (signature, logos): the upload decoded, checked and written
 * again by normalize-image.ts, never the uploaded bytes. Too large is a 413, anything else that
 * cannot be used (not PNG or JPEG, too many pixels, damaged) a 422 naming the field.
 */
export async function storableImage(field: ImagePurpose, upload: Uint8Array, accountId: string): Promise<Buffer> {
  const result = await normalizeImage(upload, field, accountId);
  if (!isRefusal(result)) return result.png;
  if (result.refused === 'too_large') throw new AppError('payload_too_large', `The ${field} field ${result.rule}.`);
  throw rules.custom(field, result.rule);
}

/** Stores (or with null, removes) the signature image printed on the bank account's checks. */
export async function setSignature(
  ctx: ServiceContext,
  owner: Owner,
  id: string,
  image: Buffer | null,
): Promise<BankAccount> {
  const stored = image === null ? null : await storableImage('signature', image, owner.accountId);
  await ctx.db.transaction(async (tx) => {
    const before = await bankAccountStore.findBankAccount(tx, owner, id);
    if ((await bankAccountStore.setBankAccountSignature(tx, owner, id, stored)) === 0) throw notFound('Bank account');
    await recordFor(
      tx,
      owner,
      [imageEvent('bank-account.signature', id, before?.hasSignature ?? false, stored)],
      ctx.now(),
    );
  });
  return getBankAccount(ctx, owner, id);
}

/** Stores (or with null, removes) the bank account's own logo; without one its checks print the account's. */
export async function setLogo(ctx: ServiceContext, owner: Owner, id: string, image: Buffer | null): Promise<void> {
  const stored = image === null ? null : await storableImage('logo', image, owner.accountId);
  await ctx.db.transaction(async (tx) => {
    const had = await bankAccountStore.bankAccountHasLogo(tx, owner, id);
    if ((await bankAccountStore.setBankAccountLogo(tx, owner, id, stored)) === 0) throw notFound('Bank account');
    await recordFor(tx, owner, [imageEvent('bank-account.logo', id, had, stored)], ctx.now());
  });
}

/** An image put on or taken off: the trail says which and the size stored, never the picture. */
function imageEvent(action: string, id: string, had: boolean, stored: Buffer | null): AuditEvent {
  return {
    action,
    objectType: 'bank-account',
    objectId: id,
    changes: [
      {
        field: action.slice(action.indexOf('.') + 1),
        old: had ? 'on file' : null,
        new: stored === null ? null : `new image (${stored.length} bytes)`,
      },
    ],
  };
}

export async function hasLogo(ctx: ServiceContext, owner: Owner, id: string): Promise<boolean> {
  return bankAccountStore.bankAccountHasLogo(ctx.db, owner, id);
}

/**
 * The panel's delete: refused with a 409 while any check is drawn on the account,
 * nothing changed. The API's DELETE keeps its documented rule (hidden, checks stay readable).
 */
export async function deleteUnusedBankAccount(ctx: ServiceContext, owner: Owner, id: string): Promise<void> {
  const deleted = await ctx.db.transaction(async (tx) => {
    if ((await bankAccountStore.deleteUnusedBankAccount(tx, owner, id, ctx.now())) === 0) return false;
    await recordFor(
      tx,
      owner,
      [{ action: 'bank-account.delete', objectType: 'bank-account', objectId: id }],
      ctx.now(),
    );
    return true;
  });
  if (deleted) return;
  await getBankAccount(ctx, owner, id);
  throw new AppError('conflict', 'Checks are drawn on this bank account, so it cannot be deleted.');
}

export async function deleteBankAccount(ctx: ServiceContext, owner: Owner, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if ((await bankAccountStore.deleteBankAccount(tx, owner, id, ctx.now())) === 0) throw notFound('Bank account');
    await recordFor(
      tx,
      owner,
      [{ action: 'bank-account.delete', objectType: 'bank-account', objectId: id }],
      ctx.now(),
    );
  });
}

export function listBankAccounts(ctx: ServiceContext, owner: Owner, page: Page): Promise<Paged<BankAccount>> {
  return bankAccountStore.listBankAccounts(ctx.db, owner, page);
}

export { maskAccountNumber };

/** The real number, for the MICR line (the duplicate check in createBankAccounts also opens it). */
export function accountNumberOf(ctx: Pick<ServiceContext, 'vault'>, bank: BankAccount): string {
  return ctx.vault.open(bank.sealedAccountNumber, bankAccountNumberContext(bank.id));
}
