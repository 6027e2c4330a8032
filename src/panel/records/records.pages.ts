// Records: payees, bank accounts, categories and custom from and to addresses —
// searchable, paged lists, and forms to create, edit and delete them, through the same services as
// the API (anything done here is visible through the API and the reverse). Forms are checked
// against the API route's own schema, then by the service; each message shows under its field.
// A delete goes only where nothing depends on the record; otherwise the page says why, nothing changed.
import { needs } from '../shell/access.ts';
import { needsRecentFactor } from '../shell/step-up.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { ADDRESS_FIELDS, type Address, type AddressKind } from '../../domain/address.ts';
import type { Category } from '../../domain/category.ts';
import type { Environment, Principal } from '../../domain/owner.ts';
import { PAYEE_FIELDS, type Payee } from '../../domain/payee.ts';
import { AppError } from '../../errors.ts';
import { AddressInput } from '../../schemas/addresses.ts';
import { CategoryInput } from '../../schemas/categories.ts';
import { PayeeInput } from '../../schemas/payees.ts';
import * as addressService from '../../services/address.service.ts';
import * as payeeService from '../../services/payee.service.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { html, type Html } from '../shell/html.ts';
import { csrfField, page, pager, sendPage, withEnv } from '../shell/layout.ts';
import { listFilters } from '../shell/list-query.ts';
import {
  type FieldSpec,
  fieldProblem,
  formValues,
  type Problems,
  problemSummary,
  renderFields,
  schemaProblems,
  unsentFields,
  type Values,
} from '../shell/record-form.ts';
import type { RecordKind } from './record-kind.ts';
import { envOf, principalFor } from '../shell/session.ts';
import { plainWords } from '../shell/wording.ts';

const joined = (...parts: string[]): string => parts.filter((p) => p !== '').join(', ');

/** The form's values as the API's JSON body would carry them: every field a string. */
function asBody(values: Values): Record<string, unknown> {
  return { ...values };
}

function schemaCheck(schema: TSchema): (values: Values) => Problems {
  return (values) => schemaProblems(schema, asBody(values));
}

const PAYEE_FORM: readonly FieldSpec[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 100, hint: 'as printed on the check' },
  { name: 'nickName', label: 'Nick name', maxLength: 100 },
  { name: 'company', label: 'Company', maxLength: 100, autocomplete: 'organization' },
  { name: 'email', label: 'Email', kind: 'email', maxLength: 254, hint: 'where emailed checks go' },
  { name: 'phone', label: 'Phone', kind: 'tel', maxLength: 32, hint: 'with the country code outside the US' },
  { name: 'address1', label: 'Address line 1', maxLength: 100 },
  { name: 'address2', label: 'Address line 2', maxLength: 100 },
  { name: 'city', label: 'City', maxLength: 60 },
  { name: 'state', label: 'State', maxLength: 60 },
  { name: 'zip', label: 'ZIP code', maxLength: 20 },
  { name: 'country', label: 'Country', maxLength: 60 },
];

export const PAYEES: RecordKind<Payee> = {
  key: 'payees',
  path: '/payees',
  title: 'Payees',
  singular: 'payee',
  searchHint: 'name, company, email',
  columns: ['Name', 'Company', 'Email', 'Phone', 'Address', 'Payee id'],
  row: (p) => [
    p.name,
    p.company,
    p.email,
    p.phone,
    joined(p.address1, p.address2, p.city, p.state, p.zip, p.country),
    html`<code>${p.id}</code>`,
  ],
  idOf: (p) => p.id,
  nameOf: (p) => p.name,
  list: (deps, owner, p) => payeeService.listPayees(deps.ctx, owner, p),
  find: (deps, owner, id) => payeeService.getPayee(deps.ctx, owner, id),
  fields: async () => PAYEE_FORM,
  valuesOf: (p) => Object.fromEntries(PAYEE_FIELDS.map((f) => [f, p[f]])),
  check: schemaCheck(PayeeInput),
  create: async (deps, owner, values) => {
    const [payee] = await payeeService.createPayees(deps.ctx, owner, [{ ...values, name: values.name ?? '' }]);
    if (payee === undefined) throw new Error('a payee create returned nothing');
    return payee;
  },
  update: (deps, owner, id, values) => payeeService.updatePayee(deps.ctx, owner, id, values),
  remove: (deps, owner, id) => payeeService.deleteUnusedPayee(deps.ctx, owner, id),
};

export const CATEGORIES: RecordKind<Category> = {
  key: 'categories',
  path: '/categories',
  title: 'Categories',
  singular: 'category',
  searchHint: 'name, type',
  columns: ['Name', 'Type', 'Category id'],
  row: (c) => [c.name, c.type, html`<code>${c.id}</code>`],
  idOf: (c) => c.id,
  nameOf: (c) => c.name,
  list: (deps, owner, p) => addressService.listCategories(deps.ctx, owner, p),
  find: (deps, owner, id) => addressService.getCategory(deps.ctx, owner, id),
  fields: async () => [
    { name: 'name', label: 'Name', required: true, maxLength: 100 },
    { name: 'type', label: 'Type', maxLength: 50, hint: 'your own kind, such as expense or income' },
  ],
  valuesOf: (c) => ({ name: c.name, type: c.type }),
  check: schemaCheck(CategoryInput),
  create: async (deps, owner, values) => {
    const [category] = await addressService.createCategories(deps.ctx, owner, [
      { name: values.name ?? '', type: values.type ?? '' },
    ]);
    if (category === undefined) throw new Error('a category create returned nothing');
    return category;
  },
  update: async (deps, owner, id, values) => {
    await addressService.updateCategory(deps.ctx, owner, id, { name: values.name, type: values.type });
  },
  remove: (deps, owner, id) => addressService.deleteUnusedCategory(deps.ctx, owner, id),
};

const ADDRESS_FORM: readonly FieldSpec[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 100 },
  { name: 'companyName', label: 'Company', maxLength: 100, autocomplete: 'organization' },
  { name: 'addressLine1', label: 'Address line 1', maxLength: 100 },
  { name: 'addressLine2', label: 'Address line 2', maxLength: 100 },
  { name: 'city', label: 'City', maxLength: 60 },
  { name: 'state', label: 'State', maxLength: 60 },
  { name: 'zip', label: 'ZIP code', maxLength: 20 },
  { name: 'country', label: 'Country', maxLength: 60 },
  { name: 'phone', label: 'Phone', kind: 'tel', maxLength: 32 },
  { name: 'email', label: 'Email', kind: 'email', maxLength: 254 },
  { name: 'note', label: 'Note', maxLength: 200 },
];

function addressKind(kind: AddressKind): RecordKind<Address> {
  const from = kind === 'from';
  return {
    key: from ? 'from-addresses' : 'to-addresses',
    path: from ? '/from-addresses' : '/to-addresses',
    title: from ? 'Custom from addresses' : 'Custom to addresses',
    singular: from ? 'from address' : 'to address',
    searchHint: 'name, company, city',
    columns: ['Name', 'Company', 'Address', 'Phone', 'Email', 'Address id'],
    row: (a) => [
      a.name,
      a.companyName,
      joined(a.addressLine1, a.addressLine2, a.city, a.state, a.zip, a.country),
      a.phone,
      a.email,
      html`<code>${a.id}</code>`,
    ],
    idOf: (a) => a.id,
    nameOf: (a) => a.name,
    list: (deps, owner, p) => addressService.listAddresses(deps.ctx, owner, kind, p),
    find: (deps, owner, id) => addressService.getAddress(deps.ctx, owner, kind, id),
    fields: async () => ADDRESS_FORM,
    valuesOf: (a) => Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, a[f]])),
    check: schemaCheck(AddressInput),
    create: async (deps, owner, values) => {
      const [address] = await addressService.createAddresses(deps.ctx, owner, kind, [
        { ...values, name: values.name ?? '' },
      ]);
      if (address === undefined) throw new Error('an address create returned nothing');
      return address;
    },
    update: async (deps, owner, id, values) => {
      await addressService.updateAddress(deps.ctx, owner, kind, id, values);
    },
    remove: (deps, owner, id) => addressService.deleteUnusedAddress(deps.ctx, owner, kind, id),
  };
}

export const FROM_ADDRESSES = addressKind('from');
export const TO_ADDRESSES = addressKind('to');

function envField(env: Environment): Html {
  return html`<input type="hidden" name="env" value="${env}">`;
}

/**
 * One kind's list and forms. Its routes are relative: the plugin is registered under the kind's own
 * URL prefix (`kind.path`), so /panel/payees/* is found from records/ and /panel/bank-accounts/* from
 * bank-accounts/.
 */
export async function recordKindPages<T>(app: FastifyInstance, deps: PanelDeps, kind: RecordKind<T>): Promise<void> {
  const listPath = `/panel${kind.path}`;
  const manage = kind.manage ?? 'payees.manage';
  // A kind whose writes move money's path (bank accounts) asks for a recent second factor first.
  const writes = kind.stepUp === true ? needsRecentFactor(manage) : needs(manage);
  const article = /^[aeiou]/.test(kind.singular) ? 'an' : 'a';

  app.get('', needs('read'), async (request, reply) => {
    const env = envOf(request);
    const f = listFilters(request.query);
    const result = await kind.list(deps, principalFor(request, env), {
      limit: f.perPage,
      offset: (f.page - 1) * f.perPage,
      term: f.term === '' ? null : f.term,
    });
    const params: Record<string, string> = { perPage: String(f.perPage) };
    if (env === 'live') params.env = 'live';
    if (f.term !== '') params.term = f.term;
    const table =
      result.items.length === 0
        ? html`<p>None${f.term === '' ? ' yet' : ' match'}.</p>`
        : html`<div class="table"><table><thead><tr>${kind.columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
<tbody>${result.items.map((item) => {
            const [first, ...rest] = kind.row(item);
            const link = withEnv(`${listPath}/${encodeURIComponent(kind.idOf(item))}`, env);
            return html`<tr><td><a href="${link}">${first === '' ? '(no name)' : first}</a></td>${rest.map((cell) => html`<td>${cell}</td>`)}</tr>`;
          })}</tbody></table></div>`;
    const body = html`<h1>${kind.title} <span class="hint">(${env})</span></h1>
<p><a class="button" href="${withEnv(`${listPath}/new`, env)}">Add ${article} ${kind.singular}</a></p>
<form method="get" action="${listPath}" class="card" role="search" aria-label="Search ${kind.title.toLowerCase()}">
${env === 'live' ? html`<input type="hidden" name="env" value="live">` : ''}
<div class="row"><div><label for="term">Search <span class="hint">${kind.searchHint}</span></label><input id="term" name="term" type="search" value="${f.term}"></div>
<div><button type="submit">Search</button></div></div></form>
${table}${pager(listPath, params, f.page, f.perPage, result.total)}`;
    return sendPage(reply, page({ title: kind.title, request, current: kind.key, env }, body));
  });

  const newPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    values: Values,
    problems: Problems,
    status: number,
  ): Promise<FastifyReply> => {
    const env = envOf(request);
    const owner = principalFor(request, env);
    const title = `Add ${article} ${kind.singular}`;
    const body = html`<p><a href="${withEnv(listPath, env)}">← ${kind.title}</a></p><h1>${title} <span class="hint">(${env})</span></h1>
<form method="post" action="${listPath}" class="card" novalidate>${csrfField(request)}${envField(env)}
${renderFields(await kind.fields(deps, owner), values, problems)}
<button type="submit">Add ${kind.singular}</button></form>`;
    return sendPage(
      reply,
      page({ title, request, current: kind.key, env, problem: problemSummary(problems), narrow: true }, body),
      status,
    );
  };

  const editPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    item: T,
    values: Values,
    problems: Problems,
    status: number,
    problem?: string,
  ): Promise<FastifyReply> => {
    const env = envOf(request);
    const owner = principalFor(request, env);
    const action = `${listPath}/${encodeURIComponent(kind.idOf(item))}`;
    const name = kind.nameOf(item);
    const wide = kind.wide === true;
    const body = html`<p><a href="${withEnv(listPath, env)}">← ${kind.title}</a></p>
<h1>${name} <span class="hint">(${kind.singular}, ${env})</span></h1>
${wide ? html`<div class="columns"><div>` : ''}${kind.facts === undefined ? '' : kind.facts(item)}
<form method="post" action="${action}" class="card" novalidate><h2>Edit</h2>${csrfField(request)}${envField(env)}
${renderFields(await kind.fields(deps, owner, item), values, problems)}
<button type="submit">Save changes</button></form>${wide ? html`</div><div>` : ''}
${kind.extra === undefined ? '' : await kind.extra(deps, request, env, item)}${wide ? html`</div></div>` : ''}
<form method="post" action="${action}/delete" class="card"><h2>Delete</h2>${csrfField(request)}${envField(env)}
<p class="hint">Only ${article} ${kind.singular} nothing depends on can be deleted.</p>
<button class="danger" type="submit">Delete this ${kind.singular}</button></form>`;
    return sendPage(
      reply,
      page(
        {
          title: `${kind.title}: ${name}`,
          request,
          current: kind.key,
          env,
          problem: problem ?? problemSummary(problems),
          narrow: !wide,
        },
        body,
      ),
      status,
    );
  };

  const formNames = async (owner: Principal, editing?: T): Promise<string[]> =>
    (await kind.fields(deps, owner, editing)).map((f) => f.name);

  /** Values to draw back into the form after a refusal: never a secret. */
  const redrawn = (values: Values): Values => {
    const out = { ...values };
    for (const name of kind.secretFields ?? []) out[name] = '';
    return out;
  };

  app.get('/new', writes, async (request, reply) => newPage(request, reply, {}, {}, 200));

  app.post('', writes, async (request, reply) => {
    const env = envOf(request);
    const owner = principalFor(request, env);
    const names = await formNames(owner);
    const values = formValues(request.body, names);
    const problems = kind.check(values, false);
    if (Object.keys(problems).length > 0) return newPage(request, reply, redrawn(values), problems, 422);
    try {
      const item = await kind.create(deps, owner, values);
      return reply.redirect(
        withEnv(`${listPath}/${encodeURIComponent(kind.idOf(item))}?notice=record-added`, env),
        303,
      );
    } catch (error) {
      const placed = fieldProblem(error, names);
      if (placed !== null) return newPage(request, reply, redrawn(values), placed, 422);
      throw error;
    }
  });

  app.get('/:id', needs('read'), async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    const item = await kind.find(deps, principalFor(request, env), id);
    return editPage(request, reply, item, kind.valuesOf(item), {}, 200);
  });

  app.post('/:id', writes, async (request, reply) => {
    const env = envOf(request);
    const owner = principalFor(request, env);
    const { id } = request.params as { id: string };
    const item = await kind.find(deps, owner, id);
    const names = await formNames(owner, item);
    const values = formValues(request.body, names);
    // A field the form drew but the body lacks is refused, not saved as '' (clearing it).
    const problems = { ...kind.check(values, true), ...unsentFields(request.body, names) };
    if (Object.keys(problems).length > 0) return editPage(request, reply, item, redrawn(values), problems, 422);
    try {
      await kind.update(deps, owner, id, values);
    } catch (error) {
      const placed = fieldProblem(error, names);
      if (placed !== null) return editPage(request, reply, item, redrawn(values), placed, 422);
      throw error;
    }
    return reply.redirect(withEnv(`${listPath}/${encodeURIComponent(id)}?notice=record-saved`, env), 303);
  });

  app.post('/:id/delete', writes, async (request, reply) => {
    const env = envOf(request);
    const owner = principalFor(request, env);
    const { id } = request.params as { id: string };
    try {
      await kind.remove(deps, owner, id);
    } catch (error) {
      if (error instanceof AppError && error.code === 'conflict') {
        const item = await kind.find(deps, owner, id);
        return editPage(request, reply, item, kind.valuesOf(item), {}, 409, plainWords(error.message));
      }
      throw error;
    }
    return reply.redirect(withEnv(`${listPath}?notice=record-deleted`, env), 303);
  });
}
