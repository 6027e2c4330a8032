// Delivery over the API: a check's deliveries (queued, sent, failed), its attachments, and the
// sandbox inbox where test keys' messages land.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import * as attachmentService from '../../services/attachment.service.ts';
import type { ServiceContext } from '../../services/context.ts';
import * as deliveryService from '../../services/delivery.service.ts';
import { principalOf } from '../plugins/auth.ts';
import { metaWire } from '../presenters.ts';
import { errorResponses, IdParam, Meta, pageOf, pathId, NullableString } from '../schemas/common.ts';
import { ListQuery } from '../schemas/resources.ts';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

const DeliveryRead = Type.Object({
  deliveryId: Type.String(),
  channel: Type.String(),
  recipient: Type.String(),
  status: Type.String({ description: 'queued, sending, sent or failed' }),
  attempts: Type.Integer(),
  lastError: NullableString(),
  createdAt: Type.String(),
  sentAt: NullableString(),
});

const AttachmentRead = Type.Object({ attachmentId: Type.String(), filename: Type.String(), contentType: Type.String(), size: Type.Integer(), createdAt: Type.String() });

const SandboxMessageRead = Type.Object({
  messageId: Type.String(),
  deliveryId: Type.String(),
  checkId: NullableString(),
  channel: Type.String(),
  to: Type.String(),
  subject: Type.String(),
  text: Type.String(),
  html: Type.String(),
  link: Type.String(),
  attachments: Type.Array(Type.String()),
  createdAt: Type.String(),
});

const CheckAttachmentParams = Type.Object({ checkId: Type.String({ minLength: 1, maxLength: 200 }), attachmentId: Type.String({ minLength: 1, maxLength: 200 }) });

export const deliveriesRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  await app.register(multipart, { limits: { fileSize: attachmentService.MAX_ATTACHMENT_BYTES, files: 1, fields: 5, parts: 6 } });

  app.get(
    '/checks/:checkId/deliveries',
    {
      schema: {
        summary: "A check's email and SMS deliveries and their state",
        tags: ['delivery'],
        params: IdParam('checkId'),
        response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Object({ deliveries: Type.Array(DeliveryRead) }) }), ...errorResponses(404) },
      },
    },
    async (request) => {
      const list = await deliveryService.checkDeliveries(ctx, principalOf(request), pathId(request.params, 'checkId'));
      return {
        success: true as const,
        data: {
          deliveries: list.map((d) => ({ deliveryId: d.id, channel: d.channel, recipient: d.recipient, status: d.status, attempts: d.attempts, lastError: d.lastError, createdAt: iso(d.createdAt) ?? '', sentAt: iso(d.sentAt) })),
        },
      };
    },
  );

  app.post(
    '/checks/:checkId/attachments',
    {
      schema: {
        summary: 'Add a file (PDF, PNG or JPEG; multipart field "file") to send with the check',
        tags: ['delivery'],
        params: IdParam('checkId'),
        consumes: ['multipart/form-data'],
        response: { 201: Type.Object({ success: Type.Literal(true), message: Type.String(), data: AttachmentRead }), ...errorResponses(404, 413) },
      },
      // The whole file is read before the handler: the handler then runs in the idempotency
      // transaction (which must not wait on a slow upload), and the file counts in the request hash.
      preHandler: async (request) => {
        if (!request.isMultipart()) throw new AppError('bad_request', 'Send the file as multipart/form-data in a field named "file".');
        try {
          const file = await request.file();
          if (file === undefined) throw new AppError('validation', 'The file field is required.');
          request.body = { filename: file.filename, data: await file.toBuffer() };
        } catch (error) {
          // The multipart parser throws plain errors for a malformed body ("Unexpected end of
          // form"): that is the client's 400, not our 500. Its own limit errors carry their 4xx.
          const status = (error as { statusCode?: unknown }).statusCode;
          if (error instanceof AppError || (typeof status === 'number' && status < 500)) throw error;
          throw new AppError('bad_request', 'The multipart body could not be parsed: send the file in a field named "file".');
        }
      },
    },
    async (request, reply) => {
      const upload = request.body as { filename: string; data: Buffer };
      const meta = await attachmentService.addAttachment(ctx, principalOf(request), pathId(request.params, 'checkId'), upload);
      reply.code(201);
      return {
        success: true as const,
        message: 'Attachment added successfully.',
        data: { attachmentId: meta.id, filename: meta.filename, contentType: meta.contentType, size: meta.size, createdAt: iso(meta.createdAt) ?? '' },
      };
    },
  );

  app.get(
    '/checks/:checkId/attachments',
    {
      schema: {
        summary: "A check's attachments",
        tags: ['delivery'],
        params: IdParam('checkId'),
        response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Object({ attachments: Type.Array(AttachmentRead) }) }), ...errorResponses(404) },
      },
    },
    async (request) => {
      const list = await attachmentService.listAttachments(ctx, principalOf(request), pathId(request.params, 'checkId'));
      return { success: true as const, data: { attachments: list.map((a) => ({ attachmentId: a.id, filename: a.filename, contentType: a.contentType, size: a.size, createdAt: iso(a.createdAt) ?? '' })) } };
    },
  );

  app.delete(
    '/checks/:checkId/attachments/:attachmentId',
    {
      schema: {
        summary: 'Remove an attachment',
        tags: ['delivery'],
        params: CheckAttachmentParams,
        response: { 200: Type.Object({ success: Type.Literal(true), message: Type.String() }), ...errorResponses(404) },
      },
    },
    async (request) => {
      await attachmentService.removeAttachment(ctx, principalOf(request), pathId(request.params, 'checkId'), pathId(request.params, 'attachmentId'));
      return { success: true as const, message: 'Attachment removed successfully.' };
    },
  );

  app.get(
    '/sandbox/messages',
    {
      schema: {
        summary: 'Emails and SMS that test keys sent (nothing leaves the machine in the test environment)',
        tags: ['delivery'],
        querystring: ListQuery,
        response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Object({ meta: Meta, messages: Type.Array(SandboxMessageRead) }) }), ...errorResponses(403) },
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
