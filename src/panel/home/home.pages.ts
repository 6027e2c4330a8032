// The office's home page (/panel): its bank accounts and latest work (sections.ts, chart.ts), how to
// start with the API, and what is still missing before checks can be emailed.
import { needs } from '../shell/access.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Account, senderName } from '../../domain/account.ts';
import { UNVERIFIED_MESSAGE } from '../../services/email-check.service.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { html, type Html } from '../shell/html.ts';
import { csrfField, page, sendPage } from '../shell/layout.ts';
import { accountOf, envOf, principalFor } from '../shell/session.ts';
import { officeSections } from './sections.ts';

function verificationCard(deps: PanelDeps, request: FastifyRequest, account: Account): Html {
  const { config } = deps.ctx;
  if (account.emailVerified && account.phoneVerified) {
    return html`<section class="card" aria-labelledby="verify-h"><h2 id="verify-h">Verification</h2>
<p><span class="status ok">Verified</span> Your email address and phone number are verified: <code>POST /emailchecks</code> sends checks to payees.</p></section>`;
  }
  const smtpMissing = config.delivery.smtpUrl === '' && !account.emailVerified;
  const smsMissing = config.delivery.sms.provider === 'none' && !account.phoneVerified;
  const operatorNote =
    smtpMissing || smsMissing
      ? html`<p class="warn">This server has no ${smtpMissing ? 'SMTP server (SMTP_URL)' : ''}${smtpMissing && smsMissing ? ' and no ' : ''}${smsMissing ? 'SMS provider (SMS_PROVIDER)' : ''} configured, so the message waits in the outbox until one is. The operator can also verify you with <code>npx checkwriter accounts verify --email ${account.email}</code>.</p>`
      : '';
  const email = account.emailVerified
    ? html`<li><span class="status ok">Verified</span> Email ${account.email}</li>`
    : html`<li><span class="status wait">Not verified</span> Email ${account.email}: open the link we emailed you.
<form class="inline" method="post" action="/panel/resend">${csrfField(request)}<input type="hidden" name="what" value="email"> <button class="small secondary" type="submit">Send a new link</button></form></li>`;
  const phone = account.phoneVerified
    ? html`<li><span class="status ok">Verified</span> Phone ${account.phone}</li>`
    : html`<li><span class="status wait">Not verified</span> Phone ${account.phone}: enter the code we texted you.
<form method="post" action="/panel/verify-phone" class="row">${csrfField(request)}
<div><label for="code">Six-digit code</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required></div>
<div><button type="submit">Verify phone</button></div></form>
<form method="post" action="/panel/resend">${csrfField(request)}<input type="hidden" name="what" value="phone"><button class="small secondary" type="submit">Send a new code</button></form></li>`;
  return html`<section class="card" aria-labelledby="verify-h"><h2 id="verify-h">Before you can email checks</h2>
<p>Until both your email address and your phone number are verified, <code>POST /emailchecks</code> answers <strong>403</strong> with
<code>{"success":false,"errorMsg":"${UNVERIFIED_MESSAGE}"}</code>. Emailed checks go out in your company's name, so we first make sure they come from you.
Everything else — creating, listing and printing checks — works already, and test keys never send anything.</p>
${operatorNote}<ul class="plain">${email}${phone}</ul></section>`;
}

export async function homePage(deps: PanelDeps, request: FastifyRequest, problem?: string): Promise<string> {
  const account = accountOf(request);
  const env = envOf(request);
  const base = `${deps.ctx.config.publicUrl}/api/v3`;
  return page(
    { title: 'Home', request, current: 'home', env, problem },
    html`<h1>${senderName(account)} <span class="hint">(${env})</span></h1>
${await officeSections(deps.ctx, principalFor(request, env))}
${verificationCard(deps, request, account)}
<section class="card" aria-labelledby="start-h"><h2 id="start-h">Get started with the API</h2>
<ol><li><a href="/panel/keys">Create a test API key</a>. Test keys see only test data, and their emails and texts land in your <a href="/panel/inbox">sandbox inbox</a>.</li>
<li>Call the API with it: <pre>curl ${base}/checks -H "Authorization: Bearer YOUR_KEY"</pre></li>
<li>Read the <a href="/api/v3/docs">API reference</a>, then watch your <a href="/panel/checks">checks</a> appear here.</li></ol></section>`,
  );
}

export async function homePages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  app.get('', needs('read'), async (request, reply) => sendPage(reply, await homePage(deps, request)));
}
