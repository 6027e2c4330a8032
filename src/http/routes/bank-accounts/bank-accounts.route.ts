// /bankAccounts and /bankAccounts/{bankAccountId}: create, list, read, update, delete.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as bankAccountService from '../../../services/bank-account.service.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { bankAccountWire, metaWire } from '../../presenters.ts';
import {
  BankAccountResponse,
  CreateBankAccountsBody,
  CreateBankAccountsResponse,
  ListBankAccountsResponse,
  UpdateBankAccountBody,
} from '../../../schemas/bank-accounts.ts';
import { errorResponses, IdParam, ListQuery, Message, pageOf, pathId } from '../../../schemas/common.ts';

const Params = IdParam('bankAccountId');

const idOf = (params: unknown): string => pathId(params, 'bankAccountId');

export const bankAccountRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/bankAccounts',
    {
      schema: {
        summary: 'Create bank accounts',
        tags: ['bank accounts'],
        body: CreateBankAccountsBody,
        response: { 201: CreateBankAccountsResponse, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const created = await bankAccountService.createBankAccounts(ctx, principalOf(request), request.body.bankAccounts);
      reply.code(201);
      return {
        success: true as const,
        message: 'Bank accounts created successfully.',
        data: { bankAccounts: created.map(bankAccountWire) },
      };
    },
  );

  app.get(
    '/bankAccounts',
    {
      schema: {
        summary: 'List bank accounts',
        tags: ['bank accounts'],
        querystring: ListQuery,
        response: { 200: ListBankAccountsResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const { perPage, page, limit, offset } = pageOf(request.query);
      const result = await bankAccountService.listBankAccounts(ctx, principalOf(request), {
        limit,
        offset,
        term: request.query.term ?? null,
      });
      return {
        success: true as const,
        data: { meta: metaWire(result.total, page, perPage), bankAccounts: result.items.map(bankAccountWire) },
      };
    },
  );

  app.get(
    '/bankAccounts/:bankAccountId',
    {
      schema: {
        summary: 'Fetch one bank account',
        tags: ['bank accounts'],
        params: Params,
        response: { 200: BankAccountResponse, ...errorResponses(404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: bankAccountWire(await bankAccountService.getBankAccount(ctx, principalOf(request), idOf(request.params))),
    }),
  );

  app.put(
    '/bankAccounts/:bankAccountId',
    {
      schema: {
        summary: 'Update a bank account',
        tags: ['bank accounts'],
        params: Params,
        body: UpdateBankAccountBody,
        response: { 200: BankAccountResponse, ...errorResponses(404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: bankAccountWire(
        await bankAccountService.updateBankAccount(ctx, principalOf(request), idOf(request.params), request.body),
      ),
    }),
  );

  app.delete(
    '/bankAccounts/:bankAccountId',
    {
      schema: {
        summary: 'Delete a bank account (its checks stay readable)',
        tags: ['bank accounts'],
        params: Params,
        response: { 200: Message, ...errorResponses(404) },
      },
    },
    async (request) => {
      await bankAccountService.deleteBankAccount(ctx, principalOf(request), idOf(request.params));
      return { success: true as const, message: 'Bank account deleted successfully.' };
    },
  );
};
