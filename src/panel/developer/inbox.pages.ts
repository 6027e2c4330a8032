// The sandbox inbox: the emails and texts that test keys "sent" (nothing leaves the machine in
// test). Each message opens with its links working, the payee page included.
import { needs } from '../shell/access.ts';
import type { FastifyInstance } from 'fastify';
import * as deliveryService from '../../services/delivery.service.ts';
import { queryText } from '../shell/form.ts';
import { resolvePaging } from '../../domain/paging.ts';
import { html, type Html } from '../shell/html.ts';
import { page, pager, sendPage, when } from '../shell/layout.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { principalFor, signedInOf } from '../shell/session.ts';
import type { FastifyRequest } from 'fastify';
import type { SandboxMessage } from '../../domain/delivery.ts';
import { forbiddenWords, may } from '../../domain/people/roles.ts';
import { AppError } from '../../errors.ts';

const PER_PAGE = 25;
const URL_IN_TEXT = /https?:\/\/[^\s<>"']+/g;

/** Plain text with its web addresses made into links (everything else escaped). */
function linkify(text: string): Html {
  const parts: (string | Html)[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    parts.push(text.slice(last, match.index));
    parts.push(html`<a href="${match[0]}" target="_blank" rel="noopener">${match[0]}</a>`);
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return html`${parts}`;
}

// The email's own HTML is shown in a sandboxed frame: no script, and its links open a new tab.
const MAIL_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

/**
 * An invitation tried out through the sandbox carries a working join link: only those who may
 * invite people open it, or a viewer could join under the invited email with a higher role.
 */
function mayOpen(request: FastifyRequest, m: SandboxMessage): void {
  if (m.checkId !== null || !m.text.includes('/panel/join/')) return;
  const { membership, account } = signedInOf(request);
  if (!may(membership, 'people.manage'))
    throw new AppError('forbidden', forbiddenWords(membership, 'people.manage', account.company));
}

export async function inboxPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  app.get('', needs('read'), async (request, reply) => {
    const principal = principalFor(request, 'test');
    const pageNumber = resolvePaging(queryText(request.query, 'page'), String(PER_PAGE)).page;
    const result = await deliveryService.sandboxMessages(ctx, principal, PER_PAGE, (pageNumber - 1) * PER_PAGE);
    // Delivery is asynchronous: a message just emailed waits a few seconds for the worker.
    const sending = await deliveryService.sandboxSending(ctx, principal);
    const pending =
      sending === 0
        ? ''
        : html`<p class="notice" role="status">Sending… ${String(sending)} message${sending === 1 ? '' : 's'} queued: delivery is asynchronous, reload in a few seconds.</p>`;
    const table =
      result.items.length === 0
        ? html`<p>Nothing yet. When a test key emails a check (<code>POST /emailchecks</code>), the email and text land here instead of going out.</p>`
        : html`<div class="table"><table><thead><tr><th scope="col">Received</th><th scope="col">Kind</th><th scope="col">To</th><th scope="col">Subject or text</th></tr></thead>
<tbody>${result.items.map(
            (
              m,
            ) => html`<tr><td>${when(m.createdAt, principal.timeZone)}</td><td>${m.channel === 'sms' ? 'Text' : 'Email'}</td><td>${m.recipient}</td>
<td><a href="/panel/inbox/${m.id}">${m.channel === 'sms' ? m.text : m.subject}</a></td></tr>`,
          )}</tbody></table></div>`;
    const body = html`<h1>Sandbox inbox</h1><p class="hint">What your test keys sent. Live keys send for real and nothing of theirs shows here.</p>
${pending}${table}${pager('/panel/inbox', {}, pageNumber, PER_PAGE, result.total)}`;
    return sendPage(reply, page({ title: 'Sandbox inbox', request, current: 'inbox' }, body));
  });

  app.get('/:id', needs('read'), async (request, reply) => {
    const principal = principalFor(request, 'test');
    const { id } = request.params as { id: string };
    const m = await deliveryService.sandboxMessage(ctx, principal.accountId, id);
    mayOpen(request, m);
    const facts: [string, string | Html][] = [
      ['To', m.recipient],
      ['Received', when(m.createdAt, principal.timeZone)],
      ...(m.channel === 'email' ? ([['Subject', m.subject]] as [string, string][]) : []),
      ...(m.attachments.length === 0 ? [] : ([['Attachments', m.attachments.join(', ')]] as [string, string][])),
      ...(m.checkId === null
        ? []
        : ([['Check', html`<a href="/panel/checks/${m.checkId}">${m.checkId}</a>`]] as [string, Html][])),
    ];
    const content =
      m.channel === 'email' && m.html !== ''
        ? html`<h2>As the payee sees it</h2><iframe class="mail" title="The email" src="/panel/inbox/${m.id}/html" sandbox="allow-popups allow-popups-to-escape-sandbox"></iframe>
<h2>Text version</h2><pre>${linkify(m.text)}</pre>`
        : html`<h2>Text</h2><pre>${linkify(m.text)}</pre>`;
    const body = html`<p><a href="/panel/inbox">← Inbox</a></p><h1>${m.channel === 'sms' ? 'Text message' : m.subject}</h1>
<section class="card"><dl class="facts">${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
${m.link === '' ? '' : html`<p><a class="button" href="${m.link}" target="_blank" rel="noopener">Open the payee page</a></p>`}</section>
${content}`;
    return sendPage(
      reply,
      page({ title: m.channel === 'sms' ? 'Text message' : m.subject, request, current: 'inbox' }, body),
    );
  });

  app.get('/:id/html', needs('read'), async (request, reply) => {
    const m = await deliveryService.sandboxMessage(
      ctx,
      principalFor(request, 'test').accountId,
      (request.params as { id: string }).id,
    );
    mayOpen(request, m);
    // Links open in a new tab rather than inside the frame.
    const withBase = m.html.replace(/<head>|<html>/i, (tag) => `${tag}<base target="_blank">`);
    return reply.header('content-security-policy', MAIL_CSP).type('text/html; charset=utf-8').send(withBase);
  });
}
