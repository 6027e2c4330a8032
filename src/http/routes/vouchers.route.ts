// /vouchers: vouchers on their own (the hosted service's; docs/api-notes.md), named by a
// check's voucherId when it is written. A check's own voucher stays at /checks/{id}/voucher.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../services/context.ts';
import * as voucherService from '../../services/checks/voucher.service.ts';
import { principalOf } from '../plugins/auth.ts';
import { voucherWire } from '../presenters.ts';
import { errorResponses, IdParam, Message, pathId } from '../../schemas/common.ts';
import { CreateVoucherResponse, StandaloneVoucherBody, VoucherResponse } from '../../schemas/vouchers.ts';

const BEYOND_SPEC = 'Beyond the spec: what the hosted service does (docs/api-notes.md).';
const Params = IdParam('voucherId');

export const voucherRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/vouchers',
    {
      schema: {
        summary: 'Create a voucher (remittance lines) for a check to name by voucherId',
        description: BEYOND_SPEC,
        tags: ['vouchers'],
        body: StandaloneVoucherBody,
        response: { 201: CreateVoucherResponse, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const voucher = await voucherService.createVoucher(ctx, principalOf(request), request.body);
      reply.code(201);
      return { success: true as const, message: 'Voucher created successfully.', data: voucherWire(voucher) };
    },
  );

  app.get(
    '/vouchers/:voucherId',
    {
      schema: {
        summary: 'Fetch a voucher',
        description: BEYOND_SPEC,
        tags: ['vouchers'],
        params: Params,
        response: { 200: VoucherResponse, ...errorResponses(404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: voucherWire(
        await voucherService.getVoucher(ctx, principalOf(request), pathId(request.params, 'voucherId')),
      ),
    }),
  );

  app.delete(
    '/vouchers/:voucherId',
    {
      schema: {
        summary: 'Delete a voucher no check names (409 while one does)',
        description: BEYOND_SPEC,
        tags: ['vouchers'],
        params: Params,
        response: { 200: Message, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      await voucherService.deleteVoucher(ctx, principalOf(request), pathId(request.params, 'voucherId'));
      return { success: true as const, message: 'Voucher deleted successfully.' };
    },
  );
};
