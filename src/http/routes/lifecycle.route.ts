// A check's life after creation: void, edit and delete while new, and mailing through the
// print-and-mail queue (docs/lifecycle.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ServiceContext } from '../../services/context.ts';
import * as lifecycle from '../../services/lifecycle.service.ts';
import * as mailingService from '../../services/mailing.service.ts';
import type { Mailing } from '../../store/mailings.repository.ts';
import { principalOf } from '../plugins/auth.ts';
import { checkWire } from '../presenters.ts';
import { CheckEditBody, CheckRead } from '../schemas/checks.ts';
import { errorResponses, Flag, IdParam, IntegerValue, integerValue, MAX_BATCH, Message, NullableInteger, NullableString, pathId } from '../schemas/common.ts';
import { flag } from '../../services/check.service.ts';

const CheckMessageResponse = Type.Object({ success: Type.Literal(true), message: Type.String(), data: CheckRead });

const MailingRead = Type.Object({
  mailingId: Type.String(),
  checkId: Type.String(),
  shippingTypeId: Type.Integer(),
  paperTypeId: Type.Integer(),
  customToAddressId: NullableString(),
  status: Type.String({ description: 'queued, dispatched or cancelled' }),
  informTypeId: NullableInteger(),
  enableSmsInform: Type.Boolean(),
  enableEmailInform: Type.Boolean(),
  payeeEmail: NullableString({ description: 'Where the payee is told by email (enableEmailInform), or null.' }),
  payeePhone: NullableString({ description: 'Where the payee is told by SMS (enableSmsInform), E.164, or null.' }),
  isShippingToCustomAddress: Type.Boolean(),
  customFromAddressId: NullableString(),
  customShippingTypeId: NullableInteger(),
});

const mailingWire = (m: Mailing) => ({
  mailingId: m.id,
  checkId: m.checkId,
  shippingTypeId: m.shippingTypeId,
  paperTypeId: m.paperTypeId,
  customToAddressId: m.toAddressId,
  status: m.status,
  informTypeId: m.informTypeId,
  enableSmsInform: m.enableSmsInform,
  enableEmailInform: m.enableEmailInform,
  payeeEmail: m.payeeEmail,
  payeePhone: m.payeePhone,
  isShippingToCustomAddress: m.shippingToCustomAddress,
  customFromAddressId: m.fromAddressId,
  customShippingTypeId: m.customShippingTypeId,
});

const OptionalId = Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()], { 'x-message': 'must be a string or null' }));

/** The hosted service's POST /mailchecks body, field for field (docs/api-notes.md). */
const MailChecksBody = Type.Object(
  {
    mailChecks: Type.Array(
      Type.Object(
        {
          checkId: Type.String({ minLength: 1, maxLength: 64 }),
          shippingTypeId: IntegerValue({ description: 'One of GET /mailchecks/mailingOptions shippingTypes (1, 3, 4, 5, 12, 20).' }),
          paperTypeId: Type.Optional(IntegerValue({ description: '7 regular (default), 8 hologram, 9 ultra hologram.' })),
          informTypeId: Type.Optional(IntegerValue({ description: '10: notify the payee by SMS (as enableSmsInform).' })),
          enableSmsInform: Flag,
          enableEmailInform: Flag,
          payeeEmail: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: "Required with enableEmailInform when the payee has no email on record." })),
          payeePhone: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'Required with enableSmsInform when the payee has no phone on record.' })),
          customToAddressId: OptionalId,
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_BATCH },
    ),
    isShippingToCustomAddress: Flag,
    customToAddressId: OptionalId,
    customFromAddressId: OptionalId,
    customShippingTypeId: Type.Optional(IntegerValue()),
  },
  { additionalProperties: false },
);

export const lifecycleRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/checks/:checkId/void',
    { schema: { summary: 'Void a check (final)', tags: ['checks'], params: IdParam('checkId'), response: { 200: CheckMessageResponse, ...errorResponses(404) } } },
    async (request) => {
      const principal = principalOf(request);
      const check = await lifecycle.voidCheck(ctx, principal, pathId(request.params, 'checkId'));
      return { success: true as const, message: 'Check voided successfully.', data: checkWire(check, principal.timeZone) };
    },
  );

  app.put(
    '/checks/:checkId',
    {
      schema: {
        summary: 'Edit a check while it is still new (the fields given change)',
        tags: ['checks'],
        params: IdParam('checkId'),
        body: CheckEditBody,
        response: { 200: CheckMessageResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const check = await lifecycle.editCheck(ctx, principal, pathId(request.params, 'checkId'), request.body);
      return { success: true as const, message: 'Check updated successfully.', data: checkWire(check, principal.timeZone) };
    },
  );

  app.delete(
    '/checks/:checkId',
    { schema: { summary: 'Delete a check that is still new', tags: ['checks'], params: IdParam('checkId'), response: { 200: Message, ...errorResponses(404) } } },
    async (request) => {
      await lifecycle.deleteCheck(ctx, principalOf(request), pathId(request.params, 'checkId'));
      return { success: true as const, message: 'Check deleted successfully.' };
    },
  );

  app.get(
    '/mailchecks/mailingOptions',
    {
      schema: {
        summary: 'Shipping and paper types for POST /mailchecks',
        tags: ['mailing'],
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            data: Type.Object({
              shippingTypes: Type.Array(Type.Object({ shippingTypeId: Type.Integer(), name: Type.String(), deliveryDays: Type.String() })),
              paperTypes: Type.Array(Type.Object({ paperTypeId: Type.Integer(), name: Type.String() })),
              informTypes: Type.Array(Type.Object({ informTypeId: Type.Integer(), name: Type.String() })),
            }),
          }),
          ...errorResponses(),
        },
      },
    },
    async () => ({ success: true as const, data: { shippingTypes: [...mailingService.SHIPPING_TYPES], paperTypes: [...mailingService.PAPER_TYPES], informTypes: [...mailingService.INFORM_TYPES] } }),
  );

  app.post(
    '/mailchecks',
    {
      schema: {
        summary: 'Mail checks through the print-and-mail queue (all or nothing)',
        tags: ['mailing'],
        body: MailChecksBody,
        response: { 200: Type.Object({ success: Type.Literal(true), message: Type.String(), data: Type.Object({ mailings: Type.Array(MailingRead) }) }), ...errorResponses() },
      },
    },
    async (request) => {
      const body = request.body;
      const items = body.mailChecks.map((item) => ({
        ...item,
        shippingTypeId: integerValue(item.shippingTypeId),
        paperTypeId: item.paperTypeId === undefined ? undefined : integerValue(item.paperTypeId),
        informTypeId: item.informTypeId === undefined ? undefined : integerValue(item.informTypeId),
        enableSmsInform: flag(item.enableSmsInform),
        enableEmailInform: flag(item.enableEmailInform),
      }));
      const created = await mailingService.mailChecks(ctx, principalOf(request), items, {
        isShippingToCustomAddress: flag(body.isShippingToCustomAddress),
        customToAddressId: body.customToAddressId ?? null,
        customFromAddressId: body.customFromAddressId ?? null,
        customShippingTypeId: body.customShippingTypeId === undefined ? null : integerValue(body.customShippingTypeId),
      });
      return { success: true as const, message: 'Checks queued for mailing.', data: { mailings: created.map(mailingWire) } };
    },
  );

  app.post(
    '/mailchecks/:mailingId/cancel',
    {
      schema: {
        summary: 'Cancel a mailing before dispatch; the check becomes refunded',
        tags: ['mailing'],
        params: IdParam('mailingId'),
        response: { 200: Type.Object({ success: Type.Literal(true), message: Type.String(), data: MailingRead }), ...errorResponses(404) },
      },
    },
    async (request) => {
      const mailing = await mailingService.cancelMailing(ctx, principalOf(request), pathId(request.params, 'mailingId'));
      return { success: true as const, message: 'Mailing cancelled; the check is refunded.', data: mailingWire(mailing) };
    },
  );
};
