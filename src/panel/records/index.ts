// The records behind the office's Payees entry and the settings page: payees, categories, and
// custom from and to addresses, each kind's list and forms under its own URL (/panel/payees,
// /panel/categories, /panel/from-addresses, /panel/to-addresses).
import type { FastifyInstance } from 'fastify';
import { type PanelDeps, under } from '../shell/deps.ts';
import { CATEGORIES, FROM_ADDRESSES, PAYEES, recordKindPages, TO_ADDRESSES } from './records.pages.ts';

export async function recordsPlugin(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  await app.register((scope) => recordKindPages(scope, deps, PAYEES), under(PAYEES.path, deps));
  await app.register((scope) => recordKindPages(scope, deps, CATEGORIES), under(CATEGORIES.path, deps));
  await app.register((scope) => recordKindPages(scope, deps, FROM_ADDRESSES), under(FROM_ADDRESSES.path, deps));
  await app.register((scope) => recordKindPages(scope, deps, TO_ADDRESSES), under(TO_ADDRESSES.path, deps));
}
