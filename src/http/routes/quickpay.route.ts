// /quickpay/*: the hosted service's one-call payments (docs/api-notes.md, "Quickpay").
// check and mailcheck write a check (and queue it for mailing); the other rails are refused with a
// 422 naming those two, never a bare 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../services/context.ts';
import * as quickpayService from '../../services/quickpay.service.ts';
import { principalOf } from '../plugins/auth.ts';
import { createdCheckWire } from '../presenters.ts';
import { errorResponses, integerValue } from '../../schemas/common.ts';
import {
  QuickpayCheckBody,
  QuickpayMailCheckBody,
  QuickpayResponse,
  SHIPPING_METHODS,
} from '../../schemas/quickpay.ts';
import { validationError } from '../../errors.ts';

const BEYOND_SPEC = 'Beyond the spec: what the hosted service does (docs/api-notes.md, "Quickpay").';

/** The answer, with the check's id where each client of the hosted service looks for it. */
function quickpayWire(result: quickpayService.QuickpayResult, message: string) {
  const check = createdCheckWire(result.check);
  return {
    success: true as const,
    message,
    data: {
      ...check,
      paymentId: check.checkId,
      payeeCreated: result.payeeCreated,
      checks: [check],
      ...(result.mailing === null
        ? {}
        : { mailingId: result.mailing.id, shippingTypeId: result.mailing.shippingTypeId }),
    },
  };
}

/** destination.shippingTypeId, or the hosted `shipping.method` name, or First Class (1). */
function shippingTypeOf(body: {
  destination: { shippingTypeId?: number | string };
  shipping?: { method: string };
}): number {
  const byId = body.destination.shippingTypeId === undefined ? null : integerValue(body.destination.shippingTypeId);
  const byMethod = body.shipping === undefined ? null : (SHIPPING_METHODS[body.shipping.method] ?? null);
  if (byId !== null && byMethod !== null && byId !== byMethod)
    throw validationError(
      'The shipping.method field does not name the same shipping type as destination.shippingTypeId.',
    );
  return byId ?? byMethod ?? 1;
}

export const quickpayRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/quickpay/check',
    {
      schema: {
        summary: 'Pay by check in one call: the payee found or created, the check written (all or nothing)',
        description: BEYOND_SPEC,
        tags: ['quickpay'],
        body: QuickpayCheckBody,
        response: { 201: QuickpayResponse, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const result = await quickpayService.quickpay(ctx, principalOf(request), request.body, null);
      reply.code(201);
      return quickpayWire(result, 'Check created successfully.');
    },
  );

  app.post(
    '/quickpay/mailcheck',
    {
      schema: {
        summary:
          'Pay by mailed check in one call: the payee found or created, the check written and queued for mailing',
        description: BEYOND_SPEC,
        tags: ['quickpay'],
        body: QuickpayMailCheckBody,
        response: { 201: QuickpayResponse, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const shippingTypeId = shippingTypeOf(request.body);
      const result = await quickpayService.quickpay(ctx, principalOf(request), request.body, { shippingTypeId });
      reply.code(201);
      return quickpayWire(result, 'Check created and queued for mailing.');
    },
  );

  for (const rail of quickpayService.OTHER_RAILS) {
    app.post(
      `/quickpay/${rail}`,
      {
        schema: {
          summary: `Not offered: this service issues checks (use /quickpay/check or /quickpay/mailcheck)`,
          description: `${BEYOND_SPEC} Always a 422 naming the two quickpay endpoints that work.`,
          tags: ['quickpay'],
          response: errorResponses(),
        },
      },
      async () => {
        throw quickpayService.otherRailRefused(rail);
      },
    );
  }
};
