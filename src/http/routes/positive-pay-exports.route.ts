// Positive pay exports (docs/positive-pay.md). Producing one is a POST (it is recorded); the reads
// change nothing. The file comes back inline with the record: it is not stored, and a later
// re-creation could differ (a check dated in the range may be printed after the export).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../services/context.ts';
import * as positivePay from '../../services/positive-pay.service.ts';
import { principalOf } from '../plugins/auth.ts';
import { metaWire } from '../presenters.ts';
import { errorResponses, IdParam, ListQuery, pageOf, pathId } from '../../schemas/common.ts';
import {
  CreatePositivePayExportBody,
  CreatePositivePayExportResponse,
  ListPositivePayExportsResponse,
  PositivePayExportResponse,
} from '../../schemas/positive-pay.ts';

export function positivePayExportWire(e: positivePay.PositivePayExport) {
  return {
    positivePayExportId: e.id,
    bankAccountId: e.bankAccountId,
    from: e.from,
    to: e.to,
    format: e.format,
    checkCount: e.issuedCount + e.voidCount,
    issuedCount: e.issuedCount,
    issuedTotalCents: e.issuedTotalCents,
    voidCount: e.voidCount,
    voidTotalCents: e.voidTotalCents,
    fileSha256: e.fileSha256,
    fileBytes: e.fileBytes,
    createdBy: { via: e.createdVia, id: e.createdBy },
    createdAt: new Date(e.createdAt).toISOString(),
  };
}

export const positivePayExportRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/positive-pay-exports',
    {
      schema: {
        summary: 'Export a positive pay file',
        description:
          'Lists the issued and voided checks of one bank account in a date range as a positive pay file, records the export, and answers the record with the file inline.',
        tags: ['positive pay'],
        body: CreatePositivePayExportBody,
        response: { 201: CreatePositivePayExportResponse, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { record, file } = await positivePay.createExport(
        ctx,
        principal,
        principal.timeZone,
        { via: 'api', id: principal.keyId },
        request.body,
      );
      reply.code(201);
      return {
        success: true as const,
        message: 'Positive pay file created.',
        data: { positivePayExport: positivePayExportWire(record), file },
      };
    },
  );

  app.get(
    '/positive-pay-exports',
    {
      schema: {
        summary: 'List positive pay exports',
        tags: ['positive pay'],
        querystring: ListQuery,
        response: { 200: ListPositivePayExportsResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const { perPage, page, limit, offset } = pageOf(request.query);
      const result = await positivePay.listExports(ctx, principalOf(request), {
        limit,
        offset,
        term: request.query.term ?? null,
      });
      return {
        success: true as const,
        data: {
          meta: metaWire(result.total, page, perPage),
          positivePayExports: result.items.map(positivePayExportWire),
        },
      };
    },
  );

  app.get(
    '/positive-pay-exports/:positivePayExportId',
    {
      schema: {
        summary: 'Get a positive pay export',
        tags: ['positive pay'],
        params: IdParam('positivePayExportId'),
        response: { 200: PositivePayExportResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const found = await positivePay.getExport(
        ctx,
        principalOf(request),
        pathId(request.params, 'positivePayExportId'),
      );
      return { success: true as const, data: positivePayExportWire(found) };
    },
  );
};
