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
}
