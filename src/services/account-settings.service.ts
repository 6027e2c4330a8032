// Account settings: the company name, postal address, public phone, logo and
// time zone — what payees see as the sender in emails and on payee pages, and the zone the API
// gives times in (check statements). The panel's /panel/settings and `keys create --company` use it.
import { type AuditBy, record as recordAudit } from './audit.service.ts';
import { changesBetween } from '../domain/audit.ts';
import { checkCompany, isTimeZoneName } from '../domain/account.ts';
import { notFound } from '../errors.ts';
import * as accounts from '../store/accounts.repository.ts';
import type { AccountSettings } from '../store/accounts.repository.ts';
import { storableImage } from './bank-account.service.ts';
import type { ServiceContext } from './context.ts';
import { normalisePhone } from './payee.service.ts';

export type { AccountSettings };

export const MAX_COMPANY_ADDRESS_LENGTH = 200;

export interface SettingsInput {
  company: string;
  companyAddress: string;
  companyPhone: string;
  timeZone: string;
}

/** Field name → message, for every field that breaks a rule (the panel shows each beside its field). */
export type FieldProblems = Partial<Record<keyof SettingsInput, string>>;

/** Checks every field and answers what is wrong with each, plus the values as they will be stored. */
export function checkSettings(input: SettingsInput): { problems: FieldProblems; clean: SettingsInput } {
  const problems: FieldProblems = {};
  const company = checkCompany(input.company);
  if (company !== null) problems.company = company;
  const companyAddress = input.companyAddress.trim();
  if (companyAddress.length > MAX_COMPANY_ADDRESS_LENGTH)
    problems.companyAddress = `The address field must not be greater than ${MAX_COMPANY_ADDRESS_LENGTH} characters.`;
  let companyPhone = input.companyPhone.trim();
  if (companyPhone !== '') {
    const normalised = normalisePhone(companyPhone);
    if (normalised === null) problems.companyPhone = 'The phone field must be a valid phone number.';
    else companyPhone = normalised;
  }
  const timeZone = input.timeZone.trim();
  if (!isTimeZoneName(timeZone))
    problems.timeZone = 'The time zone field must be an IANA time zone name, such as America/New_York or UTC.';
  return { problems, clean: { company: input.company.trim(), companyAddress, companyPhone, timeZone } };
}

export async function getSettings(ctx: ServiceContext, accountId: string): Promise<AccountSettings> {
  const settings = await accounts.findAccountSettings(ctx.db, accountId);
  if (settings === undefined) throw notFound('Account');
  return settings;
}

/** Saves all the settings or, when any field breaks a rule, nothing: the problems are answered instead. */
export async function updateSettings(
  ctx: ServiceContext,
  accountId: string,
  input: SettingsInput,
  by?: AuditBy,
): Promise<FieldProblems> {
  const { problems, clean } = checkSettings(input);
  if (Object.keys(problems).length > 0) return problems;
  await ctx.db.transaction(async (tx) => {
    const before = await accounts.findAccountSettings(tx, accountId);
    if ((await accounts.updateAccountSettings(tx, accountId, clean)) === 0) throw notFound('Account');
    const changes = changesBetween(before ?? null, clean, Object.keys(clean));
    if (by !== undefined && changes.length > 0)
      await recordAudit(
        tx,
        { accountId, env: '', actor: by.actor, ...(by.origin === undefined ? {} : { origin: by.origin }) },
        [{ action: 'settings.edit', objectType: 'settings', objectId: accountId, changes }],
        ctx.now(),
      );
  });
  return {};
}

/** Stores (or with null, removes) the account's logo: printed on its checks unless a bank account has its own. */
export async function setAccountLogo(
  ctx: ServiceContext,
  accountId: string,
  image: Buffer | null,
  by?: AuditBy,
): Promise<void> {
  const stored = image === null ? null : await storableImage('logo', image, accountId);
  await ctx.db.transaction(async (tx) => {
    await accounts.setAccountLogo(tx, accountId, stored);
    if (by !== undefined)
      await recordAudit(
        tx,
        { accountId, env: '', actor: by.actor, ...(by.origin === undefined ? {} : { origin: by.origin }) },
        [
          {
            action: 'settings.logo',
            objectType: 'settings',
            objectId: accountId,
            changes: [
              { field: 'logo', old: null, new: stored === null ? 'removed' : `new image (${stored.length} bytes)` },
            ],
          },
        ],
        ctx.now(),
      );
  });
}
