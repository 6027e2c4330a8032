// Checks on paper (our extension of the spec): /checks/{checkId}/pdf and /checks/print.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../../services/context.ts';
import * as printService from '../../../services/checks/print.service.ts';
import { rules } from '../../../services/validation.ts';
import { principalOf } from '../../plugins/auth.ts';
import { PrintChecksBody } from '../../../schemas/checks.ts';
import { errorResponses, IdParam, pathId } from '../../../schemas/common.ts';

const Pdf = {
  description: 'A US letter PDF: the check on top, two stubs below.',
  content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
};

const PrintedPdf = {
  description:
    'A US letter PDF of the checks in the order given, in the layout asked for (by default the check on top, two stubs below, one check a page).',
  content: Pdf.content,
};

export const checkPdfRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
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
      const { pdf, serialNumber } = await printService.checkPdf(
        ctx,
        principalOf(request),
        pathId(request.params, 'checkId'),
      );
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="check-${serialNumber}.pdf"`)
        .send(pdf);
    },
  );

  app.post(
    '/checks/print',
    {
      schema: {
        summary:
          'Print several checks as one PDF on the stock and layout asked for; each moves to printed (a printed check is reprinted: same number, a reprinted statement). All or nothing',
        tags: ['printing'],
        body: PrintChecksBody,
        response: { 200: PrintedPdf, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const { checkIds, checkId, stock, paperType, layout = 'top' } = request.body;
      const ids = checkIds ?? checkId;
      if (ids === undefined) throw rules.required('checkIds');
      if (checkIds !== undefined && checkId !== undefined && checkIds.join('\n') !== checkId.join('\n'))
        throw rules.custom('checkId', 'must be the same as checkIds when both are given');
      if (stock !== undefined && paperType !== undefined && stock !== paperType)
        throw rules.custom('paperType', 'must be the same as stock when both are given');
      const pdf = await printService.printChecks(ctx, principalOf(request), ids, {
        stock: stock ?? paperType ?? 'blank',
        layout,
      });
      reply.type('application/pdf').header('content-disposition', 'inline; filename="checks.pdf"');
      return pdf;
    },
  );
};
