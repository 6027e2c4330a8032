// The approval policy (/panel/settings/approvals): owners and admins set which checks wait for
// approval — at or above a threshold, one or two approvals — for the company and, differently,
// for a bank account. A change applies to checks written after it.
import type { FastifyInstance } from 'fastify';
import { parseApproverCount, parseThreshold } from '../../domain/approvals/policy.ts';
import { formatCents } from '../../domain/money.ts';
import * as policyService from '../../services/approvals/policy.service.ts';
import { AppError } from '../../errors.ts';
import { needs } from '../shell/access.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { field, sentField } from '../shell/form.ts';
import { csrfField, page, sendPage, when } from '../shell/layout.ts';
import { type Html, html } from '../shell/html.ts';
import { accountOf, principalFor } from '../shell/session.ts';

export async function policyPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  app.get('', needs('read'), async (request, reply) => {
    const account = accountOf(request);
    const [rules, banks] = await Promise.all([
      policyService.listPolicies(ctx, account.id),
      policyService.bankAccountChoices(ctx, account.id),
    ]);
    const bankName = (id: string): string => {
      const bank = banks.find((b) => b.id === id);
      return bank === undefined ? id : `${bank.name} (${bank.env})`;
    };
    const list: Html | string =
      rules.length === 0
        ? html`<p>No policy: every check can be printed, emailed or mailed as soon as it is written.</p>`
        : html`<ul>${rules.map(
            (r) =>
              html`<li>${r.bankAccountId === '' ? 'Every bank account' : bankName(r.bankAccountId)}: checks of $${formatCents(r.thresholdCents)} or more need ${String(r.approvers)} ${r.approvers === 1 ? 'approval' : 'approvals'} <span class="hint">(set by ${r.changedBy}, ${when(r.changedAt, account.timeZone)})</span></li>`,
          )}</ul>`;
    const body = html`<h1>Approval policy</h1>
<p class="hint">Checks at or above the threshold wait for approval before they can be printed, emailed or mailed. A threshold of 0 holds every check. Approvers are owners, approvers, and accountants or admins marked as approving; nobody approves a check they wrote. A change applies to checks written after it.</p>
${list}
<form method="post" action="/panel/settings/approvals" class="card">${csrfField(request)}<h2>Set a rule</h2>
<label for="bankAccountId">For</label>
<select id="bankAccountId" name="bankAccountId"><option value="">Every bank account</option>${banks.map((b) => html`<option value="${b.id}">${b.name} (${b.env})</option>`)}</select>
<label for="threshold">Threshold in dollars</label>
<input id="threshold" name="threshold" inputmode="decimal" required value="0">
<label for="approvers">Approvals needed</label>
<select id="approvers" name="approvers"><option value="1">1</option><option value="2">2, from two different people</option><option value="0">None: remove this rule</option></select>
<p><button type="submit">Save the rule</button></p></form>`;
    return sendPage(reply, page({ title: 'Approval policy', request, current: 'settings' }, body));
  });

  app.post('', needs('approvals.policy'), async (request, reply) => {
    const threshold = parseThreshold(field(request.body, 'threshold'));
    if (threshold === null)
      throw new AppError('validation', 'The threshold must be an amount in dollars, such as 1000.');
    // The form's select sends "0", "1" or "2"; a body without it is refused, not read as 0 (remove).
    const approvers = parseApproverCount(field(request.body, 'approvers'));
    if (approvers === null)
      throw new AppError('validation', 'Choose how many approvals the rule needs: 1, 2, or none to remove it.');
    // '' is the form's "Every bank account"; a body without the field is refused, not read as that
    // (it would set, or remove, the company's rule in place of one account's).
    const bankAccountId = sentField(request.body, 'bankAccountId', 'Choose the bank account the rule is for.');
    await policyService.setPolicy(ctx, principalFor(request, 'test'), {
      thresholdCents: threshold,
      approvers,
      bankAccountId,
    });
    return reply.redirect('/panel/settings/approvals?notice=settings-saved', 303);
  });
}
