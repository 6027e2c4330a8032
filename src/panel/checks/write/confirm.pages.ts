// What can still happen to a check, from its page: the buttons (checks.pages.ts shows them) and
// the pages that ask before a check is deleted (while new) or voided (final).
import { needs } from '../../shell/access.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Check } from '../../../domain/check.ts';
import { canHappen, isEditable, statusName } from '../../../domain/check-status.ts';
import type { Environment } from '../../../domain/owner.ts';
import * as checkService from '../../../services/checks/write.service.ts';
import * as lifecycle from '../../../services/checks/lifecycle.service.ts';
import type { PanelDeps } from '../../shell/deps.ts';
import { html, type Html } from '../../shell/html.ts';
import { csrfField, page, sendPage, withEnv } from '../../shell/layout.ts';
import { envOf, principalFor } from '../../shell/session.ts';
import { editableCheck } from './form-page.ts';

/** The buttons on a check's page: what can still happen to it (checks.pages.ts shows them). */
export function checkActions(check: Check, env: Environment): Html {
  const path = (to: string): string => withEnv(`/panel/checks/${check.id}/${to}`, env);
  const editable = isEditable(check.status);
  return html`<nav class="actions" aria-label="Check actions">${editable ? html`<a class="button secondary" href="${path('edit')}">Edit</a> <a class="button secondary" href="${path('delete')}">Delete</a> ` : ''}${canHappen('void', check.status) ? html`<a class="button secondary" href="${path('void')}">Void</a> ` : ''}<a class="button secondary" href="${withEnv(`/panel/checks/new?from=${encodeURIComponent(check.id)}`, env)}">Duplicate</a></nav>`;
}

function confirmPage(
  request: FastifyRequest,
  reply: FastifyReply,
  env: Environment,
  check: Check,
  what: { verb: string; title: string; text: string; danger: boolean },
): FastifyReply {
  const back = withEnv(`/panel/checks/${check.id}`, env);
  const body = html`<p><a href="${back}">← Check ${check.serialNumber}</a></p>
<h1>${what.title} <span class="hint">(${env})</span></h1>
<p>${what.text}</p>
<form method="post" action="${withEnv(`/panel/checks/${check.id}/${what.verb}`, env)}">${csrfField(request)}
${env === 'live' ? html`<input type="hidden" name="env" value="live">` : ''}
<button type="submit"${what.danger ? html` class="danger"` : ''}>${what.title}</button> <a class="button secondary" href="${back}">Keep it</a></form>`;
  return sendPage(reply, page({ title: what.title, request, current: 'checks', env, narrow: true }, body));
}

export async function checkConfirmPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  app.get('/:id/delete', needs('checks.write'), async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    const check = await editableCheck(deps, principalFor(request, env), id, 'deleted');
    return confirmPage(request, reply, env, check, {
      verb: 'delete',
      title: `Delete check ${check.serialNumber}`,
      text: 'The check has not been printed or sent, so it can be deleted. Its number is not given out again.',
      danger: true,
    });
  });

  app.post('/:id/delete', needs('checks.write'), async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    await lifecycle.deleteCheck(ctx, principalFor(request, env), id);
    return reply.redirect(withEnv('/panel/checks?notice=check-deleted', env), 303);
  });

  app.get('/:id/void', needs('checks.void'), async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    const check = await checkService.getCheck(ctx, principalFor(request, env), id);
    if (!canHappen('void', check.status)) throw lifecycle.refused('voided', check.status);
    return confirmPage(request, reply, env, check, {
      verb: 'void',
      title: `Void check ${check.serialNumber}`,
      text: `Voiding is final: the check (status ${statusName(check.status)}) can no longer be printed, sent or cashed through us, and a mailing still waiting is cancelled.`,
      danger: true,
    });
  });

  app.post('/:id/void', needs('checks.void'), async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    await lifecycle.voidCheck(ctx, principalFor(request, env), id);
    return reply.redirect(withEnv(`/panel/checks/${id}?notice=check-voided`, env), 303);
  });
}
