// Editing a check that is still new: the form filled from the check, saved through editCheck
// (PUT /checks/{id}) and, when its lines changed, attachVoucher, in one transaction.
import { needs } from '../../shell/access.ts';
import type { FastifyInstance } from 'fastify';
import type { Check } from '../../../domain/check.ts';
import type { Environment } from '../../../domain/owner.ts';
import { CheckEditBody, VoucherInput } from '../../../schemas/checks.ts';
import * as checkService from '../../../services/checks/write.service.ts';
import { editCheckWithNewPayee } from '../../../services/checks/with-new-payee.service.ts';
import { rules } from '../../../services/validation.ts';
import {
  checkEdit,
  fieldError,
  filledLines,
  newPayeeInput,
  schemaProblem,
  UNSENT_WORDS,
  unsentEditField,
  valuesFromForm,
  voucherInput,
} from './form-fields.ts';
import type { PanelDeps } from '../../shell/deps.ts';
import { html } from '../../shell/html.ts';
import { withEnv } from '../../shell/layout.ts';
import { envOf, principalFor } from '../../shell/session.ts';
import {
  asOutcome,
  editableCheck,
  type FormPage,
  isOutcome,
  linesOf,
  prefixed,
  payeeOfForm,
  showForm,
  valuesFromCheck,
  voucherOf,
} from './form-page.ts';

export async function checkEditPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  const editForm = (check: Check, env: Environment): FormPage => ({
    title: `Edit check ${check.serialNumber}`,
    heading: html`Edit check ${check.serialNumber}`,
    action: withEnv(`/panel/checks/${check.id}/edit`, env),
    submitLabel: 'Save changes',
    fixedBankAccount: check.bankAccountName,
  });

  app.get('/:id/edit', needs('checks.write'), async (request, reply) => {
    const env = envOf(request);
    const principal = principalFor(request, env);
    const { id } = request.params as { id: string };
    const check = await editableCheck(deps, principal, id, 'edited');
    const values = await valuesFromCheck(deps, principal, check, check.issueDate);
    return showForm(deps, request, reply, env, editForm(check, env), values, null);
  });

  app.post('/:id/edit', needs('checks.write'), async (request, reply) => {
    const env = envOf(request);
    const principal = principalFor(request, env);
    const { id } = request.params as { id: string };
    const check = await checkService.getCheck(ctx, principal, id);
    const form = editForm(check, env);
    const values = valuesFromForm(request.body);
    values.bankAccountId = check.bankAccountId;
    try {
      const existing = await voucherOf(deps, principal, check);
      // A field the form draws but the body lacks is refused, not saved as '' (which would clear
      // the memo, invoice number or category, or drop the voucher's lines).
      const unsent = unsentEditField(request.body, linesOf(existing).length);
      if (unsent !== null) return showForm(deps, request, reply, env, form, values, fieldError(unsent, UNSENT_WORDS));
      const payee = await payeeOfForm(deps, principal, values, check);
      if (isOutcome(payee)) return showForm(deps, request, reply, env, form, values, payee);
      const { payeeId } = payee;
      const problem = schemaProblem(CheckEditBody, checkEdit(values, values.newPayee ? 'new' : payeeId));
      if (problem !== null) throw problem;
      // The voucher is replaced only when its lines changed (keeping the number, date and memo
      // an API client may have given it); its lines are checked before anything is written.
      const voucher = voucherInput(values, {
        voucherNumber: existing?.voucherNumber ?? '',
        memo: existing?.memo ?? '',
        ...(existing?.date === null || existing?.date === undefined ? {} : { date: existing.date }),
      });
      const linesChanged = JSON.stringify(linesOf(existing)) !== JSON.stringify(filledLines(values).map((l) => l.line));
      if (linesChanged) {
        const voucherProblem = schemaProblem(VoucherInput, voucher);
        if (voucherProblem !== null) throw prefixed(voucherProblem, 'voucher.');
      }
      // An empty box would leave the amount as it was (PUT omits it); the form means "no amount",
      // which the API refuses the same way for a check that is not noAmount.
      if (values.amount === '' && !check.noAmount) throw rules.required('amount');
      const newPayee = values.newPayee ? newPayeeInput(values) : null;
      await editCheckWithNewPayee(
        ctx,
        principal,
        id,
        newPayee,
        checkEdit(values, payeeId),
        linesChanged ? voucher : null,
      );
    } catch (error) {
      return showForm(deps, request, reply, env, form, values, asOutcome(error, values));
    }
    return reply.redirect(withEnv(`/panel/checks/${id}?notice=check-updated`, env), 303);
  });
}
