// /sandbox/messages: the inbox where test keys' emails and SMS land instead of being sent.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../services/context.ts';
import * as deliveryService from '../../services/delivery.service.ts';
import { principalOf } from '../plugins/auth.ts';
import { metaWire } from '../presenters.ts';
import { errorResponses, ListQuery, pageOf } from '../../schemas/common.ts';
import { ListSandboxMessagesResponse } from '../../schemas/sandbox.ts';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export const sandboxRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/sandbox/messages',
    {
      schema: {
        summary: 'Emails and SMS that test keys sent (nothing leaves the machine in the test environment)',
        tags: ['delivery'],
        querystring: ListQuery,
        response: {
          200: ListSandboxMessagesResponse,
          ...errorResponses(403),
        },
      },
    },
    async (request) => {
      const { perPage, page, limit, offset } = pageOf(request.query);
      const result = await deliveryService.sandboxMessages(ctx, principalOf(request), limit, offset);
      return {
        success: true as const,
        data: {
          meta: metaWire(result.total, page, perPage),
          messages: result.items.map((m) => ({
            messageId: m.id,
            deliveryId: m.deliveryId,
            checkId: m.checkId,
            channel: m.channel,
            to: m.recipient,
            subject: m.subject,
            text: m.text,
            html: m.html,
            link: m.link,
            attachments: m.attachments,
            createdAt: iso(m.createdAt) ?? '',
          })),
        },
      };
    },
  );
};
