// The Register menu's page (docs/reconciliation.md): every bank account with its outstanding checks
// and their total, each linking to that account's register (bank-accounts/check-register.pages.ts, where
// checks are marked cleared and the bank's file is reconciled).
import { needs } from '../shell/access.ts';
import type { FastifyInstance } from 'fastify';
import * as checkRegisterService from '../../services/check-register.service.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { html } from '../shell/html.ts';
import { money, page, pager, sendPage, withEnv } from '../shell/layout.ts';
import { listFilters } from '../shell/list-query.ts';
import { envOf, principalFor } from '../shell/session.ts';

export async function checkRegisterListPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  app.get('', needs('read'), async (request, reply) => {
    const env = envOf(request);
    const f = listFilters(request.query);
    const result = await checkRegisterService.outstandingByBankAccount(ctx, principalFor(request, env), {
      limit: f.perPage,
      offset: (f.page - 1) * f.perPage,
      term: null,
    });
    const params: Record<string, string> = { perPage: String(f.perPage) };
    if (env === 'live') params.env = 'live';
    const table =
      result.items.length === 0
        ? html`<p>No bank accounts yet.</p>`
        : html`<div class="table"><table><thead><tr><th scope="col">Bank account</th><th scope="col">Bank</th><th scope="col" class="num">Outstanding checks</th><th scope="col" class="num">Outstanding total</th></tr></thead>
<tbody>${result.items.map(
            ({ bankAccount: b, outstanding }) =>
              html`<tr><td><a href="${withEnv(`/panel/bank-accounts/${b.id}/register`, env)}">${b.name}</a></td><td>${b.bankName.trim() === '' ? '—' : b.bankName}</td><td class="num">${outstanding.count}</td><td class="num">${money(outstanding.totalCents)}</td></tr>`,
          )}</tbody></table></div>`;
    const body = html`<h1>Check register <span class="hint">(${env})</span></h1>
<p class="hint">Outstanding checks were issued (printed, mailed, emailed or e-printed) and have not cleared the bank. Open a bank account's register to mark checks cleared or to reconcile with the bank's file.</p>
${table}${pager('/panel/register', params, f.page, f.perPage, result.total)}`;
    return sendPage(reply, page({ title: 'Check register', request, current: 'register', env }, body));
  });
}
