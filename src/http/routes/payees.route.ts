import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../services/context.ts';
import * as payeeService from '../../services/payee.service.ts';
import { principalOf } from '../plugins/auth.ts';
import { metaWire, payeeWire } from '../presenters.ts';
import { errorResponses, IdParam, ListQuery, Message, pageOf, pathId } from '../../schemas/common.ts';
import {
  CreatePayeesBody,
  CreatePayeesResponse,
  ListPayeesResponse,
  PayeeIdResponse,
  PayeeResponse,
  UpdatePayeeBody,
} from '../../schemas/payees.ts';

export const payeeRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/payees',
    {
      schema: {
        summary: 'Create payees',
        tags: ['payees'],
        body: CreatePayeesBody,
        response: { 201: CreatePayeesResponse, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const payees = await payeeService.createPayees(ctx, principalOf(request), request.body.payees);
      reply.code(201);
      return {
        success: true as const,
        message: 'Payees created successfully.',
        data: { payees: payees.map(payeeWire) },
      };
    },
  );

  app.get(
    '/payees',
    {
      schema: {
        summary: 'List payees',
        tags: ['payees'],
        querystring: ListQuery,
        response: { 200: ListPayeesResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const { perPage, page, limit, offset } = pageOf(request.query);
      const result = await payeeService.listPayees(ctx, principalOf(request), {
        limit,
        offset,
        term: request.query.term ?? null,
      });
      return {
        success: true as const,
        data: { meta: metaWire(result.total, page, perPage), payees: result.items.map(payeeWire) },
      };
    },
  );

  app.get(
    '/payees/:payeeId',
    {
      schema: {
        summary: 'Fetch one payee',
        tags: ['payees'],
        params: IdParam('payeeId'),
        response: { 200: PayeeResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const payee = await payeeService.getPayee(ctx, principalOf(request), pathId(request.params, 'payeeId'));
      return { success: true as const, data: payeeWire(payee) };
    },
  );

  app.put(
    '/payees/:payeeId',
    {
      config: { validationPrefix: 'Validation error: ' },
      schema: {
        summary: 'Update a payee (the fields given change, the others stay)',
        tags: ['payees'],
        params: IdParam('payeeId'),
        body: UpdatePayeeBody,
        response: { 200: PayeeIdResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const payeeId = pathId(request.params, 'payeeId');
      await payeeService.updatePayee(ctx, principalOf(request), payeeId, request.body);
      return { success: true as const, message: 'Payee updated successfully.', data: { payeeId } };
    },
  );

  app.delete(
    '/payees/:payeeId',
    {
      schema: {
        summary: 'Delete a payee (its checks keep its name)',
        tags: ['payees'],
        params: IdParam('payeeId'),
        response: { 200: Message, ...errorResponses(404) },
      },
    },
    async (request) => {
      await payeeService.deletePayee(ctx, principalOf(request), pathId(request.params, 'payeeId'));
      return { success: true as const, message: 'Payee deleted successfully.' };
    },
  );
};
