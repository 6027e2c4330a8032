// An account (a company using the service) and its API keys.
import type { Environment } from './owner.ts';

export interface Account {
  id: string;
  company: string;
  email: string;
  emailVerified: boolean;
  phone: string;
  phoneVerified: boolean;
  timeZone: string;
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  env: Environment;
  name: string;
  keyHash: string;
  displayPrefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  /** The person who made it in the panel (migration 027); null for the command line's and older keys. */
  createdBy: string | null;
}

/**
 * Who payees are told sent them a check: the company name, or — for an account that has none
 * (one made by `checkwriter keys create` without `--company`) — the owner's email address, which
 * at least names a real sender, never a bare domain.
 */
export function senderName(account: Pick<Account, 'company' | 'email'>): string {
  const company = account.company.trim();
  return company === '' ? account.email : company;
}

/** An IANA time zone name (Area/Location, or UTC) that this runtime knows; offsets like +05:00 are not names. */
export function isTimeZoneName(value: string): boolean {
  if (!/^(UTC|[A-Z][A-Za-z_-]+(\/[A-Za-z0-9_+-]+){1,2})$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const MAX_COMPANY_LENGTH = 100;

/** What is wrong with a company name (as sign-up takes it: required, at most 100 characters), or null. */
export function checkCompany(company: string): string | null {
  const trimmed = company.trim();
  if (trimmed === '') return 'The company field is required.';
  if (trimmed.length > MAX_COMPANY_LENGTH)
    return `The company field must not be greater than ${MAX_COMPANY_LENGTH} characters.`;
  return null;
}
