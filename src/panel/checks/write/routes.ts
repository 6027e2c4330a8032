// Writing checks in the panel (/panel/checks/new and each check's edit, delete and void pages): new,
// edit and delete while new, void later, duplicate. Every save goes through the services the API
// uses (createChecks, editCheck, deleteCheck, voidCheck), so a check written here is the API's
// check. A new payee typed into the form is created in the same transaction as the check: if the
// check is refused, the payee is not kept either.
//
// One page per file: write.pages.ts (write, duplicate), edit.pages.ts (edit), confirm.pages.ts
// (delete and void, and the buttons that lead there). form-fields.ts turns the form's fields into
// the API's input and back, and draws the form; form-page.ts holds what the form pages share. The
// two small JSON answers the form's script asks (payee suggestions, an amount in words) are in
// lookup.pages.ts, registered at the panel's root, where their addresses are.
import type { FastifyInstance } from 'fastify';
import { checkConfirmPages } from './confirm.pages.ts';
import { checkEditPages } from './edit.pages.ts';
import { checkWritePages } from './write.pages.ts';
import type { PanelDeps } from '../../shell/deps.ts';

export async function checkFormPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  await checkWritePages(app, deps);
  await checkEditPages(app, deps);
  await checkConfirmPages(app, deps);
}
