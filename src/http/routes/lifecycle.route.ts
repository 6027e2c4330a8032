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
import { errorResponses, IdParam, MAX_BATCH, Message, pathId, NullableString } from '../schemas/common.ts';

const CheckMessageResponse = Type.Object({ success: Type.Literal(true), message: Type.String(), data: CheckRead });

const MailingRead = Type.Object({
  mailingId: Type.String(),
  checkId: Type.String(),
  shippingTypeId: Type.Integer(),
  paperTypeId: Type.Integer(),
  customToAddressId: NullableString(),
  status: Type.String({ description: 'queued, dispatched or cancelled' }),
});

const mailingWire = (m: Mailing) => ({ mailingId: m.id, checkId: m.checkId, shippingTypeId: m.shippingTypeId, paperTypeId: m.paperTypeId, customToAddressId: m.toAddressId, status: m.status });

const MailChecksBody = Type.Object(
  {
    mailChecks: Type.Array(
      Type.Object(
        {
          checkId: Type.String({ minLength: 1, maxLength: 64 }),
          shippingTypeId: Type.Integer(),
          paperTypeId: Type.Optional(Type.Integer()),
          customToAddressId: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()], { 'x-message': 'must be a string or null' })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_BATCH },
    ),
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
            }),
          }),
          ...errorResponses(),
        },
      },
    },
    async () => ({ success: true as const, data: { shippingTypes: [...mailingService.SHIPPING_TYPES], paperTypes: [...mailingService.PAPER_TYPES] } }),
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
      const created = await mailingService.mailChecks(ctx, principalOf(request), request.body.mailChecks);
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
