// /bankAccounts/{bankAccountId}/micr-test.pdf: a page to print and measure the MICR line's place (docs/printing.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../../services/context.ts';
import * as printService from '../../../services/checks/print.service.ts';
import { principalOf } from '../../plugins/auth.ts';
import { errorResponses, IdParam, pathId } from '../../../schemas/common.ts';

const TestPagePdf = {
  description: 'A US letter PDF to print on plain paper and measure (docs/printing.md).',
  content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
};

export const micrTestPageRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/bankAccounts/:bankAccountId/micr-test.pdf',
    {
      schema: {
        summary:
          "The MICR test page: character set, this account's MICR line, rulers and alignment marks, to set the printer offsets (changes nothing)",
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
};
