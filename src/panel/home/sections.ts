// The office's part of the home page: each bank account's outstanding checks
// and its last weeks as a chart, then the latest imports and positive pay exports, for the
// environment shown. Every empty state says what to do next and links to where it is done.
import { bankAccountLabel } from '../../domain/bank-account.ts';
import type { Environment, Principal } from '../../domain/owner.ts';
import { type BankAccountHome, HOME_WEEKS, type OfficeHome, officeHome } from '../../services/home.service.ts';
import type { ServiceContext } from '../../services/context.ts';
import { weeksChart } from './chart.ts';
import { type Html, html } from '../shell/html.ts';
import { money, when, withEnv } from '../shell/layout.ts';
import { checksCount } from '../bank-accounts/check-register.pages.ts';

const IMPORT_STATES: Readonly<Record<string, string>> = {
  queued: 'waiting',
  running: 'running',
  succeeded: 'done',
  failed: 'failed',
};

function bankAccountCard(home: BankAccountHome, env: Environment, index: number): Html {
  const b = home.bankAccount;
  const quiet = home.weeks.every((w) => w.written.count === 0 && w.cleared.count === 0);
  const register = withEnv(`/panel/bank-accounts/${b.id}/register`, env);
  const activity = quiet
    ? html`<p>No checks written or cleared in the last ${HOME_WEEKS} weeks. <a href="${withEnv('/panel/checks/new', env)}">Write a check</a> or <a href="${withEnv('/panel/imports', env)}">import checks</a>.</p>`
    : weeksChart(`bank-${index}`, b.name, home.weeks);
  return html`<section class="card home-bank" aria-labelledby="bank-${index}-h" data-bank-account="${b.id}">
<h2 id="bank-${index}-h">${bankAccountLabel(b)}</h2>
<div class="home-bank-body"><div><dl class="facts">
<dt>Outstanding</dt><dd class="outstanding-count">${checksCount(home.outstanding.count)}</dd>
<dt>Outstanding total</dt><dd class="outstanding-total">${money(home.outstanding.totalCents)}</dd></dl>
<p class="hint">Issued (printed, mailed, emailed or e-printed), not void, not yet paid by the bank.</p>
<p><a href="${register}">Open the register</a></p></div>
<div>${activity}</div></div></section>`;
}

function bankAccountsPart(home: OfficeHome, env: Environment): Html {
  if (home.bankAccounts.length === 0)
    return html`<section class="card" aria-labelledby="banks-h"><h2 id="banks-h">Your bank accounts</h2>
<p>No bank account yet${env === 'live' ? ' in your live data' : ''}. Checks are written on a bank account: add yours — its name, routing number and account number — and then write your first check.</p>
<p><a class="button" href="${withEnv('/panel/bank-accounts/new', env)}">Add a bank account</a></p></section>`;
  const more = home.bankAccountsTotal - home.bankAccounts.length;
  return html`${home.bankAccounts.map((b, i) => bankAccountCard(b, env, i))}${
    more > 0
      ? html`<p>${more} more bank ${more === 1 ? 'account' : 'accounts'}: see them all in the <a href="${withEnv('/panel/register', env)}">register</a>.</p>`
      : ''
  }`;
}

function importsPart(home: OfficeHome, env: Environment, timeZone: string): Html {
  const list =
    home.imports.length === 0
      ? html`<p>No imports yet. <a href="${withEnv('/panel/imports', env)}">Import payees or checks</a> from a CSV file your accounting software exports.</p>`
      : html`<ul class="plain recent">${home.imports.map(
          (i) =>
            html`<li><a href="${withEnv(`/panel/imports/${i.id}`, env)}">${i.fileName}</a> <span class="hint">— ${i.kind}, ${i.rowsTotal} ${i.rowsTotal === 1 ? 'row' : 'rows'}, ${IMPORT_STATES[i.state] ?? i.state}, ${when(i.createdAt, timeZone)}</span></li>`,
        )}</ul><p><a href="${withEnv('/panel/imports', env)}">All imports</a></p>`;
  return html`<section class="card" aria-labelledby="imports-h"><h2 id="imports-h">Latest imports</h2>${list}</section>`;
}

function exportsPart(home: OfficeHome, env: Environment, timeZone: string): Html {
  const list =
    home.exports.length === 0
      ? html`<p>No positive pay file yet. <a href="${withEnv('/panel/positive-pay', env)}">Export one</a> for your bank after printing checks, so it pays only the checks you wrote.</p>`
      : html`<ul class="plain recent">${home.exports.map(
          (e) =>
            html`<li>${e.bankAccountName ?? 'A deleted bank account'}, ${e.from} to ${e.to}: ${checksCount(e.issuedCount)} issued (${money(e.issuedTotalCents)})${e.voidCount > 0 ? `, ${e.voidCount} void` : ''} <span class="hint">— ${when(e.createdAt, timeZone)}</span></li>`,
        )}</ul><p><a href="${withEnv('/panel/positive-pay', env)}">Positive pay and every past export</a></p>`;
  return html`<section class="card" aria-labelledby="exports-h"><h2 id="exports-h">Latest positive pay exports</h2>${list}</section>`;
}

/** The office's sections of the home page, for `principal`'s environment. */
export async function officeSections(ctx: ServiceContext, principal: Principal): Promise<Html> {
  const home = await officeHome(ctx, principal);
  const env = principal.env;
  return html`${bankAccountsPart(home, env)}
<div class="columns">${importsPart(home, env, principal.timeZone)}${exportsPart(home, env, principal.timeZone)}</div>`;
}
