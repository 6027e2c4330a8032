// /customToAddresses: where mailed checks go when not to the payee.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as addressService from '../../services/address.service.ts';
import type { ServiceContext } from '../../services/context.ts';
import { principalOf } from '../plugins/auth.ts';
import { metaWire, toAddressListWire } from '../presenters.ts';
import { CreateAddressesBody, CreateToAddressesResponse, ListToAddressesResponse } from '../../schemas/addresses.ts';
import { errorResponses, ListQuery, pageOf } from '../../schemas/common.ts';

const CREATED = 'Addresses created successfully.';

export const customToAddressRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  const toTags = ['custom to addresses'];

  app.post(
    '/customToAddresses',
    {
      schema: {
        summary: "Create custom 'to' addresses",
        tags: toTags,
        body: CreateAddressesBody,
        response: { 201: CreateToAddressesResponse, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const created = await addressService.createAddresses(ctx, principalOf(request), 'to', request.body.addresses);
      reply.code(201);
      return { success: true as const, message: CREATED, data: { addresses: created.map(toAddressListWire) } };
    },
  );

  app.get(
    '/customToAddresses',
    {
      schema: {
        summary: "List custom 'to' addresses",
        tags: toTags,
        querystring: ListQuery,
        response: { 200: ListToAddressesResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const { perPage, page, limit, offset } = pageOf(request.query);
      const result = await addressService.listAddresses(ctx, principalOf(request), 'to', {
        limit,
        offset,
        term: request.query.term ?? null,
      });
      return {
        success: true as const,
        data: { meta: metaWire(result.total, page, perPage), addresses: result.items.map(toAddressListWire) },
      };
    },
  );
};
