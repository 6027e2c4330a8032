// A bank account's positive pay layout: a select of the presets and the company's custom layouts
// on the account's page, and the route that saves the choice. Exports in the `bank` format use it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BankAccount } from '../../domain/bank-account.ts';
import type { Environment } from '../../domain/owner.ts';
import { AppError } from '../../errors.ts';
import * as layouts from '../../services/positive-pay-layouts.service.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { sentField } from '../shell/form.ts';
import { type Html, html } from '../shell/html.ts';
import { csrfField, withEnv } from '../shell/layout.ts';
import { envOf, principalFor } from '../shell/session.ts';
import { needsRecentFactor } from '../shell/step-up.ts';

export async function layoutChoiceForm(
  deps: PanelDeps,
  request: FastifyRequest,
  env: Environment,
  b: BankAccount,
): Promise<Html> {
  const owner = principalFor(request, env);
  const choices = await layouts.layoutChoices(deps.ctx, owner);
  const chosen = (await layouts.chosenLayoutName(deps.ctx, owner, b.id)) ?? '';
  return html`<form method="post" action="/panel/bank-accounts/${encodeURIComponent(b.id)}/positive-pay-layout" class="card"><h2>Positive pay layout</h2>${csrfField(request)}
<input type="hidden" name="env" value="${env}">
<label for="positivePayLayout">Layout of this account's positive pay files <span class="hint">(the “Each bank account's chosen layout” export)</span></label>
<select id="positivePayLayout" name="positivePayLayout"><option value="">None chosen</option>${choices.map(
    (c) => html`<option value="${c.value}"${c.value === chosen ? html` selected` : ''}>${c.label}</option>`,
  )}</select>
<p class="hint">Your bank's layout is not listed? Add it from its spec sheet: <a href="${withEnv('/panel/positive-pay/layouts', env)}">Positive pay layouts</a>.</p>
<p><button type="submit">Save the layout</button></p></form>`;
}

export async function bankAccountLayoutPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  app.post('/:id/positive-pay-layout', needsRecentFactor('bank-accounts.manage'), async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    // '' is the form's "None chosen"; a body without the field is refused, not read as that.
    const choice = sentField(request.body, 'positivePayLayout', 'Choose one of the layouts offered.');
    try {
      await layouts.chooseLayout(deps.ctx, principalFor(request, env), id, choice);
    } catch (error) {
      // A choice not offered (another company's layout, a made-up name) is refused without a write.
      if (error instanceof AppError && error.code === 'validation')
        throw new AppError('validation', 'Choose one of the layouts offered.');
      throw error;
    }
    return reply.redirect(withEnv(`/panel/bank-accounts/${encodeURIComponent(id)}?notice=record-saved`, env), 303);
  });
}
