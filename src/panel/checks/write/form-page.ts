// What the check form's pages share (write.pages.ts, edit.pages.ts): the choices the
// form offers, the form filled from a saved check, which payee the payee box names, and the form
// page itself with the API's refusal placed by its field.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Check } from '../../../domain/check.ts';
import { isEditable } from '../../../domain/check-status.ts';
import { centsToDecimalString } from '../../../domain/money.ts';
import type { Environment, Principal } from '../../../domain/owner.ts';
import { MAX_TERM_LENGTH } from '../../../domain/paging.ts';
import type { Voucher } from '../../../domain/voucher.ts';
import { AppError, validationError } from '../../../errors.ts';
import * as addressService from '../../../services/address.service.ts';
import * as bankAccountService from '../../../services/bank-account.service.ts';
import * as checkService from '../../../services/checks/write.service.ts';
import * as lifecycle from '../../../services/checks/lifecycle.service.ts';
import * as payeeService from '../../../services/payee.service.ts';
import * as voucherService from '../../../services/checks/voucher.service.ts';
import { CreatePayeesBody } from '../../../schemas/payees.ts';
import {
  checkForm,
  emptyValues,
  fieldError,
  PAYEE_SUGGESTIONS,
  placeError,
  type FieldErrors,
  type FormChoices,
  type FormValues,
  newPayeeInput,
  schemaProblem,
} from './form-fields.ts';
import type { PanelDeps } from '../../shell/deps.ts';
import { html, type Html } from '../../shell/html.ts';
import { page, sendPage, withEnv } from '../../shell/layout.ts';
import { principalFor } from '../../shell/session.ts';

/** Bank accounts and categories offered in the selects (an office has a handful; the cost stays bounded). */
const CHOICES_LIMIT = 200;
/** Payees looked at when a typed name is matched without script. */
const NAME_MATCH_LIMIT = 100;

export type Outcome = { fields: FieldErrors; problem: string };

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

export const decimal = (amountCents: number | null): string =>
  amountCents === null ? '' : centsToDecimalString(amountCents);

/** The form filled from a saved check (edit, duplicate). */
export async function valuesFromCheck(
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

export async function voucherOf(deps: PanelDeps, principal: Principal, check: Check): Promise<Voucher | undefined> {
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
export async function resolvePayee(
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

/**
 * The payee a submitted form names: none yet for a new payee (its fields checked as POST /payees
 * checks them; the service makes it with the check), else the one the payee box names.
 */
export async function payeeOfForm(
  deps: PanelDeps,
  principal: Principal,
  values: FormValues,
  current: Check | null = null,
): Promise<{ payeeId: string | null } | Outcome> {
  if (values.newPayee) {
    const problem = schemaProblem(CreatePayeesBody, { payees: [newPayeeInput(values)] });
    if (problem !== null) throw problem;
    return { payeeId: null };
  }
  return resolvePayee(deps, principal, values, current);
}

export function isOutcome(value: { payeeId: string | null } | Outcome): value is Outcome {
  return 'fields' in value;
}

export interface FormPage {
  title: string;
  heading: Html;
  action: string;
  submitLabel: string;
  fixedBankAccount: string | null;
}

export async function showForm(
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
export function asOutcome(error: unknown, values: FormValues): Outcome {
  if (error instanceof AppError && error.code === 'validation') return placeError(error, values);
  throw error;
}

/** A check that is still new, else the API's 422 for `what` ("edited", "deleted"). */
export async function editableCheck(deps: PanelDeps, principal: Principal, id: string, what: string): Promise<Check> {
  const check = await checkService.getCheck(deps.ctx, principal, id);
  if (!isEditable(check.status)) throw lifecycle.refused(what, check.status);
  return check;
}

export function linesOf(voucher: Voucher | undefined): { description: string; amount: string }[] {
  return (voucher?.items ?? []).map((item) => ({ description: item.description, amount: decimal(item.totalCents) }));
}

/** A schema message about part of a body, with the path the whole body would have. */
export function prefixed(error: AppError, prefix: string): AppError {
  return validationError(error.message.replace(/^The (selected )?/, (m) => `${m}${prefix}`));
}
