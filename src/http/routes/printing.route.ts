// Checks on paper (our extension of the spec): a check's PDF, printing several at once, and the
// signature image printed on a bank account's checks.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MAX_SIGNATURE_BYTES, setSignature } from '../../services/bank-account.service.ts';
import type { ServiceContext } from '../../services/context.ts';
import * as printService from '../../services/print.service.ts';
import { principalOf } from '../plugins/auth.ts';
import { bankAccountWire } from '../presenters.ts';
import { errorResponses, IdParam, MAX_BATCH, pathId } from '../schemas/common.ts';
import { BankAccountResponse } from '../schemas/resources.ts';

const Pdf = { description: 'A US letter PDF: the check on top, two stubs below.', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } };
const TestPagePdf = { description: 'A US letter PDF to print on plain paper and measure (docs/printing.md).', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } };

export const PrintChecksBody = Type.Object(
  { checkIds: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: MAX_BATCH }) },
  { additionalProperties: false },
);

export const printingRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/checks/:checkId/pdf',
    {
      schema: {
        summary: 'The check as a printable PDF (its status does not change)',
        tags: ['printing'],
        params: IdParam('checkId'),
        response: { 200: Pdf, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { pdf, serialNumber } = await printService.checkPdf(ctx, principalOf(request), pathId(request.params, 'checkId'));
      return reply.type('application/pdf').header('content-disposition', `inline; filename="check-${serialNumber}.pdf"`).send(pdf);
    },
  );

  app.post(
    '/checks/print',
    {
      schema: {
        summary: 'Print several checks: one PDF, one check a page; each moves to printed (all or nothing)',
        tags: ['printing'],
        body: PrintChecksBody,
        response: { 200: Pdf, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const pdf = await printService.printChecks(ctx, principalOf(request), request.body.checkIds);
      reply.type('application/pdf').header('content-disposition', 'inline; filename="checks.pdf"');
      return pdf;
    },
  );

  app.get(
    '/bankAccounts/:bankAccountId/micr-test.pdf',
    {
      schema: {
        summary: 'The MICR test page: character set, this account\'s MICR line, rulers and alignment marks, to set the printer offsets (changes nothing)',
        tags: ['printing', 'bank accounts'],
        params: IdParam('bankAccountId'),
        response: { 200: TestPagePdf, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const pdf = await printService.micrTestPage(ctx, principalOf(request), pathId(request.params, 'bankAccountId'));
      return reply.type('application/pdf').header('content-disposition', 'inline; filename="micr-test.pdf"').send(pdf);
    },
  );

  // Signature images arrive as raw image bytes (Content-Type image/png or image/jpeg).
  app.addContentTypeParser(['image/png', 'image/jpeg'], { parseAs: 'buffer', bodyLimit: MAX_SIGNATURE_BYTES }, (_request, body, done) => done(null, body));

  app.put(
    '/bankAccounts/:bankAccountId/signature',
    {
      schema: {
        summary: "Upload the signature image printed on this bank account's checks (PNG or JPEG body)",
        tags: ['bank accounts'],
        params: IdParam('bankAccountId'),
        consumes: ['image/png', 'image/jpeg'],
        response: { 200: BankAccountResponse, ...errorResponses(404, 413) },
      },
    },
    async (request) => {
      const body = request.body;
      const image = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
      const account = await setSignature(ctx, principalOf(request), pathId(request.params, 'bankAccountId'), image);
      return { success: true as const, data: bankAccountWire(account) };
    },
  );

  app.delete(
    '/bankAccounts/:bankAccountId/signature',
    {
      schema: { summary: 'Remove the signature image', tags: ['bank accounts'], params: IdParam('bankAccountId'), response: { 200: BankAccountResponse, ...errorResponses(404) } },
    },
    async (request) => {
      const account = await setSignature(ctx, principalOf(request), pathId(request.params, 'bankAccountId'), null);
      return { success: true as const, data: bankAccountWire(account) };
    },
  );
};
