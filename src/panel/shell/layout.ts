// The page shell every panel page shares: header with navigation, the test/live switch on work
// views, notices, and small formatting helpers. Plain HTML and one stylesheet; no page needs script.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Environment } from '../../domain/owner.ts';
import { formatCents } from '../../domain/money.ts';
import { localMoment } from '../../domain/dates.ts';
import { FAVICON, SCRIPT, STYLESHEET } from './assets.ts';
import { html, type Html } from './html.ts';

export type NavKey =
  | 'home'
  | 'keys'
  | 'checks'
  | 'write'
  | 'payees'
  | 'bank-accounts'
  | 'register'
  | 'imports'
  | 'positive-pay'
  | 'categories'
  | 'from-addresses'
  | 'to-addresses'
  | 'settings'
  | 'inbox'
  | 'webhooks'
  | 'people'
  | 'approvals'
  | 'audit';

type NavEntry = readonly [NavKey, string, string];

// Two kinds of users, two navigations: the office's daily work on the first line,
// the developer's tools on a second, quieter one. Categories and the custom addresses are records
// behind the settings, linked from the settings page, so the office line stays one line wide; so
// is the people page.
const OFFICE_NAV: readonly NavEntry[] = [
  ['home', '/panel', 'Home'],
  ['checks', '/panel/checks', 'Checks'],
  ['write', '/panel/checks/new', 'Write a check'],
  ['payees', '/panel/payees', 'Payees'],
  ['register', '/panel/register', 'Register'],
  ['imports', '/panel/imports', 'Import'],
  ['positive-pay', '/panel/positive-pay', 'Positive pay'],
  ['bank-accounts', '/panel/bank-accounts', 'Bank accounts'],
  ['settings', '/panel/settings', 'Settings'],
];

const DEVELOPER_NAV: readonly NavEntry[] = [
  ['keys', '/panel/keys', 'API keys'],
  ['webhooks', '/panel/webhooks', 'Webhooks'],
  ['inbox', '/panel/inbox', 'Sandbox inbox'],
  ['audit', '/panel/audit', 'Audit trail'],
];

/** The navigation entry a page belongs to: the records behind the settings light up Settings. */
function navEntryOf(current: NavKey | undefined, path: string): NavKey | undefined {
  if (current === 'categories' || current === 'from-addresses' || current === 'to-addresses') return 'settings';
  // The people page is linked from the settings, like the records behind them.
  if (current === 'people') return 'settings';
  // The check form's pages say 'checks'; a new check (or a duplicate) is the "Write a check" entry.
  if (current === 'checks' && path === '/panel/checks/new') return 'write';
  return current;
}

/** Views whose data belongs to one environment keep it in their links. */
const ENV_VIEWS = new Set<NavKey>([
  'home',
  'checks',
  'write',
  'payees',
  'bank-accounts',
  'register',
  'imports',
  'positive-pay',
  'categories',
  'from-addresses',
  'to-addresses',
  'webhooks',
  'approvals',
]);

/** Fixed texts a redirect can name with `?notice=`; nothing from the URL is ever shown as is. */
const NOTICES: Readonly<Record<string, string>> = {
  'signed-up':
    'Thank you. If that email was new to us, your account is ready: sign in with the password you chose, and we sent a verification link to the email and a code to the phone. If it already had an account, we emailed it a link to reset its password.',
  'signed-out': 'You are signed out.',
  'email-verified': 'Your email address is verified.',
  'phone-verified': 'Your phone number is verified.',
  'email-sent': 'We sent a new verification link to your email.',
  'code-sent': 'We sent a new code to your phone.',
  'too-soon': 'A message went out less than a minute ago. Wait a moment before asking for another.',
  'password-reset': 'Your password is changed. Sign in with it.',
  'key-revoked': 'The key is revoked: the API refuses it from now on.',
  'webhook-added': 'Endpoint added.',
  'webhook-deleted': 'Endpoint deleted.',
  redelivered: 'The event is queued to be sent again.',
  'check-saved': 'The check is saved with status new.',
  'check-updated': 'The check is updated.',
  'check-deleted': 'The check is deleted.',
  'check-voided': 'The check is void.',
  'record-added': 'Added.',
  'record-saved': 'Your changes are saved.',
  'record-deleted': 'Deleted.',
  'settings-saved': 'Your settings are saved.',
  'signature-saved': 'The signature is saved: checks on this account print it.',
  'logo-saved': 'The logo is saved: checks print it.',
  'image-removed': 'The image is removed.',
  'checks-cleared': 'The ticked checks are marked cleared.',
  joined: 'Welcome: you joined the company.',
  'company-switched': 'You are now working in this company.',
  'check-uncleared': 'The clearing is taken back: the check is outstanding again.',
  'checks-approved': 'Your approval is recorded. A check with all its approvals can be printed, emailed or mailed.',
  'checks-rejected': 'The ticked checks are rejected: they can only be voided or deleted.',
};

export interface PageOptions {
  title: string;
  request: FastifyRequest;
  current?: NavKey;
  env?: Environment;
  narrow?: boolean;
  problem?: string;
  notice?: string;
  /** Page scripts besides the panel's own, in order (served from /panel/assets, never a CDN). */
  scripts?: readonly string[];
}

export function csrfField(request: FastifyRequest): Html {
  return html`<input type="hidden" name="_csrf" value="${request.panel.csrfToken}">`;
}

export function withEnv(path: string, env: Environment | undefined): string {
  if (env === undefined || env === 'test') return path;
  return `${path}${path.includes('?') ? '&' : '?'}env=${env}`;
}

function header(options: PageOptions): Html {
  const { request, current, env } = options;
  const account = request.panel.account;
  if (account === null) {
    return html`<header class="top"><div class="bar"><a class="brand" href="/panel">checkwriter</a>
<nav aria-label="Account"><ul><li><a href="/panel/sign-in">Sign in</a></li><li><a href="/panel/sign-up">Sign up</a></li></ul></nav></div></header>`;
  }
  const keepEnv = (key: NavKey): Environment | undefined => (ENV_VIEWS.has(key) ? env : undefined);
  const active = navEntryOf(current, request.url.split('?')[0] ?? '');
  const links = (entries: readonly NavEntry[]): Html[] =>
    withApprovals(entries, request.panel.approvalsWaiting ?? null).map(
      ([key, path, label]) =>
        html`<li><a href="${withEnv(path, keepEnv(key))}"${key === active ? html` aria-current="page"` : ''}>${label}</a></li>`,
    );
  return html`<header class="top"><div class="bar"><a class="brand" href="/panel">checkwriter</a>
<nav aria-label="Office"><ul>${links(OFFICE_NAV)}</ul></nav></div>
<div class="bar dev"><nav aria-label="Developer"><span class="dev-label">For developers</span><ul>${links(DEVELOPER_NAV)}</ul></nav>
<div class="me">${companySwitcher(request, account.id)}<a href="/panel/security">Security</a>
<form method="post" action="/panel/sign-out">${csrfField(request)}<button class="link" type="submit">Sign out</button></form></div></div></header>`;
}

/**
 * The approval queue is in the menu of those who may approve, before Settings, with how many checks
 * wait when any do.
 */
function withApprovals(entries: readonly NavEntry[], waiting: number | null): readonly NavEntry[] {
  if (waiting === null || entries !== OFFICE_NAV) return entries;
  const label = waiting > 0 ? `Approvals (${waiting})` : 'Approvals';
  const at = entries.findIndex(([key]) => key === 'settings');
  return [...entries.slice(0, at), ['approvals', '/panel/approvals', label], ...entries.slice(at)];
}

/** A person in several companies picks the one to work in; one company shows no switcher. */
function companySwitcher(request: FastifyRequest, current: string): Html | '' {
  const companies = request.panel.companies ?? [];
  if (companies.length < 2) return '';
  return html`<form method="post" action="/panel/switch-company" class="switcher">${csrfField(request)}
<select name="account" aria-label="Company">${companies.map(
    (c) => html`<option value="${c.accountId}"${c.accountId === current ? html` selected` : ''}>${c.company}</option>`,
  )}</select><button class="link" type="submit">Switch company</button></form>`;
}

function envSwitch(options: PageOptions): Html | '' {
  if (options.env === undefined || options.current === undefined) return '';
  const path = options.request.url.split('?')[0] ?? '/panel';
  const link = (env: Environment, label: string): Html =>
    html`<a class="env" href="${withEnv(path, env)}" aria-current="${options.env === env ? 'true' : 'false'}">${label}</a>`;
  return html`<div class="envbar" role="group" aria-label="Environment"><span class="hint">Showing</span>${link('test', 'Test data')}${link('live', 'Live data')}</div>`;
}

export function page(options: PageOptions, body: Html): string {
  const query = options.request.query as Record<string, unknown> | undefined;
  const noticeKey = typeof query?.notice === 'string' ? query.notice : '';
  const notice = options.notice ?? NOTICES[noticeKey];
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${options.title} · checkwriter</title>
<link rel="icon" type="image/svg+xml" href="${FAVICON.path}"><link rel="stylesheet" href="${STYLESHEET.path}"><script src="${SCRIPT.path}" defer></script>${(options.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}</head>
<body><a class="skip" href="#content">Skip to content</a>
${header(options)}${envSwitch(options)}
<main id="content"${options.narrow === true ? html` class="narrow"` : ''}>
${options.problem === undefined ? '' : html`<div class="problem" role="alert">${options.problem}</div>`}
${notice === undefined ? '' : html`<div class="notice" role="status">${notice}</div>`}
${body}
</main>
<footer>checkwriter · <a href="/api/v3/docs">API reference</a></footer>
</body></html>`.text;
}

/** Sends a rendered page. */
export function sendPage(reply: FastifyReply, body: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

export function money(cents: number | null): string {
  if (cents === null) return '—';
  return `$${formatCents(cents)}`;
}

export function when(epochMs: number | null, timeZone: string): string {
  if (epochMs === null) return '—';
  const m = localMoment(epochMs, timeZone);
  return `${m.date} ${m.time}`;
}

export function pager(
  path: string,
  params: Record<string, string>,
  page: number,
  perPage: number,
  total: number,
): Html {
  const pages = Math.max(1, Math.ceil(total / perPage));
  const link = (to: number, label: string, rel: string): Html => {
    const query = new URLSearchParams({ ...params, page: String(to) });
    return html`<a href="${path}?${query.toString()}" rel="${rel}">${label}</a>`;
  };
  return html`<nav class="pager" aria-label="Pages">${page > 1 ? link(page - 1, '← Previous', 'prev') : ''}
<span>Page ${page} of ${pages} · ${total} in all</span>${page < pages ? link(page + 1, 'Next →', 'next') : ''}</nav>`;
}
