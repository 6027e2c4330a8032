// /bankAccounts/{bankAccountId}/signature: the signature image printed on a bank account's checks.
// PNG and JPEG bodies are parsed in this scope only.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MAX_SIGNATURE_BYTES, setSignature } from '../../../services/bank-account.service.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { bankAccountWire } from '../../presenters.ts';
import { BankAccountResponse } from '../../../schemas/bank-accounts.ts';
import { errorResponses, IdParam, pathId } from '../../../schemas/common.ts';

export const signatureRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  // Signature images arrive as raw image bytes (Content-Type image/png or image/jpeg).
  app.addContentTypeParser(
    ['image/png', 'image/jpeg'],
    { parseAs: 'buffer', bodyLimit: MAX_SIGNATURE_BYTES },
    (_request, body, done) => done(null, body),
  );

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
      schema: {
        summary: 'Remove the signature image',
        tags: ['bank accounts'],
        params: IdParam('bankAccountId'),
        response: { 200: BankAccountResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const account = await setSignature(ctx, principalOf(request), pathId(request.params, 'bankAccountId'), null);
      return { success: true as const, data: bankAccountWire(account) };
    },
  );
};
