// Everything under /panel/bank-accounts: the list and forms (the records' pages for this kind), the
// signature and logo uploads, and each bank account's check register.
import type { FastifyInstance } from 'fastify';
import { recordKindPages } from '../records/records.pages.ts';
import { depsOf, type PanelDeps } from '../shell/deps.ts';
import { bankAccountsKind, bankAccountUploads } from './bank-accounts.pages.ts';
import { bankAccountCheckRegisterPages } from './check-register.pages.ts';
import { bankAccountLayoutPages } from './positive-pay-layout.pages.ts';

export async function bankAccountsPlugin(app: FastifyInstance, options: PanelDeps): Promise<void> {
  const deps = depsOf(options);
  await recordKindPages(app, deps, bankAccountsKind);
  // Uploads parse multipart bodies, each in its own scope only.
  await app.register(bankAccountUploads, deps);
  await app.register(bankAccountCheckRegisterPages, deps);
  await app.register(bankAccountLayoutPages, deps);
}
