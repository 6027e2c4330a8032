// /checks/{checkId}/deliveries: a check's emails, SMS and their state (queued, sent, failed).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../../services/context.ts';
import * as deliveryService from '../../../services/delivery.service.ts';
import { principalOf } from '../../plugins/auth.ts';
import { errorResponses, IdParam, pathId } from '../../../schemas/common.ts';
import { ListDeliveriesResponse } from '../../../schemas/deliveries.ts';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export const checkDeliveriesRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/checks/:checkId/deliveries',
    {
      schema: {
        summary: "A check's email and SMS deliveries and their state",
        tags: ['delivery'],
        params: IdParam('checkId'),
        response: {
          200: ListDeliveriesResponse,
          ...errorResponses(404),
        },
      },
    },
    async (request) => {
      const list = await deliveryService.checkDeliveries(ctx, principalOf(request), pathId(request.params, 'checkId'));
      return {
        success: true as const,
        data: {
          deliveries: list.map((d) => ({
            deliveryId: d.id,
            channel: d.channel,
            recipient: d.recipient,
            status: d.status,
            attempts: d.attempts,
            lastError: d.lastError,
            createdAt: iso(d.createdAt) ?? '',
            sentAt: iso(d.sentAt),
          })),
        },
      };
    },
  );
};
