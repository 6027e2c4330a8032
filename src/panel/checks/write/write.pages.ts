// Writing a check in the panel: the new form, and the same form filled from another check
// (Duplicate: saving makes a new check with its own number). The save goes through createChecks,
// as the API's POST /checks does; a new payee typed into the form is created in the same
// transaction as the check (writeCheckWithNewPayee): if the check is refused, the payee is not
// kept either.
import { needs } from '../../shell/access.ts';
import type { FastifyInstance } from 'fastify';
import { today } from '../../../domain/dates.ts';
import type { Environment } from '../../../domain/owner.ts';
import { CreateChecksBody } from '../../../schemas/checks.ts';
import * as checkService from '../../../services/checks/write.service.ts';
import { writeCheckWithNewPayee } from '../../../services/checks/with-new-payee.service.ts';
import { checkInput, emptyValues, newPayeeInput, schemaProblem, valuesFromForm } from './form-fields.ts';
import type { PanelDeps } from '../../shell/deps.ts';
import { queryText } from '../../shell/form.ts';
import { html } from '../../shell/html.ts';
import { withEnv } from '../../shell/layout.ts';
import { envOf, principalFor } from '../../shell/session.ts';
import { asOutcome, type FormPage, isOutcome, payeeOfForm, showForm, valuesFromCheck } from './form-page.ts';

const NEW_FORM = (env: Environment): FormPage => ({
  title: 'Write a check',
  heading: html`Write a check`,
  action: withEnv('/panel/checks/new', env),
  submitLabel: 'Save check',
  fixedBankAccount: null,
});

export async function checkWritePages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  app.get('/new', needs('checks.write'), async (request, reply) => {
    const env = envOf(request);
    const principal = principalFor(request, env);
    const from = queryText(request.query, 'from');
    const date = today(principal.timeZone, ctx.now());
    // Duplicate: the form filled from that check; saving makes a new check with its own number.
    const values =
      from === ''
        ? emptyValues(date)
        : await valuesFromCheck(deps, principal, await checkService.getCheck(ctx, principal, from), date);
    return showForm(deps, request, reply, env, NEW_FORM(env), values, null);
  });

  app.post('/new', needs('checks.write'), async (request, reply) => {
    const env = envOf(request);
    const principal = principalFor(request, env);
    const values = valuesFromForm(request.body);
    const form = NEW_FORM(env);
    let created: checkService.CreatedCheck | undefined;
    try {
      const payee = await payeeOfForm(deps, principal, values);
      if (isOutcome(payee)) return showForm(deps, request, reply, env, form, values, payee);
      const { payeeId } = payee;
      // The schema sees a stand-in id for a payee not made yet; the service sees the real one.
      const schemaInput = checkInput(values, values.newPayee ? 'new' : payeeId);
      const problem = schemaProblem(CreateChecksBody, { checks: [schemaInput] });
      if (problem !== null) throw problem;
      const newPayee = values.newPayee ? newPayeeInput(values) : null;
      [created] = await writeCheckWithNewPayee(ctx, principal, newPayee, checkInput(values, payeeId));
    } catch (error) {
      return showForm(deps, request, reply, env, form, values, asOutcome(error, values));
    }
    if (created === undefined) throw new Error('createChecks returned no check');
    return reply.redirect(withEnv(`/panel/checks/${created.checkId}?notice=check-saved`, env), 303);
  });
}
