// API keys: create a named test or live key (shown once, with a copy button and a curl example),
// list them (name, environment, created, last used, display prefix) and revoke them.
import { needs } from '../shell/access.ts';
import { requireRecentFactor } from '../shell/step-up.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeyRecord } from '../../domain/account.ts';
import type { Environment } from '../../domain/owner.ts';
import { AppError } from '../../errors.ts';
import { field } from '../shell/form.ts';
import { html, type Html } from '../shell/html.ts';
import { csrfField, page, sendPage, when } from '../shell/layout.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { accountOf, principalFor } from '../shell/session.ts';
import * as peopleService from '../../services/people/people.service.ts';

const MAX_NAME = 100;

function keysTable(
  request: FastifyRequest,
  keys: readonly ApiKeyRecord[],
  timeZone: string,
  authors: ReadonlyMap<string, string>,
): Html {
  if (keys.length === 0) return html`<p>No keys yet.</p>`;
  const rows = keys.map(
    (
      k,
    ) => html`<tr><td>${k.name}</td><td><span class="status">${k.env}</span></td><td><code>${k.displayPrefix}</code></td>
<td>${when(k.createdAt, timeZone)}</td><td>${k.createdBy === null ? '—' : (authors.get(k.createdBy) ?? '—')}</td><td>${when(k.lastUsedAt, timeZone)}</td>
<td>${
      k.revokedAt === null
        ? html`<form method="post" action="/panel/keys/${k.id}/revoke">${csrfField(request)}<button class="small danger" type="submit" aria-label="Revoke key ${k.name}">Revoke</button></form>`
        : html`<span class="status bad">Revoked ${when(k.revokedAt, timeZone)}</span>`
    }</td></tr>`,
  );
  return html`<div class="table"><table><caption class="hint">Times in ${timeZone}</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Environment</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Created by</th><th scope="col">Last used</th><th scope="col">State</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function createForm(request: FastifyRequest): Html {
  return html`<form method="post" action="/panel/keys" class="card"><h2>Create a key</h2>${csrfField(request)}
<div class="row"><div><label for="name">Name <span class="hint">— what uses it</span></label><input id="name" name="name" type="text" required maxlength="${MAX_NAME}" placeholder="Accounts payable sync"></div>
<div><label for="env">Environment</label><select id="env" name="env"><option value="test">Test — sandbox data, nothing is sent</option><option value="live">Live — real checks and messages</option></select></div>
<div><button type="submit">Create key</button></div></div></form>`;
}

export async function keysPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { keys, ctx } = deps;

  const listPage = async (
    request: FastifyRequest,
    created?: { key: string; record: ApiKeyRecord },
    problem?: string,
  ): Promise<string> => {
    const account = accountOf(request);
    const list = (await keys.list(account.id)).slice().reverse();
    const authors = await peopleService.peopleLabels(
      ctx,
      list.flatMap((k) => (k.createdBy === null ? [] : [k.createdBy])),
    );
    const base = `${ctx.config.publicUrl}/api/v3`;
    const shown =
      created === undefined
        ? ''
        : html`<section class="card" aria-labelledby="new-key-h"><h2 id="new-key-h">Your new ${created.record.env} key “${created.record.name}”</h2>
<p><strong>Copy it now: it is shown only this once.</strong> We keep only a hash of it.</p>
<code class="secret" id="new-key">${created.key}</code>
<button type="button" class="small secondary" data-copy="new-key">Copy</button>
<h3>Try it</h3><pre id="curl-example">curl ${base}/checks \\
  -H "Authorization: Bearer ${created.key}"</pre>
<button type="button" class="small secondary" data-copy="curl-example">Copy</button></section>`;
    return page(
      { title: 'API keys', request, current: 'keys', problem },
      html`<h1>API keys</h1>${shown}${createForm(request)}<h2>Your keys</h2>${keysTable(request, list, account.timeZone, authors)}`,
    );
  };

  app.get('', needs('read'), async (request, reply) => sendPage(reply, await listPage(request)));

  app.post('', needs('api-keys.manage'), async (request, reply) => {
    const account = accountOf(request);
    const name = field(request.body, 'name').trim();
    const env = field(request.body, 'env');
    if (name === '' || name.length > MAX_NAME || (env !== 'test' && env !== 'live')) {
      const problem =
        name === ''
          ? 'Give the key a name.'
          : name.length > MAX_NAME
            ? `The name must not be longer than ${MAX_NAME} characters.`
            : 'Choose test or live.';
      return sendPage(reply, await listPage(request, undefined, problem), 422);
    }
    // A live key moves real money: it asks for a recent second factor (the form is sent again after).
    if (env === 'live' && (await requireRecentFactor(deps.ctx, request, reply))) return reply;
    let created: { key: string; record: ApiKeyRecord };
    try {
      created = await keys.create(account.id, env as Environment, name, principalFor(request, env as Environment));
    } catch (error) {
      // Over the cap of active keys: the keys page again, with why, so one can be revoked there.
      if (error instanceof AppError && error.code === 'validation')
        return sendPage(reply, await listPage(request, undefined, error.message), 422);
      throw error;
    }
    // The key is in this response only: never cached, never in a URL.
    return sendPage(reply, await listPage(request, created), 201);
  });

  app.post('/:id/revoke', needs('api-keys.manage'), async (request, reply) => {
    const { id } = request.params as { id: string };
    // Another account's key id is "not found", like an unknown one.
    await keys.revoke(id, accountOf(request).id, principalFor(request, 'test'));
    return reply.redirect('/panel/keys?notice=key-revoked', 303);
  });
}
