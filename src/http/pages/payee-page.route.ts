// The payee page (/c/<token>): what the link in a check email opens. Plain server-rendered HTML,
// no script; the download for printing moves the check to `eprinted`.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { formatCents } from '../../domain/money.ts';
import { escapeHtml } from '../../delivery/messages.ts';
import type { ServiceContext } from '../../services/context.ts';
import * as deliveryService from '../../services/delivery.service.ts';

const PROBLEMS: Record<deliveryService.PayeePageProblem, [number, string, string]> = {
  unknown: [404, 'Link not found', 'This link does not lead to a check. Check that you copied the whole link from the email.'],
  expired: [410, 'Link expired', 'This link has expired. Ask the sender to email the check again.'],
  void: [410, 'Check cancelled', 'The sender has cancelled this check. Contact them for payment.'],
};

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,Helvetica,Arial,sans-serif;margin:0;background:#f4f5f7;color:#1a1a1a}
main{max-width:36rem;margin:2rem auto;background:#fff;padding:1.5rem 2rem;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:1.4rem;margin-top:0} dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem} dt{color:#555}
a.button{display:inline-block;margin-top:1rem;padding:.7rem 1.2rem;background:#1f4e8c;color:#fff;border-radius:4px;text-decoration:none}
a.button:focus{outline:3px solid #f5b400}
</style></head><body><main>${body}</main></body></html>`;
}

function money(cents: number | null): string {
  if (cents === null) return '(to be filled in)';
  return `$${formatCents(cents)}`;
}

function problem(reply: FastifyReply, kind: deliveryService.PayeePageProblem): FastifyReply {
  const [status, title, text] = PROBLEMS[kind];
  return reply.code(status).type('text/html; charset=utf-8').send(page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`));
}

const TOKEN = { type: 'object', properties: { token: { type: 'string', minLength: 1, maxLength: 100 } }, required: ['token'] } as const;

export function registerPayeePage(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/c/:token', { schema: { hide: true, params: TOKEN } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const view = await deliveryService.payeeView(ctx, token);
    if (typeof view === 'string') return problem(reply, view);
    const { check, company } = view;
    const e = escapeHtml;
    const rows: [string, string][] = [
      ['From', company],
      ['Pay to', check.payeeName ?? ''],
      ['Amount', money(check.amountCents)],
      ['Date', check.issueDate],
      ['Check number', check.serialNumber],
      ...(check.memo === null ? [] : ([['Memo', check.memo]] as [string, string][])),
    ];
    const body = `<h1>${e(company)} sent you a check</h1>
<dl>${rows.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join('')}</dl>
<p><a class="button" href="/c/${encodeURIComponent(token)}/pdf">Download the check to print</a></p>
<p>Print it on plain white paper at full size, then deposit it as you would any check.</p>`;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page(`Check from ${company}`, body));
  });

  app.get('/c/:token/pdf', { schema: { hide: true, params: TOKEN } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const view = await deliveryService.payeeView(ctx, token);
    if (typeof view === 'string') return problem(reply, view);
    const { pdf, serialNumber } = await deliveryService.payeeDownload(ctx, view);
    return reply.type('application/pdf').header('cache-control', 'no-store').header('content-disposition', `attachment; filename="check-${serialNumber}.pdf"`).send(pdf);
  });
}
