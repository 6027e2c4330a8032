// Payees, bank accounts and custom from addresses: searchable, paged lists of what the API made.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Environment } from '../domain/owner.ts';
import type { Address } from '../domain/address.ts';
import type { BankAccount } from '../domain/bank-account.ts';
import type { Payee } from '../domain/payee.ts';
import * as addressService from '../services/address.service.ts';
import * as bankAccountService from '../services/bank-account.service.ts';
import * as payeeService from '../services/payee.service.ts';
import type { Paged } from '../domain/paging.ts';
import { listFilters } from './list-query.ts';
import { html, type Html } from './html.ts';
import { page, pager, sendPage, type NavKey } from './layout.ts';
import type { PanelDeps } from './deps.ts';
import { envOf, principalFor } from './session.ts';

interface ListView<T> {
  key: NavKey;
  path: string;
  title: string;
  searchHint: string;
  columns: readonly string[];
  load: (
    deps: PanelDeps,
    request: FastifyRequest,
    env: Environment,
    page: { limit: number; offset: number; term: string | null },
  ) => Promise<Paged<T>>;
  row: (item: T) => readonly (string | Html)[];
}

const joined = (...parts: string[]): string => parts.filter((p) => p !== '').join(', ');

const PAYEES: ListView<Payee> = {
  key: 'payees',
  path: '/panel/payees',
  title: 'Payees',
  searchHint: 'name, company, email',
  columns: ['Name', 'Company', 'Email', 'Phone', 'Address', 'Payee id'],
  load: (deps, request, env, p) => payeeService.listPayees(deps.ctx, principalFor(request, env), p),
  row: (p) => [
    p.name,
    p.company,
    p.email,
    p.phone,
    joined(p.address1, p.address2, p.city, p.state, p.zip, p.country),
    html`<code>${p.id}</code>`,
  ],
};

const BANK_ACCOUNTS: ListView<BankAccount> = {
  key: 'bank-accounts',
  path: '/panel/bank-accounts',
  title: 'Bank accounts',
  searchHint: 'name, bank',
  columns: ['Name', 'Bank', 'Routing number', 'Account number', 'Next check number', 'Signature', 'Bank account id'],
  load: (deps, request, env, p) => bankAccountService.listBankAccounts(deps.ctx, principalFor(request, env), p),
  row: (b) => [
    b.name,
    b.bankName,
    b.routingNumber,
    b.accountNumberMasked,
    String(b.nextSerial),
    b.hasSignature ? 'On file' : 'None',
    html`<code>${b.id}</code>`,
  ],
};

const FROM_ADDRESSES: ListView<Address> = {
  key: 'from-addresses',
  path: '/panel/from-addresses',
  title: 'Custom from addresses',
  searchHint: 'name, company',
  columns: ['Name', 'Company', 'Address', 'Phone', 'Email', 'Address id'],
  load: (deps, request, env, p) => addressService.listAddresses(deps.ctx, principalFor(request, env), 'from', p),
  row: (a) => [
    a.name,
    a.companyName,
    joined(a.addressLine1, a.addressLine2, a.city, a.state, a.zip, a.country),
    a.phone,
    a.email,
    html`<code>${a.id}</code>`,
  ],
};

function register<T>(app: FastifyInstance, deps: PanelDeps, view: ListView<T>): void {
  app.get(view.path.slice('/panel'.length), async (request, reply) => {
    const env = envOf(request);
    const f = listFilters(request.query);
    const result = await view.load(deps, request, env, {
      limit: f.perPage,
      offset: (f.page - 1) * f.perPage,
      term: f.term === '' ? null : f.term,
    });
    const params: Record<string, string> = { perPage: String(f.perPage) };
    if (env === 'live') params.env = 'live';
    if (f.term !== '') params.term = f.term;
    const table =
      result.items.length === 0
        ? html`<p>None${f.term === '' ? ' yet: they are made through the API' : ' match'}.</p>`
        : html`<div class="table"><table><thead><tr>${view.columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
<tbody>${result.items.map((item) => html`<tr>${view.row(item).map((cell) => html`<td>${cell}</td>`)}</tr>`)}</tbody></table></div>`;
    const body = html`<h1>${view.title} <span class="hint">(${env})</span></h1>
<form method="get" action="${view.path}" class="card" role="search" aria-label="Search ${view.title.toLowerCase()}">
${env === 'live' ? html`<input type="hidden" name="env" value="live">` : ''}
<div class="row"><div><label for="term">Search <span class="hint">${view.searchHint}</span></label><input id="term" name="term" type="search" value="${f.term}"></div>
<div><button type="submit">Search</button></div></div></form>
${table}${pager(view.path, params, f.page, f.perPage, result.total)}`;
    return sendPage(reply, page({ title: view.title, request, current: view.key, env }, body));
  });
}

export async function recordsPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  register(app, deps, PAYEES);
  register(app, deps, BANK_ACCOUNTS);
  register(app, deps, FROM_ADDRESSES);
}
