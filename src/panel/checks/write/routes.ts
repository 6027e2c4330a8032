// Writing checks in the panel: new, edit and delete while new, void later, duplicate; and the two
// small JSON answers the form's script asks (payee suggestions, an amount in words). Every save
// goes through the services the API uses (createChecks, editCheck, deleteCheck, voidCheck), so a
// check written here is the API's check. A new payee typed into the form is created in the same
// transaction as the check: if the check is refused, the payee is not kept either.
//
// One page per file: check-write.pages.ts (write, duplicate), check-edit.pages.ts (edit),
// check-confirm.pages.ts (delete and void, and the buttons that lead there), check-lookup.pages.ts
// (the script's JSON answers); check-form-page.ts holds what the form pages share.
import type { FastifyInstance } from 'fastify';
import { checkConfirmPages } from './confirm.pages.ts';
import { checkEditPages } from './edit.pages.ts';
import { checkLookupPages } from './lookup.pages.ts';
import { checkWritePages } from './write.pages.ts';
import type { PanelDeps } from '../../shell/deps.ts';

export async function checkFormPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  await checkWritePages(app, deps);
  await checkEditPages(app, deps);
  await checkConfirmPages(app, deps);
  await checkLookupPages(app, deps);
}
