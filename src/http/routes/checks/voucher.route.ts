// /checks/{checkId}/voucher: the voucher (remittance lines) printed with a check.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../../services/context.ts';
import * as voucherService from '../../../services/checks/voucher.service.ts';
import { principalOf } from '../../plugins/auth.ts';
import { voucherWire } from '../../presenters.ts';
import { errorResponses, IdParam, pathId } from '../../../schemas/common.ts';
import { CreateVoucherResponse, VoucherBody, VoucherResponse } from '../../../schemas/vouchers.ts';

export const checkVoucherRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/checks/:checkId/voucher',
    {
      schema: {
        summary: "Attach an advanced stub (voucher) to a check, replacing the check's earlier one",
        tags: ['checks'],
        params: IdParam('checkId'),
        body: VoucherBody,
        response: { 201: CreateVoucherResponse, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const voucher = await voucherService.attachVoucher(
        ctx,
        principalOf(request),
        pathId(request.params, 'checkId'),
        request.body,
      );
      reply.code(201);
      return { success: true as const, message: 'Voucher created successfully.', data: voucherWire(voucher) };
    },
  );

  app.get(
    '/checks/:checkId/voucher',
    {
      schema: {
        summary: "Fetch a check's voucher",
        tags: ['checks'],
        params: IdParam('checkId'),
        response: { 200: VoucherResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const voucher = await voucherService.getCheckVoucher(
        ctx,
        principalOf(request),
        pathId(request.params, 'checkId'),
      );
      return { success: true as const, data: voucherWire(voucher) };
    },
  );
};
