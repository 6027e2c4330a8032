// /checks/{checkId}/attachments: files sent with a check's email (multipart uploads, this scope only).

import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../../errors.ts';
import * as attachmentService from '../../../services/attachment.service.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { principalOf } from '../../plugins/auth.ts';
import type { AttachmentMeta } from '../../../domain/delivery.ts';
import {
  AttachmentResponse,
  CheckAttachmentParams,
  CreateAttachmentResponse,
  ListAttachmentsResponse,
} from '../../../schemas/attachments.ts';
import { errorResponses, IdParam, Message, pathId } from '../../../schemas/common.ts';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

const attachmentWire = (a: AttachmentMeta) => ({
  attachmentId: a.id,
  filename: a.filename,
  contentType: a.contentType,
  size: a.size,
  createdAt: iso(a.createdAt) ?? '',
});

const BEYOND_SPEC = 'Beyond the spec: what the hosted service does (docs/api-notes.md).';

export const checkAttachmentRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  await app.register(multipart, {
    limits: { fileSize: attachmentService.MAX_ATTACHMENT_BYTES, files: 1, fields: 5, parts: 6 },
  });

  app.post(
    '/checks/:checkId/attachments',
    {
      schema: {
        summary: 'Add a file (PDF, PNG or JPEG; multipart field "file") to send with the check',
        tags: ['delivery'],
        params: IdParam('checkId'),
        consumes: ['multipart/form-data'],
        response: {
          201: CreateAttachmentResponse,
          ...errorResponses(404, 413),
        },
      },
      // The whole file is read before the handler: the handler then runs in the idempotency
      // transaction (which must not wait on a slow upload), and the file counts in the request hash.
      preHandler: async (request) => {
        if (!request.isMultipart())
          throw new AppError('bad_request', 'Send the file as multipart/form-data in a field named "file".');
        try {
          const file = await request.file();
          if (file === undefined) throw new AppError('validation', 'The file field is required.');
          request.body = { filename: file.filename, data: await file.toBuffer() };
        } catch (error) {
          // The multipart parser throws plain errors for a malformed body ("Unexpected end of
          // form"): that is the client's 400, not our 500. Its own limit errors carry their 4xx.
          const status = (error as { statusCode?: unknown }).statusCode;
          if (error instanceof AppError || (typeof status === 'number' && status < 500)) throw error;
          throw new AppError(
            'bad_request',
            'The multipart body could not be parsed: send the file in a field named "file".',
          );
        }
      },
    },
    async (request, reply) => {
      const upload = request.body as { filename: string; data: Buffer };
      const meta = await attachmentService.addAttachment(
        ctx,
        principalOf(request),
        pathId(request.params, 'checkId'),
        upload,
      );
      reply.code(201);
      return {
        success: true as const,
        message: 'Attachment added successfully.',
        data: {
          attachmentId: meta.id,
          filename: meta.filename,
          contentType: meta.contentType,
          size: meta.size,
          createdAt: iso(meta.createdAt) ?? '',
        },
      };
    },
  );

  // The same list under the check and under its mailing (the hosted service's path for it).
  for (const [url, hosted] of [
    ['/checks/:checkId/attachments', false],
    ['/mailchecks/:checkId/attachments', true],
  ] as const) {
    app.get(
      url,
      {
        schema: {
          summary: hosted ? 'The attachments of a check, under its mailing' : "A check's attachments",
          ...(hosted ? { description: `${BEYOND_SPEC} The same list as GET /checks/{checkId}/attachments.` } : {}),
          tags: [hosted ? 'mailing' : 'delivery'],
          params: IdParam('checkId'),
          response: {
            200: ListAttachmentsResponse,
            ...errorResponses(404),
          },
        },
      },
      async (request) => {
        const list = await attachmentService.listAttachments(
          ctx,
          principalOf(request),
          pathId(request.params, 'checkId'),
        );
        return { success: true as const, data: { attachments: list.map(attachmentWire) } };
      },
    );
  }

  app.get(
    '/checks/:checkId/attachments/:attachmentId',
    {
      schema: {
        summary: "One of a check's attachments (its record)",
        description: BEYOND_SPEC,
        tags: ['delivery'],
        params: CheckAttachmentParams,
        response: { 200: AttachmentResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const attachment = await attachmentService.getAttachment(
        ctx,
        principalOf(request),
        pathId(request.params, 'checkId'),
        pathId(request.params, 'attachmentId'),
      );
      return { success: true as const, data: attachmentWire(attachment) };
    },
  );

  app.delete(
    '/checks/:checkId/attachments/:attachmentId',
    {
      schema: {
        summary: 'Remove an attachment',
        tags: ['delivery'],
        params: CheckAttachmentParams,
        response: { 200: Message, ...errorResponses(404) },
      },
    },
    async (request) => {
      await attachmentService.removeAttachment(
        ctx,
        principalOf(request),
        pathId(request.params, 'checkId'),
        pathId(request.params, 'attachmentId'),
      );
      return { success: true as const, message: 'Attachment removed successfully.' };
    },
  );
};
