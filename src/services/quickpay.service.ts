// Quickpay: the hosted service's one call that names a payee and pays it. Here the one
// rail is a check: the payee is found or created, the check written and, for mailcheck, queued for
// mailing, all in one transaction through the same services as POST /payees, /checks and
// /mailchecks, so every rule of those applies. How a destination finds an existing payee is in
// docs/api-notes.md ("Quickpay").
import type { Mailing } from '../domain/mailing.ts';
import type { Principal } from '../domain/owner.ts';
import type { PayeeFields } from '../domain/payee.ts';
import { AppError, duplicate } from '../errors.ts';
import { checkIdByReference } from '../store/checks/references.repository.ts';
import { transactionJoinedByCalls } from '../store/db.ts';
import * as payeeStore from '../store/payees.repository.ts';
import * as checkService from './checks/write.service.ts';
import type { ServiceContext } from './context.ts';
import * as mailingService from './mailing.service.ts';
import * as payeeService from './payee.service.ts';
import { rules } from './validation.ts';

export interface QuickpayDestination {
  name: string;
  company?: string;
  address1?: string;
  address2?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
  phone?: string;
  email?: string;
}

export interface QuickpayInput {
  source: { accountType?: string; accountId: string };
  destination: QuickpayDestination;
  payment_details: {
    amount: number | string;
    memo?: string;
    note?: string;
    issueDate?: string;
    referenceID?: string;
  };
}

export interface QuickpayResult {
  check: checkService.CreatedCheck;
  payeeCreated: boolean;
  mailing: Mailing | null;
}

/** The rails of the hosted envelope that are not checks: answered with this, naming the two that work. */
export const OTHER_RAILS = ['echeck', 'directdeposit', 'virtualcard', 'wire'] as const;

export function otherRailRefused(rail: string): AppError {
  return new AppError(
    'validation',
    `This service issues checks only: /quickpay/${rail} is not offered. Use POST /quickpay/check (a check to print) or POST /quickpay/mailcheck (a check mailed to the payee) with the same body.`,
  );
}

/** Where a rule of the underlying services names its field, the envelope's name for it. */
const ENVELOPE_NAMES: Readonly<Record<string, string>> = {
  bankAccountId: 'source.accountId',
  payeeId: 'destination.name',
  amount: 'payment_details.amount',
  memo: 'payment_details.memo',
  note: 'payment_details.note',
  issueDate: 'payment_details.issueDate',
  referenceId: 'payment_details.referenceID',
  serialNumber: 'source.accountId',
  phone: 'destination.phone',
  email: 'destination.email',
  payeePhone: 'destination.phone',
  payeeEmail: 'destination.email',
  shippingTypeId: 'destination.shippingTypeId',
  customToAddressId: 'destination.address1',
};

/** An error of POST /checks, /payees or /mailchecks, worded with the envelope's field names. */
function inEnvelopeTerms(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  const message = error.message.replace(
    /\b(?:checks(?:\.0)?|payees\.0|mailChecks\.0)\.([A-Za-z]+)/g,
    (whole, field: string) => ENVELOPE_NAMES[field] ?? whole,
  );
  return message === error.message ? error : new AppError(error.code, message, error.headers, error.extra);
}

const trimmed = (value: string | undefined): string => (value ?? '').trim();

/** The destination as a payee's fields (spaces around values are not part of them). */
function payeeFields(d: QuickpayDestination): Partial<PayeeFields> & { name: string } {
  return {
    name: d.name.trim(),
    company: trimmed(d.company),
    address1: trimmed(d.address1),
    address2: trimmed(d.address2),
    city: trimmed(d.city),
    state: trimmed(d.state),
    zip: trimmed(d.zip),
    country: trimmed(d.country),
    phone: trimmed(d.phone),
    email: trimmed(d.email),
  };
}

/**
 * POST /quickpay/check and, with `mail`, /quickpay/mailcheck. All or nothing: a refusal at any
 * step (the check's amount, the mailing's shipping type) leaves no payee, check or mailing behind.
 */
export async function quickpay(
  ctx: ServiceContext,
  principal: Principal,
  input: QuickpayInput,
  mail: { shippingTypeId: number } | null,
): Promise<QuickpayResult> {
  const destination = payeeFields(input.destination);
  if (destination.name === '') throw rules.required('destination.name');
  if (mail !== null)
    for (const field of ['address1', 'city', 'state', 'zip'] as const)
      if (destination[field] === '') throw rules.custom(`destination.${field}`, 'is required to mail a check');
  const details = input.payment_details;
  const referenceId = trimmed(details.referenceID);
  try {
    return await transactionJoinedByCalls(ctx.db, async (tx) => {
      // A retry of a payment already made: nothing is written, and the answer names the check.
      if (referenceId !== '') {
        const existing = await checkIdByReference(tx, principal, referenceId);
        if (existing !== undefined)
          throw duplicate('The payment_details.referenceID has already been taken.', 'checkId', existing);
      }
      const found = await payeeStore.findPayeeByNameAndAddress(tx, principal, {
        name: destination.name,
        company: destination.company ?? '',
        address1: destination.address1 ?? '',
        address2: destination.address2 ?? '',
        city: destination.city ?? '',
        state: destination.state ?? '',
        zip: destination.zip ?? '',
      });
      const payee = found ?? (await payeeService.createPayees(ctx, principal, [destination]))[0];
      if (payee === undefined) throw new Error('createPayees returned no payee');
      const [check] = await checkService.createChecks(ctx, principal, [
        {
          bankAccountId: input.source.accountId,
          payeeId: payee.id,
          amount: details.amount,
          ...(details.memo === undefined ? {} : { memo: details.memo }),
          ...(details.note === undefined ? {} : { note: details.note }),
          ...(details.issueDate === undefined || details.issueDate === '' ? {} : { issueDate: details.issueDate }),
          ...(referenceId === '' ? {} : { referenceId }),
        },
      ]);
      if (check === undefined) throw new Error('createChecks returned no check');
      const mailing =
        mail === null
          ? null
          : ((
              await mailingService.mailChecks(
                ctx,
                principal,
                [{ checkId: check.checkId, shippingTypeId: mail.shippingTypeId }],
                mailingService.NO_OPTIONS,
                // A check a policy holds is written all the same; its mailing waits for the approval.
                'wait',
              )
            )[0] ?? null);
      return { check, payeeCreated: found === undefined, mailing };
    });
  } catch (error) {
    throw inEnvelopeTerms(error);
  }
}
