// The payee page (/c/<token>): what the link in a check email opens. Plain server-rendered HTML,
// no script. The download for printing moves the check to `eprinted`, so it is a POST (a form
// button): a safe method never changes state, and mail scanners and link previewers fetch URLs
// with GET and HEAD, so a GET must never download or change anything.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { formatCents } from '../../domain/money.ts';
import { escapeHtml } from '../../formats/html-text.ts';
import type { ServiceContext } from '../../services/context.ts';
import * as deliveryService from '../../services/delivery.service.ts';

const PROBLEMS: Record<deliveryService.PayeePageProblem, [number, string, string]> = {
  unknown: [
    404,
    'Link not found',
    'This link does not lead to a check. Check that you copied the whole link from the email.',
  ],
  expired: [410, 'Link expired', 'This link has expired. Ask the sender to email the check again.'],
  void: [410, 'Check cancelled', 'The sender has cancelled this check. Contact them for payment.'],
};

const STYLE = `body{font-family:system-ui,Helvetica,Arial,sans-serif;margin:0;background:#f4f5f7;color:#1a1a1a}
main{max-width:36rem;margin:2rem auto;background:#fff;padding:1.5rem 2rem;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:1.4rem;margin-top:0} dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem} dt{color:#555}
a.button,button.button{display:inline-block;border:0;font:inherit;cursor:pointer;margin-top:1rem;padding:.7rem 1.2rem;background:#1f4e8c;color:#fff;border-radius:4px;text-decoration:none}
a.button:focus,button.button:focus{outline:3px solid #f5b400}
`;

// The page's headers: the panel's hardening, and no Referer at all, since the token is in the URL
// (the token is in the URL). The one inline stylesheet is allowed by its hash, nothing else runs.
const HEADERS: Record<string, string> = {
  'content-security-policy': `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex',
};

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

function money(cents: number | null): string {
  if (cents === null) return '(to be filled in)';
  return `$${formatCents(cents)}`;
}

function problem(reply: FastifyReply, kind: deliveryService.PayeePageProblem): FastifyReply {
  const [status, title, text] = PROBLEMS[kind];
  return reply
    .code(status)
    .headers(HEADERS)
    .type('text/html; charset=utf-8')
    .send(page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`));
}

const TOKEN = {
  type: 'object',
  properties: { token: { type: 'string', minLength: 1, maxLength: 100 } },
  required: ['token'],
} as const;

export async function registerPayeePage(app: FastifyInstance, ctx: ServiceContext): Promise<void> {
  await app.register(async (scope) => {
    // The download form posts an empty urlencoded body; nothing in it is read.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, _body, done) => done(null, {}),
    );

    scope.get('/c/:token', { schema: { hide: true, params: TOKEN } }, async (request, reply) => {
      const { token } = request.params as { token: string };
      const view = await deliveryService.payeeView(ctx, token);
      if (typeof view === 'string') return problem(reply, view);
      const { check, company, senderContact } = view;
      const e = escapeHtml;
      const rows: [string, string][] = [
        ['From', company],
        ...(senderContact.length === 0 ? [] : ([['Sender', senderContact.join(' · ')]] as [string, string][])),
        ['Pay to', check.payeeName ?? ''],
        ['Amount', money(check.amountCents)],
        ['Date', check.issueDate],
        ['Check number', check.serialNumber],
        ...(check.memo === null ? [] : ([['Memo', check.memo]] as [string, string][])),
      ];
      const body = `<h1>${e(company)} sent you a check</h1>
<dl>${rows.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join('')}</dl>
<form method="post" action="/c/${encodeURIComponent(token)}/pdf"><button class="button" type="submit">Download the check to print</button></form>
<p>Print it on plain white paper at full size, then deposit it as you would any check.</p>`;
      return reply
        .headers(HEADERS)
        .type('text/html; charset=utf-8')
        .send(page(`Check from ${company}`, body));
    });

    // The form button of the page: the PDF, and the check becomes `eprinted`.
    scope.post('/c/:token/pdf', { schema: { hide: true, params: TOKEN } }, async (request, reply) => {
      const { token } = request.params as { token: string };
      const view = await deliveryService.payeeView(ctx, token);
      if (typeof view === 'string') return problem(reply, view);
      const { pdf, serialNumber } = await deliveryService.payeeDownload(ctx, view);
      return reply
        .headers(HEADERS)
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="check-${serialNumber}.pdf"`)
        .send(pdf);
    });

    // Links to the download from before it became a form (emails already sent) land on the page,
    // whose button downloads; GET and HEAD change nothing.
    scope.get('/c/:token/pdf', { schema: { hide: true, params: TOKEN } }, async (request, reply) => {
      const { token } = request.params as { token: string };
      return reply.headers(HEADERS).redirect(`/c/${encodeURIComponent(token)}`, 303);
    });
  });
}
