// Account settings (/panel/settings): company name, address, phone, logo and time
// zone — what payees see as the sender (emails, payee pages, the check's drawer block when a bank
// account has no from address) and the zone the API and the panel give times in.
import { needs } from '../shell/access.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as settingsService from '../../services/account-settings.service.ts';
import { MAX_LOGO_BYTES } from '../../services/bank-account.service.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { html } from '../shell/html.ts';
import { csrfField, page, sendPage } from '../shell/layout.ts';
import {
  type FieldSpec,
  formValues,
  type Problems,
  problemSummary,
  renderFields,
  unsentFields,
  type Values,
} from '../shell/record-form.ts';
import { accountOf, principalFor } from '../shell/session.ts';
import { acceptUploads, imageRefusal, uploadOf, uploadProblem } from '../shell/uploads.ts';
import { plainWords } from '../shell/wording.ts';

const FIELDS: readonly FieldSpec[] = [
  {
    name: 'company',
    label: 'Company name',
    required: true,
    maxLength: 100,
    autocomplete: 'organization',
    hint: 'payees read "… sent you a check" with this name',
  },
  {
    name: 'companyAddress',
    label: 'Address',
    maxLength: settingsService.MAX_COMPANY_ADDRESS_LENGTH,
    autocomplete: 'street-address',
    // One line: panel forms refuse line breaks in any text (form.ts), as the API refuses control characters.
    hint: 'one line, such as 1 Main St, Springfield, IL 62701; shown on payee pages and printed under the company name',
  },
  {
    name: 'companyPhone',
    label: 'Phone',
    kind: 'tel',
    maxLength: 32,
    autocomplete: 'tel',
    hint: 'shown on payee pages with the address',
  },
  {
    name: 'timeZone',
    label: 'Time zone',
    required: true,
    maxLength: 64,
    list: 'zones',
    hint: 'an IANA name such as America/New_York; times in the API and the panel use it',
  },
];

/** Every zone this runtime knows, offered as suggestions (any IANA name it accepts is taken). */
const ZONES: readonly string[] = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];

export async function settingsPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;
  await acceptUploads(app, MAX_LOGO_BYTES);

  const settingsPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    values: Values | null,
    problems: Problems,
    status: number,
    logoProblem?: string,
  ): Promise<FastifyReply> => {
    const account = accountOf(request);
    const saved = await settingsService.getSettings(ctx, account.id);
    const shown = values ?? {
      company: saved.company,
      companyAddress: saved.companyAddress,
      companyPhone: saved.companyPhone,
      timeZone: saved.timeZone,
    };
    const fields = renderFields(FIELDS, shown, problems);
    const body = html`<h1>Account settings</h1>
<p>What payees see as the sender of your checks: emails and payee pages say <strong>${saved.company.trim() === '' ? account.email : saved.company}</strong> sent them.</p>
<form method="post" action="/panel/settings" class="card" novalidate>${csrfField(request)}
${fields}
<datalist id="zones">${ZONES.map((z) => html`<option value="${z}"></option>`)}</datalist>
<button type="submit">Save settings</button></form>
<section class="card" aria-labelledby="logo-h"><h2 id="logo-h">Logo</h2>
<p>${saved.hasLogo ? html`<span class="status ok">On file</span>` : html`<span class="status">None</span>`} <span class="hint">printed at the top left of your checks, unless the bank account has a logo of its own.</span></p>
<form method="post" action="/panel/settings/logo" enctype="multipart/form-data">${csrfField(request)}
<label for="logo">${saved.hasLogo ? 'Replace with' : 'Upload'} a PNG or JPEG image <span class="hint">— at most ${Math.round(MAX_LOGO_BYTES / 1024)} KB</span></label>
<input type="file" id="logo" name="file" accept="image/png,image/jpeg" required${logoProblem === undefined ? '' : html` aria-invalid="true" aria-describedby="logo-error"`}>
${logoProblem === undefined ? '' : html`<p class="field-error" id="logo-error">${logoProblem}</p>`}
<button type="submit">Upload logo</button></form>
${
  saved.hasLogo
    ? html`<form method="post" action="/panel/settings/logo/delete">${csrfField(request)}<button class="secondary" type="submit">Remove the logo</button></form>`
    : ''
}</section>
<section class="card" aria-labelledby="people-h"><h2 id="people-h">People</h2>
<p><a href="/panel/people">People and roles</a> <span class="hint">— who works in this company, invitations, roles</span></p>
<p><a href="/panel/settings/approvals">Approval policy</a> <span class="hint">— which checks wait for approval, and how many approvals they need</span></p></section>
<section class="card" aria-labelledby="records-h"><h2 id="records-h">Lists behind your checks</h2>
<ul class="plain"><li><a href="/panel/categories">Categories</a> <span class="hint">— what a check is filed under</span></li>
<li><a href="/panel/from-addresses">From addresses</a> <span class="hint">— drawer addresses a bank account can print</span></li>
<li><a href="/panel/to-addresses">To addresses</a> <span class="hint">— addresses checks are mailed to</span></li></ul></section>`;
    const problem = logoProblem === undefined ? problemSummary(problems) : 'The logo was not saved.';
    return sendPage(
      reply,
      page({ title: 'Settings', request, current: 'settings', narrow: true, problem }, body),
      status,
    );
  };

  app.get('', needs('read'), async (request, reply) => settingsPage(request, reply, null, {}, 200));

  app.post('', needs('settings.manage'), async (request, reply) => {
    const account = accountOf(request);
    const names = FIELDS.map((f) => f.name);
    const values = formValues(request.body, names);
    // A field the form drew but the body lacks is refused, not saved as '' (clearing it).
    const unsent = unsentFields(request.body, names);
    if (Object.keys(unsent).length > 0) return settingsPage(request, reply, values, unsent, 422);
    const problems = await settingsService.updateSettings(
      ctx,
      account.id,
      {
        company: values.company ?? '',
        companyAddress: values.companyAddress ?? '',
        companyPhone: values.companyPhone ?? '',
        timeZone: values.timeZone ?? '',
      },
      principalFor(request, 'test'),
    );
    if (Object.keys(problems).length > 0) return settingsPage(request, reply, values, problems, 422);
    // API keys carry the account's time zone in this process's cache of verified keys.
    deps.keys.forget();
    return reply.redirect('/panel/settings?notice=settings-saved', 303);
  });

  app.post('/logo', needs('settings.manage'), async (request, reply) => {
    const account = accountOf(request);
    const problem = uploadProblem(request, MAX_LOGO_BYTES);
    const upload = uploadOf(request);
    if (problem !== null || upload === null)
      return settingsPage(request, reply, null, {}, problem?.status ?? 422, problem?.message ?? '');
    try {
      await settingsService.setAccountLogo(ctx, account.id, upload.bytes, principalFor(request, 'test'));
    } catch (error) {
      const refusal = imageRefusal(error);
      if (refusal !== null) return settingsPage(request, reply, null, {}, refusal.status, plainWords(refusal.message));
      throw error;
    }
    return reply.redirect('/panel/settings?notice=logo-saved', 303);
  });

  app.post('/logo/delete', needs('settings.manage'), async (request, reply) => {
    await settingsService.setAccountLogo(ctx, accountOf(request).id, null, principalFor(request, 'test'));
    return reply.redirect('/panel/settings?notice=image-removed', 303);
  });
}
