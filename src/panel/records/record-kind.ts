import type { Action } from '../../domain/people/roles.ts';
// What a kind of record (payees, bank accounts, categories, addresses) tells the records pages:
// its own module so that records.pages.ts, which draws every kind, and bank-accounts.pages.ts,
// which defines one, both import it without records.pages.ts importing the bank accounts back.
import type { FastifyRequest } from 'fastify';
import type { Environment, Principal } from '../../domain/owner.ts';
import type { Paged } from '../../domain/paging.ts';
import type { PanelDeps } from '../shell/deps.ts';
import type { Html } from '../shell/html.ts';
import type { NavKey } from '../shell/layout.ts';
import type { FieldSpec, Problems, Values } from '../shell/record-form.ts';

/** One kind of record: how it is listed, which fields its form has, and the service calls behind it. */
export interface RecordKind<T> {
  key: NavKey;
  /** The list's path under /panel, e.g. '/payees'. */
  path: string;
  title: string;
  /** "payee", "bank account", … as a sentence names one. */
  singular: string;
  searchHint: string;
  columns: readonly string[];
  row: (item: T) => readonly (string | Html)[];
  idOf: (item: T) => string;
  nameOf: (item: T) => string;
  list: (
    deps: PanelDeps,
    owner: Principal,
    page: { limit: number; offset: number; term: string | null },
  ) => Promise<Paged<T>>;
  find: (deps: PanelDeps, owner: Principal, id: string) => Promise<T>;
  /** The form's fields; `editing` is the record being edited (create form when absent). */
  fields: (deps: PanelDeps, owner: Principal, editing?: T) => Promise<readonly FieldSpec[]>;
  valuesOf: (item: T) => Values;
  /** Field problems by the API's schema, before any service call. */
  check: (values: Values, editing: boolean) => Problems;
  create: (deps: PanelDeps, owner: Principal, values: Values) => Promise<T>;
  update: (deps: PanelDeps, owner: Principal, id: string, values: Values) => Promise<void>;
  remove: (deps: PanelDeps, owner: Principal, id: string) => Promise<void>;
  /** The action its writes need (payees.manage when absent). */
  manage?: Action;
  /** Its writes ask for a recent second factor (shell/step-up.ts): bank accounts. */
  stepUp?: boolean;
  /** Values never drawn back into a form (a bank account's full number). */
  secretFields?: readonly string[];
  /** Facts shown above the edit form (read-only values). */
  facts?: (item: T) => Html;
  /** The edit page uses the width: the form beside the facts and uploads (bank accounts). */
  wide?: boolean;
  /** More sections on the edit page (uploads). */
  extra?: (deps: PanelDeps, request: FastifyRequest, env: Environment, item: T) => Promise<Html>;
}
