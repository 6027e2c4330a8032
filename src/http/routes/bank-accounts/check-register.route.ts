// /bankAccounts/{bankAccountId}/register and /clearedItems: the check register with its
// outstanding figures, and the bank's cleared-items file matched against it (docs/reconciliation.md).
// The file arrives as the body itself (CSV, OFX or BAI2 text), parsed in this scope only.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MAX_CLEARED_ITEMS_BYTES } from '../../../domain/cleared-items.ts';
import { AppError } from '../../../errors.ts';
import * as clearing from '../../../services/checks/clearing.service.ts';
import type { ServiceContext } from '../../../services/context.ts';
import * as checkRegisterService from '../../../services/check-register.service.ts';
import { principalOf } from '../../plugins/auth.ts';
import { metaWire, outstandingWire, reconciliationWire, registerRowWire } from '../../presenters.ts';
import {
  CLEARED_ITEMS_CONTENT_TYPES,
  ClearedItemsBody,
  ClearedItemsQuery,
  ClearedItemsResponse,
  CheckRegisterQuery,
  CheckRegisterResponse,
} from '../../../schemas/check-register.ts';
import { errorResponses, IdParam, pageOf, pathId } from '../../../schemas/common.ts';

const FILE_ONLY =
  "Send the bank's file as the request body with Content-Type text/csv, text/plain, application/x-ofx or application/vnd.intu.qfx.";

export const checkRegisterRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addContentTypeParser(
    CLEARED_ITEMS_CONTENT_TYPES,
    { parseAs: 'string', bodyLimit: MAX_CLEARED_ITEMS_BYTES },
    (_request, body, done) => done(null, String(body)),
  );

  app.get(
    '/bankAccounts/:bankAccountId/register',
    {
      schema: {
        summary: "A bank account's check register with running outstanding totals (addition to the spec)",
        description:
          'Checks of the bank account in register order (issue date, then creation), every status, with `runningOutstanding`: the total of outstanding checks (printed, mailed, emailed or e-printed, not cleared) through each row. `outstanding` counts and adds up all of them.',
        tags: ['reconciliation'],
        params: IdParam('bankAccountId'),
        querystring: CheckRegisterQuery,
        response: { 200: CheckRegisterResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { page, perPage, limit, offset } = pageOf(request.query);
      const view = await checkRegisterService.checkRegisterOf(
        ctx,
        principalOf(request),
        pathId(request.params, 'bankAccountId'),
        {
          limit,
          offset,
        },
      );
      return {
        success: true as const,
        data: {
          meta: metaWire(view.total, page, perPage),
          bankAccount: { bankAccountId: view.bankAccount.id, name: view.bankAccount.name },
          outstanding: outstandingWire(view.outstanding),
          checks: view.rows.map(registerRowWire),
        },
      };
    },
  );

  app.post(
    '/bankAccounts/:bankAccountId/clearedItems',
    {
      schema: {
        summary:
          "Reconcile the bank's file (CSV, OFX/QFX or BAI2): matched checks clear, mismatches are listed (addition to the spec)",
        description:
          "Rows are matched on check number AND amount. Matched checks are cleared with the row's date, all in one transaction; mismatched rows (unknown number, amount differs, void, never issued, already cleared, listed twice) change nothing. Only money out clears a check: credits carrying a number are listed in `credits`. A file that cannot be read is a 422 and clears nothing. At most 1 MiB and 10,000 rows.",
        tags: ['reconciliation'],
        params: IdParam('bankAccountId'),
        querystring: ClearedItemsQuery,
        consumes: CLEARED_ITEMS_CONTENT_TYPES,
        body: ClearedItemsBody,
        response: { 200: ClearedItemsResponse, ...errorResponses(404, 413) },
      },
      preValidation: async (request) => {
        if (typeof request.body !== 'string') throw new AppError('bad_request', FILE_ONLY);
        if (request.body.trim() === '') throw new AppError('validation', 'The cleared-items file is empty.');
      },
    },
    async (request) => {
      const result = await clearing.reconcile(
        ctx,
        principalOf(request),
        pathId(request.params, 'bankAccountId'),
        request.body,
        request.query.clearedDate,
      );
      const wire = reconciliationWire(result);
      return {
        success: true as const,
        message: `${wire.cleared.count} ${wire.cleared.count === 1 ? 'check' : 'checks'} cleared; ${wire.mismatchedCount} ${wire.mismatchedCount === 1 ? 'row does' : 'rows do'} not match.`,
        data: wire,
      };
    },
  );
};
