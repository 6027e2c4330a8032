// /mailchecks: mailing checks through the print-and-mail queue, its options, and cancelling (docs/lifecycle.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { flag } from '../../services/checks/write.service.ts';
import type { ServiceContext } from '../../services/context.ts';
import * as mailingService from '../../services/mailing.service.ts';
import type { Mailing } from '../../domain/mailing.ts';
import { principalOf } from '../plugins/auth.ts';
import { errorResponses, IdParam, integerValue, pathId } from '../../schemas/common.ts';
import {
  MailChecksBody,
  MailChecksResponse,
  MailingOptionsResponse,
  MailingResponse,
} from '../../schemas/mail-checks.ts';

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

export const mailCheckRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/mailchecks/mailingOptions',
    {
      schema: {
        summary: 'Shipping and paper types for POST /mailchecks',
        tags: ['mailing'],
        response: {
          200: MailingOptionsResponse,
          ...errorResponses(),
        },
      },
    },
    async () => ({
      success: true as const,
      data: {
        shippingTypes: [...mailingService.SHIPPING_TYPES],
        paperTypes: [...mailingService.PAPER_TYPES],
        informTypes: [...mailingService.INFORM_TYPES],
      },
    }),
  );

  app.post(
    '/mailchecks',
    {
      schema: {
        summary: 'Mail checks through the print-and-mail queue (all or nothing)',
        tags: ['mailing'],
        body: MailChecksBody,
        response: {
          200: MailChecksResponse,
          ...errorResponses(),
        },
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
      return {
        success: true as const,
        message: 'Checks queued for mailing.',
        data: { mailings: created.map(mailingWire) },
      };
    },
  );

  app.post(
    '/mailchecks/:mailingId/cancel',
    {
      schema: {
        summary: 'Cancel a mailing before dispatch; the check becomes refunded',
        tags: ['mailing'],
        params: IdParam('mailingId'),
        response: {
          200: MailingResponse,
          ...errorResponses(404),
        },
      },
    },
    async (request) => {
      const mailing = await mailingService.cancelMailing(
        ctx,
        principalOf(request),
        pathId(request.params, 'mailingId'),
      );
      return {
        success: true as const,
        message: 'Mailing cancelled; the check is refunded.',
        data: mailingWire(mailing),
      };
    },
  );
};
