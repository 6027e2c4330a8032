// Webhooks: add an endpoint (per environment), see its signing secret, its deliveries, redeliver
// one, delete the endpoint. The same service as the API's /webhooks routes.
import { needs } from '../shell/access.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import type { Environment } from '../../domain/owner.ts';
import { EVENT_TYPES } from '../../domain/event-types.ts';
import * as webhookService from '../../services/webhook.service.ts';
import { field, fields } from '../shell/form.ts';
import { html } from '../shell/html.ts';
import { csrfField, page, sendPage, when, withEnv } from '../shell/layout.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { envOf, principalFor } from '../shell/session.ts';
import { plainWords } from '../shell/wording.ts';

function envField(env: Environment): ReturnType<typeof html> {
  return html`<input type="hidden" name="env" value="${env}">`;
}

export async function webhooksPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  const listPage = async (request: FastifyRequest, problem?: string, url = ''): Promise<string> => {
    const env = envOf(request);
    const principal = principalFor(request, env);
    const endpoints = await webhookService.listEndpoints(ctx, principal);
    const table =
      endpoints.length === 0
        ? html`<p>No endpoints yet.</p>`
        : html`<div class="table"><table><thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Added</th></tr></thead>
<tbody>${endpoints.map(
            (
              e,
            ) => html`<tr><td><a href="${withEnv(`/panel/webhooks/${e.id}`, env)}">${e.url}</a></td><td>${e.events.length === EVENT_TYPES.length ? 'All' : e.events.join(', ')}</td>
<td>${when(e.createdAt, principal.timeZone)}</td></tr>`,
          )}</tbody></table></div>`;
    const body = html`<h1>Webhooks <span class="hint">(${env})</span></h1>
<p class="hint">Each event is POSTed as JSON, signed with the endpoint's secret (<code>Checkwriter-Signature: t=…,v1=…</code>); failures retry with backoff.</p>
${table}
<form method="post" action="/panel/webhooks" class="card"><h2>Add an endpoint</h2>${csrfField(request)}${envField(env)}
<label for="url">URL</label><input id="url" name="url" type="url" required placeholder="https://example.com/checkwriter/events" value="${url}">
<fieldset><legend>Events <span class="hint">— none ticked means all</span></legend>
${EVENT_TYPES.map((t) => html`<label class="hint"><input type="checkbox" name="events" value="${t}"> ${t}</label>`)}</fieldset>
<button type="submit">Add endpoint</button></form>`;
    return page({ title: 'Webhooks', request, current: 'webhooks', env, problem }, body);
  };

  app.get('', needs('read'), async (request, reply) => sendPage(reply, await listPage(request)));

  app.post('', needs('webhooks.manage'), async (request, reply) => {
    const env = envOf(request);
    const url = field(request.body, 'url').trim();
    const events = fields(request.body, 'events');
    try {
      const endpoint = await webhookService.createEndpoint(ctx, principalFor(request, env), {
        url,
        ...(events.length === 0 ? {} : { events }),
      });
      return reply.redirect(withEnv(`/panel/webhooks/${endpoint.id}?notice=webhook-added`, env), 303);
    } catch (error) {
      if (error instanceof AppError && error.code === 'validation') {
        return sendPage(reply, await listPage(request, plainWords(error.message), url), 422);
      }
      throw error;
    }
  });

  app.get('/:id', needs('read'), async (request, reply) => {
    const env = envOf(request);
    const principal = principalFor(request, env);
    const { id } = request.params as { id: string };
    const { endpoint, deliveries } = await webhookService.endpointDeliveries(ctx, principal, id);
    const log =
      deliveries.length === 0
        ? html`<p>No events sent yet.</p>`
        : html`<div class="table"><table><thead><tr><th scope="col">Event</th><th scope="col">State</th><th scope="col">Response</th><th scope="col">Attempts</th><th scope="col">Queued</th><th scope="col">Error</th><th scope="col"><span class="hint">Action</span></th></tr></thead>
<tbody>${deliveries.map(
            (
              d,
            ) => html`<tr><td>${d.eventType}</td><td>${d.status}</td><td>${d.responseStatus ?? '—'}</td><td>${d.attempts}</td><td>${when(d.createdAt, principal.timeZone)}</td><td>${d.lastError ?? ''}</td>
<td>${
              d.status === 'sent' || d.status === 'failed'
                ? html`<form method="post" action="/panel/webhooks/${endpoint.id}/redeliver">${csrfField(request)}${envField(env)}<input type="hidden" name="deliveryId" value="${d.id}"><button class="small secondary" type="submit" aria-label="Redeliver ${d.eventType}">Redeliver</button></form>`
                : ''
            }</td></tr>`,
          )}</tbody></table></div>`;
    const body = html`<p><a href="${withEnv('/panel/webhooks', env)}">← All endpoints</a></p>
<h1>Endpoint <span class="hint">(${env})</span></h1>
<section class="card"><dl class="facts"><dt>URL</dt><dd>${endpoint.url}</dd><dt>Events</dt><dd>${endpoint.events.join(', ')}</dd>
<dt>Signing secret</dt><dd><details><summary>Show the secret</summary><code class="secret" id="webhook-secret">${endpoint.secret}</code>
<button type="button" class="small secondary" data-copy="webhook-secret">Copy</button></details></dd></dl></section>
<h2>Deliveries</h2>${log}
<form method="post" action="/panel/webhooks/${endpoint.id}/delete">${csrfField(request)}${envField(env)}<button class="danger" type="submit">Delete this endpoint</button></form>`;
    return sendPage(reply, page({ title: 'Webhook endpoint', request, current: 'webhooks', env }, body));
  });

  app.post('/:id/redeliver', needs('webhooks.manage'), async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    await webhookService.redeliver(ctx, principalFor(request, env), id, field(request.body, 'deliveryId'));
    return reply.redirect(withEnv(`/panel/webhooks/${id}?notice=redelivered`, env), 303);
  });

  app.post('/:id/delete', needs('webhooks.manage'), async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    await webhookService.deleteEndpoint(ctx, principalFor(request, env), id);
    return reply.redirect(withEnv('/panel/webhooks?notice=webhook-deleted', env), 303);
  });
}
