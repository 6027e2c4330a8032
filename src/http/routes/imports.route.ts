// /imports: CSV imports of payees and checks (services/imports/, docs/imports.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../services/context.ts';
import type { ImportOptions } from '../../services/imports/model.ts';
import { MAX_LISTED_ROW_ERRORS, previewImport, startImport } from '../../services/imports/preview.service.ts';
import { fileTooLargeMessage, MAX_IMPORT_BYTES } from '../../formats/imports/read-import-file.ts';
import { errorsOf, getImport, resultOf } from '../../services/imports/records.service.ts';
import { importRunner } from '../../services/imports/runner.service.ts';
import type { ImportRecord } from '../../domain/import-record.ts';
import { principalOf } from '../plugins/auth.ts';
import { errorResponses, IdParam, pathId } from '../../schemas/common.ts';
import { CreateImportBody, ImportPreviewResponse, ImportResponse } from '../../schemas/imports.ts';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function importWire(record: ImportRecord) {
  return {
    importId: record.id,
    type: record.kind,
    state: record.state,
    fileName: record.fileName,
    rowsTotal: record.rowsTotal,
    rowsDone: record.rowsDone,
    errors: errorsOf(record),
    created: resultOf(record),
    createdAt: new Date(record.createdAt).toISOString(),
    startedAt: iso(record.startedAt),
    finishedAt: iso(record.finishedAt),
  };
}

/**
 * A JSON-escaped CSV can be near twice its size: the body limit leaves room for that, and the
 * file's own bound (its decoded bytes) is checked on the raw text before the body is parsed.
 */
const BODY_LIMIT = 2 * MAX_IMPORT_BYTES + 64 * 1024;
const FILE_TOO_LARGE = { maxBytes: MAX_IMPORT_BYTES, message: fileTooLargeMessage(MAX_IMPORT_BYTES) };

export const importRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/imports',
    {
      bodyLimit: BODY_LIMIT,
      config: { fileFields: ['csv'], fileTooLarge: FILE_TOO_LARGE },
      schema: {
        summary: 'Import payees or checks from a CSV file (all or nothing; dryRun previews every row’s errors)',
        tags: ['imports'],
        body: CreateImportBody,
        response: {
          200: ImportPreviewResponse,
          202: ImportResponse,
          ...errorResponses(404, 409, 413),
        },
      },
      // The runner is woken once the answer is out, so it never reads before the import is committed.
      onResponse: (_request, reply, done) => {
        if (reply.statusCode === 202) importRunner(ctx)?.wake();
        done();
      },
    },
    async (request, reply) => {
      const body = request.body;
      const options: ImportOptions = {
        kind: body.type,
        csv: body.csv,
        ...(body.fileName === undefined ? {} : { fileName: body.fileName }),
        ...(body.mapping === undefined ? {} : { mapping: body.mapping }),
        ...(body.bankAccountId === undefined ? {} : { bankAccountId: body.bankAccountId }),
        ...(body.createPayees === undefined ? {} : { createPayees: body.createPayees }),
        ...(body.dateOrder === undefined ? {} : { dateOrder: body.dateOrder }),
        ...(body.moneyOut === undefined ? {} : { moneyOut: body.moneyOut }),
      };
      const principal = principalOf(request);
      if (body.dryRun === true) {
        const preview = await previewImport(ctx, principal, options);
        return {
          success: true as const,
          data: {
            type: preview.kind,
            header: preview.header,
            mapping: preview.mapping,
            rowsTotal: preview.rowsTotal,
            // Bounded whatever the file holds; the count says how many rows have errors in all.
            errors: preview.errors.slice(0, MAX_LISTED_ROW_ERRORS),
            rowsWithErrors: preview.errors.length,
            newPayees: preview.newPayees,
            layout: preview.layout,
            headerLine: preview.headerLine,
            moneyOut: preview.moneyOut,
            leftOut: preview.leftOut.slice(0, MAX_LISTED_ROW_ERRORS),
          },
        };
      }
      // A file with errors: 422 in the spec's error body, the first rows' errors in its message.
      const record = await startImport(ctx, principal, options);
      reply.code(202).header('location', `imports/${record.id}`);
      return { success: true as const, data: importWire(record) };
    },
  );

  app.get(
    '/imports/:importId',
    {
      schema: {
        summary: 'An import: state, progress, errors and what it created',
        tags: ['imports'],
        params: IdParam('importId'),
        response: { 200: ImportResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const record = await getImport(ctx, principalOf(request), pathId(request.params, 'importId'));
      return { success: true as const, data: importWire(record) };
    },
  );
};
