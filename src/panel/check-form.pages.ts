// Writing checks in the panel: new, edit and delete while new, void later, duplicate; and the two
// small JSON answers the form's script asks (payee suggestions, an amount in words). Every save
// goes through the services the API uses (createChecks, editCheck, deleteCheck, voidCheck), so a
// check written here is the API's check. A new payee typed into the form is created in the same
// transaction as the check: if the check is refused, the payee is not kept either.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { amountInWords } from '../domain/amount-words.ts';
import type { Check } from '../domain/check.ts';
import { canHappen, isEditable, statusName } from '../domain/check-status.ts';
import { today } from '../domain/dates.ts';
import { centsToDecimalString } from '../domain/money.ts';
import type { Environment, Principal } from '../domain/owner.ts';
import { MAX_TERM_LENGTH } from '../domain/paging.ts';
import type { Voucher } from '../domain/voucher.ts';
import { AppError, validationError } from '../errors.ts';
import { CheckEditBody, CreateChecksBody, VoucherInput } from '../schemas/checks.ts';
import { CreatePayeesBody } from '../schemas/payees.ts';
import * as addressService from '../services/address.service.ts';
import * as bankAccountService from '../services/bank-account.service.ts';
import * as checkService from '../services/check.service.ts';
import * as lifecycle from '../services/lifecycle.service.ts';
import * as payeeService from '../services/payee.service.ts';
import * as voucherService from '../services/voucher.service.ts';
import { rules } from '../services/validation.ts';
import { transactionJoinedByCalls } from '../store/db.ts';
import {
  checkEdit,
  checkForm,
  checkInput,
  emptyValues,
  fieldError,
  filledLines,
  newPayeeInput,
  PAYEE_SUGGESTIONS,
  placeError,
  schemaProblem,
  valuesFromForm,
  voucherInput,
  type FieldErrors,
  type FormChoices,
  type FormValues,
} from './check-form.ts';
import type { PanelDeps } from './deps.ts';
import { queryText } from './form.ts';
import { html, type Html } from './html.ts';
import { csrfField, page, sendPage, withEnv } from './layout.ts';
import { envOf, principalFor } from './session.ts';

/** Bank accounts and categories offered in the selects (an office has a handful; the cost stays bounded). */
const CHOICES_LIMIT = 200;
/** Payees looked at when a typed name is matched without script. */
const NAME_MATCH_LIMIT = 100;

type Outcome = { fields: FieldErrors; problem: string };

async function choicesFor(deps: PanelDeps, principal: Principal, payeeTerm: string): Promise<FormChoices> {
  const { ctx } = deps;
  const all = { limit: CHOICES_LIMIT, offset: 0, term: null };
  const [banks, categories, payees] = await Promise.all([
    bankAccountService.listBankAccounts(ctx, principal, all),
    addressService.listCategories(ctx, principal, all),
    payeeService.listPayees(ctx, principal, {
      limit: PAYEE_SUGGESTIONS,
      offset: 0,
      term: payeeTerm === '' ? null : payeeTerm.slice(0, MAX_TERM_LENGTH),
    }),
  ]);
  return { bankAccounts: banks.items, categories: categories.items, payees: payees.items };
}

const decimal = (amountCents: number | null): string => (amountCents === null ? '' : centsToDecimalString(amountCents));

/** The form filled from a saved check (edit, duplicate). */
async function valuesFromCheck(
  deps: PanelDeps,
  principal: Principal,
  check: Check,
  issueDate: string,
): Promise<FormValues> {
  const values = emptyValues(issueDate);
  values.bankAccountId = check.bankAccountId;
  values.payee = check.payeeName ?? '';
  values.payeeId = check.payeeId ?? '';
  values.amount = decimal(check.amountCents);
  values.memo = check.memo ?? '';
  values.invoiceNumber = check.invoiceNumber ?? '';
  values.categoryId = check.categoryId ?? '';
  const voucher = await voucherOf(deps, principal, check);
  voucher?.items.forEach((item, i) => {
    values.lines[i] = { description: item.description, amount: decimal(item.totalCents) };
  });
  return values;
}

async function voucherOf(deps: PanelDeps, principal: Principal, check: Check): Promise<Voucher | undefined> {
  if (check.voucherId === null) return undefined;
  try {
    return await voucherService.getCheckVoucher(deps.ctx, principal, check.id);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return undefined;
    throw error;
  }
}

const sameName = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Which payee the payee box names: the suggestion the script picked (payeeId, while the box still
 * shows its name), a payee id typed in, or the one payee with exactly that name.
 */
async function resolvePayee(
  deps: PanelDeps,
  principal: Principal,
  values: FormValues,
  current: Check | null = null,
): Promise<{ payeeId: string | null } | Outcome> {
  const { ctx } = deps;
  if (values.payee === '') return { payeeId: null };
  // An edit keeping the check's payee keeps it, even one deleted since (as PUT allows).
  if (current?.payeeId != null && values.payeeId === current.payeeId && sameName(values.payee, current.payeeName ?? ''))
    return { payeeId: current.payeeId };
  const byId = async (id: string) => {
    try {
      return await payeeService.getPayee(ctx, principal, id);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return undefined;
      throw error;
    }
  };
  if (values.payeeId !== '') {
    const picked = await byId(values.payeeId);
    if (picked !== undefined && sameName(picked.name, values.payee)) return { payeeId: picked.id };
  }
  const typedId = await byId(values.payee);
  if (typedId !== undefined) return { payeeId: typedId.id };
  const found = await payeeService.listPayees(ctx, principal, {
    limit: NAME_MATCH_LIMIT,
    offset: 0,
    term: values.payee.slice(0, MAX_TERM_LENGTH),
  });
  const named = found.items.filter((p) => sameName(p.name, values.payee));
  const [only] = named;
  if (named.length === 1 && only !== undefined) return { payeeId: only.id };
  if (named.length === 0)
    return fieldError(
      'payee',
      `No payee is named "${values.payee}". Pick one from the list, or add a new payee below.`,
    );
  return fieldError(
    'payee',
    `${named.length} payees are named "${values.payee}". Pick the one you mean from the list, or type its payee id (on the Payees page).`,
  );
}

function isOutcome(value: { payeeId: string | null } | Outcome): value is Outcome {
  return 'fields' in value;
}

interface FormPage {
  title: string;
  heading: Html;
  action: string;
  submitLabel: string;
  fixedBankAccount: string | null;
}

async function showForm(
  deps: PanelDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  env: Environment,
  form: FormPage,
  values: FormValues,
  outcome: Outcome | null,
): Promise<FastifyReply> {
  const principal = principalFor(request, env);
  const choices = await choicesFor(deps, principal, values.payee);
  if (values.bankAccountId === '' && choices.bankAccounts.length === 1)
    values.bankAccountId = choices.bankAccounts[0]?.id ?? '';
  const body = html`<p><a href="${withEnv('/panel/checks', env)}">← All checks</a></p>
<h1>${form.heading} <span class="hint">(${env})</span></h1>
${checkForm({
  request,
  env,
  action: form.action,
  submitLabel: form.submitLabel,
  values,
  choices,
  errors: outcome?.fields ?? new Map(),
  fixedBankAccount: form.fixedBankAccount,
})}`;
  return sendPage(
    reply,
    page(
      {
        title: form.title,
        request,
        current: 'checks',
        env,
        ...(outcome === null ? {} : { problem: outcome.problem }),
      },
      body,
    ),
    outcome === null ? 200 : 422,
  );
}

/** A validation refusal becomes the form again; anything else (404, 403, a server fault) goes on. */
function asOutcome(error: unknown, values: FormValues): Outcome {
  if (error instanceof AppError && error.code === 'validation') return placeError(error, values);
  throw error;
}

const NEW_FORM = (env: Environment): FormPage => ({
  title: 'Write a check',
  heading: html`Write a check`,
  action: withEnv('/panel/checks/new', env),
  submitLabel: 'Save check',
  fixedBankAccount: null,
});

/** The buttons on a check's page: what can still happen to it (checks.pages.ts shows them). */
export function checkActions(check: Check, env: Environment): Html {
  const path = (to: string): string => withEnv(`/panel/checks/${check.id}/${to}`, env);
  const editable = isEditable(check.status);
  return html`<nav class="actions" aria-label="Check actions">${editable ? html`<a class="button secondary" href="${path('edit')}">Edit</a> <a class="button secondary" href="${path('delete')}">Delete</a> ` : ''}${canHappen('void', check.status) ? html`<a class="button secondary" href="${path('void')}">Void</a> ` : ''}<a class="button secondary" href="${withEnv(`/panel/checks/new?from=${encodeURIComponent(check.id)}`, env)}">Duplicate</a></nav>`;
}

function confirmPage(
  request: FastifyRequest,
  reply: FastifyReply,
  env: Environment,
  check: Check,
  what: { verb: string; title: string; text: string; danger: boolean },
): FastifyReply {
  const back = withEnv(`/panel/checks/${check.id}`, env);
  const body = html`<p><a href="${back}">← Check ${check.serialNumber}</a></p>
<h1>${what.title} <span class="hint">(${env})</span></h1>
<p>${what.text}</p>
<form method="post" action="${withEnv(`/panel/checks/${check.id}/${what.verb}`, env)}">${csrfField(request)}
${env === 'live' ? html`<input type="hidden" name="env" value="live">` : ''}
<button type="submit"${what.danger ? html` class="danger"` : ''}>${what.title}</button> <a class="button secondary" href="${back}">Keep it</a></form>`;
  return sendPage(reply, page({ title: what.title, request, current: 'checks', env, narrow: true }, body));
}

export async function checkFormPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  app.get('/checks/new', async (request, reply) => {
    const env = envOf(request);
    const principal = principalFor(request, env);
    const from = queryText(request.query, 'from');
    const date = today(principal.timeZone, ctx.now());
    // Duplicate: the form filled from that check; saving makes a new check with its own number.
    const values =
      from === ''
        ? emptyValues(date)
        : await valuesFromCheck(deps, principal, await checkService.getCheck(ctx, principal, from), date);
    return showForm(deps, request, reply, env, NEW_FORM(env), values, null);
  });

  app.post('/checks/new', async (request, reply) => {
    const env = envOf(request);
    const principal = principalFor(request, env);
    const values = valuesFromForm(request.body);
    const form = NEW_FORM(env);
    let created: checkService.CreatedCheck | undefined;
    try {
      const payeeProblem = values.newPayee
        ? schemaProblem(CreatePayeesBody, { payees: [newPayeeInput(values)] })
        : null;
      if (payeeProblem !== null) throw payeeProblem;
      let payeeId: string | null = null;
      if (!values.newPayee) {
        const resolved = await resolvePayee(deps, principal, values);
        if (isOutcome(resolved)) return showForm(deps, request, reply, env, form, values, resolved);
        payeeId = resolved.payeeId;
      }
      // The schema sees a stand-in id for a payee not made yet; the service sees the real one.
      const schemaInput = checkInput(values, values.newPayee ? 'new' : payeeId);
      const problem = schemaProblem(CreateChecksBody, { checks: [schemaInput] });
      if (problem !== null) throw problem;
      [created] = await transactionJoinedByCalls(ctx.db, async () => {
        if (values.newPayee) {
          const [payee] = await payeeService.createPayees(ctx, principal, [newPayeeInput(values)]);
          payeeId = payee?.id ?? null;
        }
        return checkService.createChecks(ctx, principal, [checkInput(values, payeeId)]);
      });
    } catch (error) {
      return showForm(deps, request, reply, env, form, values, asOutcome(error, values));
    }
    if (created === undefined) throw new Error('createChecks returned no check');
    return reply.redirect(withEnv(`/panel/checks/${created.checkId}?notice=check-saved`, env), 303);
  });

  const editForm = (check: Check, env: Environment): FormPage => ({
    title: `Edit check ${check.serialNumber}`,
    heading: html`Edit check ${check.serialNumber}`,
    action: withEnv(`/panel/checks/${check.id}/edit`, env),
    submitLabel: 'Save changes',
    fixedBankAccount: check.bankAccountName,
  });

  /** A check that is still new, else the API's 422 for `what` ("edited", "deleted"). */
  const editableCheck = async (principal: Principal, id: string, what: string): Promise<Check> => {
    const check = await checkService.getCheck(ctx, principal, id);
    if (!isEditable(check.status)) throw lifecycle.refused(what, check.status);
    return check;
  };

  app.get('/checks/:id/edit', async (request, reply) => {
    const env = envOf(request);
    const principal = principalFor(request, env);
    const { id } = request.params as { id: string };
    const check = await editableCheck(principal, id, 'edited');
    const values = await valuesFromCheck(deps, principal, check, check.issueDate);
    return showForm(deps, request, reply, env, editForm(check, env), values, null);
  });

  app.post('/checks/:id/edit', async (request, reply) => {
    const env = envOf(request);
    const principal = principalFor(request, env);
    const { id } = request.params as { id: string };
    const check = await checkService.getCheck(ctx, principal, id);
    const form = editForm(check, env);
    const values = valuesFromForm(request.body);
    values.bankAccountId = check.bankAccountId;
    try {
      const payeeProblem = values.newPayee
        ? schemaProblem(CreatePayeesBody, { payees: [newPayeeInput(values)] })
        : null;
      if (payeeProblem !== null) throw payeeProblem;
      let payeeId: string | null = null;
      if (!values.newPayee) {
        const resolved = await resolvePayee(deps, principal, values, check);
        if (isOutcome(resolved)) return showForm(deps, request, reply, env, form, values, resolved);
        payeeId = resolved.payeeId;
      }
      const problem = schemaProblem(CheckEditBody, checkEdit(values, values.newPayee ? 'new' : payeeId));
      if (problem !== null) throw problem;
      // The voucher is replaced only when its lines changed (keeping the number, date and memo
      // an API client may have given it); its lines are checked before anything is written.
      const existing = await voucherOf(deps, principal, check);
      const voucher = voucherInput(values, {
        voucherNumber: existing?.voucherNumber ?? '',
        memo: existing?.memo ?? '',
        ...(existing?.date === null || existing?.date === undefined ? {} : { date: existing.date }),
      });
      const linesChanged = JSON.stringify(linesOf(existing)) !== JSON.stringify(filledLines(values).map((l) => l.line));
      if (linesChanged) {
        const voucherProblem = schemaProblem(VoucherInput, voucher);
        if (voucherProblem !== null) throw prefixed(voucherProblem, 'voucher.');
      }
      // An empty box would leave the amount as it was (PUT omits it); the form means "no amount",
      // which the API refuses the same way for a check that is not noAmount.
      if (values.amount === '' && !check.noAmount) throw rules.required('amount');
      await transactionJoinedByCalls(ctx.db, async () => {
        if (values.newPayee) {
          const [payee] = await payeeService.createPayees(ctx, principal, [newPayeeInput(values)]);
          payeeId = payee?.id ?? null;
        }
        await lifecycle.editCheck(ctx, principal, id, checkEdit(values, payeeId));
        if (linesChanged) await voucherService.attachVoucher(ctx, principal, id, voucher);
      });
    } catch (error) {
      return showForm(deps, request, reply, env, form, values, asOutcome(error, values));
    }
    return reply.redirect(withEnv(`/panel/checks/${id}?notice=check-updated`, env), 303);
  });

  app.get('/checks/:id/delete', async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    const check = await editableCheck(principalFor(request, env), id, 'deleted');
    return confirmPage(request, reply, env, check, {
      verb: 'delete',
      title: `Delete check ${check.serialNumber}`,
      text: 'The check has not been printed or sent, so it can be deleted. Its number is not given out again.',
      danger: true,
    });
  });

  app.post('/checks/:id/delete', async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    await lifecycle.deleteCheck(ctx, principalFor(request, env), id);
    return reply.redirect(withEnv('/panel/checks?notice=check-deleted', env), 303);
  });

  app.get('/checks/:id/void', async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    const check = await checkService.getCheck(ctx, principalFor(request, env), id);
    if (!canHappen('void', check.status)) throw lifecycle.refused('voided', check.status);
    return confirmPage(request, reply, env, check, {
      verb: 'void',
      title: `Void check ${check.serialNumber}`,
      text: `Voiding is final: the check (status ${statusName(check.status)}) can no longer be printed, sent or cashed through us, and a mailing still waiting is cancelled.`,
      danger: true,
    });
  });

  app.post('/checks/:id/void', async (request, reply) => {
    const env = envOf(request);
    const { id } = request.params as { id: string };
    await lifecycle.voidCheck(ctx, principalFor(request, env), id);
    return reply.redirect(withEnv(`/panel/checks/${id}?notice=check-voided`, env), 303);
  });

  // What the form's script asks while the operator types. Both are reads of the signed-in
  // account's own data in the current environment, and bounded (20 payees, one amount).
  app.get('/payees/search', async (request, reply) => {
    const env = envOf(request);
    const term = queryText(request.query, 'term').trim().slice(0, MAX_TERM_LENGTH);
    const found = await payeeService.listPayees(ctx, principalFor(request, env), {
      limit: PAYEE_SUGGESTIONS,
      offset: 0,
      term: term === '' ? null : term,
    });
    return reply.type('application/json; charset=utf-8').send({
      payees: found.items.map((p) => ({ payeeId: p.id, name: p.name, company: p.company, email: p.email })),
    });
  });

  app.get('/amount-in-words', async (request, reply) => {
    const amount = queryText(request.query, 'amount').trim().slice(0, 40);
    let answer: { words: string; message: string };
    try {
      answer = { words: amount === '' ? '' : amountInWords(checkService.cents('amount', amount)), message: '' };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      answer = { words: '', message: error.message };
    }
    return reply.type('application/json; charset=utf-8').send(answer);
  });
}

function linesOf(voucher: Voucher | undefined): { description: string; amount: string }[] {
  return (voucher?.items ?? []).map((item) => ({ description: item.description, amount: decimal(item.totalCents) }));
}

/** A schema message about part of a body, with the path the whole body would have. */
function prefixed(error: AppError, prefix: string): AppError {
  return validationError(error.message.replace(/^The (selected )?/, (m) => `${m}${prefix}`));
}
