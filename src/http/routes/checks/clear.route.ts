// /checks/{checkId}/clear and /unclear: the bank paid the check (a cleared date and a statement,
// not a status), or that was marked by mistake (docs/reconciliation.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as clearing from '../../../services/checks/clearing.service.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { checkWire } from '../../presenters.ts';
import { ClearCheckBody, ClearCheckResponse } from '../../../schemas/check-register.ts';
import { errorResponses, IdParam, pathId } from '../../../schemas/common.ts';

export const checkClearRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  // `/mark-as-cleared` is the hosted service's name for the same action (a connector's docs
  // name it; docs/api-notes.md): one handler, two paths.
  for (const [url, hosted] of [
    ['/checks/:checkId/clear', false],
    ['/checks/:checkId/mark-as-cleared', true],
  ] as const) {
    app.post(
      url,
      {
        schema: {
          summary: hosted
            ? 'Another name of POST /checks/{checkId}/clear (what the hosted service calls it)'
            : 'Mark an issued check cleared: the bank paid it (addition to the spec)',
          description: `${hosted ? 'Beyond the spec: what the hosted service does (docs/api-notes.md). ' : ''}Printed, mailed, emailed and e-printed checks may clear; new, void and refunded ones may not (422), nor a check that already cleared (422). The status code does not change: \`clearedDate\` and a \`cleared\` statement record it, and \`check.cleared\` is sent to webhooks.`,
          tags: ['reconciliation'],
          params: IdParam('checkId'),
          body: ClearCheckBody,
          response: { 200: ClearCheckResponse, ...errorResponses(404) },
        },
        // The body is optional: without one the check cleared today.
        preValidation: async (request) => {
          if (request.body === undefined || request.body === null) request.body = {};
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const check = await clearing.clearCheck(
          ctx,
          principal,
          pathId(request.params, 'checkId'),
          request.body.clearedDate ?? undefined,
        );
        return {
          success: true as const,
          message: 'Check cleared successfully.',
          data: checkWire(check, principal.timeZone),
        };
      },
    );
  }

  app.post(
    '/checks/:checkId/unclear',
    {
      schema: {
        summary: 'Take back a clearing marked by mistake (addition to the spec)',
        description:
          'The cleared date goes back to null, an `uncleared` statement is added (the `cleared` one stays in the history) and `check.uncleared` is sent to webhooks. 422 when the check has not cleared.',
        tags: ['reconciliation'],
        params: IdParam('checkId'),
        response: { 200: ClearCheckResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const check = await clearing.unclearCheck(ctx, principal, pathId(request.params, 'checkId'));
      return {
        success: true as const,
        message: 'Check un-cleared successfully.',
        data: checkWire(check, principal.timeZone),
      };
    },
  );
};
