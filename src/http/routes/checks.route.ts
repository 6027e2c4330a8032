import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { statusCode } from '../../domain/check-status.ts';
import * as checkService from '../../services/check.service.ts';
import type { ServiceContext } from '../../services/context.ts';
import * as voucherService from '../../services/voucher.service.ts';
import { principalOf } from '../plugins/auth.ts';
import { checkWire, createdCheckWire, metaWire, voucherWire } from '../presenters.ts';
import { CheckResponse, CreateChecksBody, CreateChecksResponse, ListChecksQuery, ListChecksResponse } from '../schemas/checks.ts';
import { errorResponses, IdParam, pageOf, pathId } from '../schemas/common.ts';
import { CreateVoucherResponse, VoucherBody, VoucherResponse } from '../schemas/resources.ts';

export const checksRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/checks',
    {
      schema: {
        summary: 'Create one or more checks (all or nothing)',
        tags: ['checks'],
        body: CreateChecksBody,
        response: { 201: CreateChecksResponse, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const created = await checkService.createChecks(ctx, principalOf(request), request.body.checks);
      reply.code(201);
      return {
        success: true as const,
        message: created.length === 1 ? 'Check created successfully.' : `${created.length} checks created successfully.`,
        data: { checks: created.map(createdCheckWire) },
      };
    },
  );

  app.get(
    '/checks',
    {
      schema: {
        summary: 'List checks, newest first',
        tags: ['checks'],
        querystring: ListChecksQuery,
        response: { 200: ListChecksResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { perPage, page } = pageOf(request.query);
      const { status, term, referenceId } = request.query;
      const result = await checkService.listChecks(ctx, principal, {
        perPage,
        page,
        term: term === undefined || term === '' ? null : term,
        status: status === undefined || status === '' ? null : statusCode(status),
        referenceId: referenceId === undefined || referenceId === '' ? null : referenceId,
      });
      return {
        success: true as const,
        data: { meta: metaWire(result.total, page, perPage), checks: result.checks.map((c) => checkWire(c, principal.timeZone)) },
      };
    },
  );

  app.get(
    '/checks/:checkId',
    {
      schema: {
        summary: 'Fetch one check',
        tags: ['checks'],
        params: IdParam('checkId'),
        response: { 200: CheckResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const check = await checkService.getCheck(ctx, principal, pathId(request.params, 'checkId'));
      return { success: true as const, data: checkWire(check, principal.timeZone) };
    },
  );

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
      const voucher = await voucherService.attachVoucher(ctx, principalOf(request), pathId(request.params, 'checkId'), request.body);
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
      const voucher = await voucherService.getCheckVoucher(ctx, principalOf(request), pathId(request.params, 'checkId'));
      return { success: true as const, data: voucherWire(voucher) };
    },
  );
};

