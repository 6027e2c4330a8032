import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../services/context.ts';
import * as emailCheckService from '../../services/email-check.service.ts';
import { principalOf } from '../plugins/auth.ts';
import { errorResponses, Message } from '../../schemas/common.ts';
import { EmailChecksBody } from '../../schemas/email-checks.ts';

export const emailCheckRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/emailchecks',
    {
      // The 403 for an unverified account answers before the body is even validated
      // (API decisions: "before any item is looked at").
      preValidation: async (request) => emailCheckService.assertMayEmail(ctx, principalOf(request)),
      schema: {
        summary: 'Email one or more checks to their payees, optionally with an SMS (all or nothing)',
        description:
          'Each check moves to emailed (3) and its messages are queued durably in the same transaction; the response does not wait for delivery. Delivery is asynchronous: the delivery worker sends the queued messages, usually within a few seconds, so the sandbox inbox (test keys) shows them only once sent. GET /checks/{checkId}/deliveries shows each message as queued, sent or failed.',
        tags: ['checks'],
        body: EmailChecksBody,
        response: { 200: Message, ...errorResponses(403) },
      },
    },
    async (request) => {
      const items = request.body.emailChecks;
      await emailCheckService.emailChecks(ctx, principalOf(request), items);
      return {
        success: true as const,
        message: items.length === 1 ? 'Check emailed successfully.' : `${items.length} checks emailed successfully.`,
      };
    },
  );
};
