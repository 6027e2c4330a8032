import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../services/context.ts';
import * as webhookService from '../../services/webhook.service.ts';
import type { WebhookEndpoint } from '../../domain/webhook.ts';
import { principalOf } from '../plugins/auth.ts';
import { errorResponses, IdParam, Message, pathId } from '../../schemas/common.ts';
import {
  CreateWebhookBody,
  CreateWebhookResponse,
  DeliveryParams,
  ListWebhookDeliveriesResponse,
  ListWebhooksResponse,
} from '../../schemas/webhooks.ts';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

const wire = (e: WebhookEndpoint) => ({
  webhookId: e.id,
  url: e.url,
  secret: e.secret,
  events: e.events,
  createdAt: iso(e.createdAt) ?? '',
});

export const webhookRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/webhooks',
    {
      schema: {
        summary: 'Register a webhook endpoint (all events unless `events` narrows them)',
        tags: ['webhooks'],
        body: CreateWebhookBody,
        response: {
          201: CreateWebhookResponse,
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const endpoint = await webhookService.createEndpoint(ctx, principalOf(request), request.body);
      reply.code(201);
      return { success: true as const, message: 'Webhook created successfully.', data: wire(endpoint) };
    },
  );

  app.get(
    '/webhooks',
    {
      schema: {
        summary: 'List webhook endpoints',
        tags: ['webhooks'],
        response: {
          200: ListWebhooksResponse,
          ...errorResponses(),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: { webhooks: (await webhookService.listEndpoints(ctx, principalOf(request))).map(wire) },
    }),
  );

  app.delete(
    '/webhooks/:webhookId',
    {
      schema: {
        summary: 'Delete a webhook endpoint',
        tags: ['webhooks'],
        params: IdParam('webhookId'),
        response: { 200: Message, ...errorResponses(404) },
      },
    },
    async (request) => {
      await webhookService.deleteEndpoint(ctx, principalOf(request), pathId(request.params, 'webhookId'));
      return { success: true as const, message: 'Webhook deleted successfully.' };
    },
  );

  app.get(
    '/webhooks/:webhookId/deliveries',
    {
      schema: {
        summary: "An endpoint's delivery log, newest first (last 100)",
        tags: ['webhooks'],
        params: IdParam('webhookId'),
        response: {
          200: ListWebhookDeliveriesResponse,
          ...errorResponses(404),
        },
      },
    },
    async (request) => {
      const { deliveries } = await webhookService.endpointDeliveries(
        ctx,
        principalOf(request),
        pathId(request.params, 'webhookId'),
      );
      return {
        success: true as const,
        data: {
          deliveries: deliveries.map((d) => ({
            deliveryId: d.id,
            eventId: d.eventId,
            eventType: d.eventType,
            status: d.status,
            attempts: d.attempts,
            responseStatus: d.responseStatus,
            lastError: d.lastError,
            createdAt: iso(d.createdAt) ?? '',
            sentAt: iso(d.sentAt),
          })),
        },
      };
    },
  );

  app.post(
    '/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    {
      schema: {
        summary: 'Send an event to the endpoint again',
        tags: ['webhooks'],
        params: DeliveryParams,
        response: { 200: Message, ...errorResponses(404) },
      },
    },
    async (request) => {
      await webhookService.redeliver(
        ctx,
        principalOf(request),
        pathId(request.params, 'webhookId'),
        pathId(request.params, 'deliveryId'),
      );
      return { success: true as const, message: 'Delivery queued again.' };
    },
  );
};
