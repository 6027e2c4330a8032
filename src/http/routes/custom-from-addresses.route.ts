// /customFromAddresses: return addresses printed on checks and envelopes.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as addressService from '../../services/address.service.ts';
import type { ServiceContext } from '../../services/context.ts';
import { principalOf } from '../plugins/auth.ts';
import { customFromAddressWire, fromAddressListWire, metaWire } from '../presenters.ts';
import {
  CreateAddressesBody,
  CreateFromAddressesResponse,
  CustomFromAddressResponse,
  ListFromAddressesResponse,
} from '../../schemas/addresses.ts';
import { errorResponses, IdParam, ListQuery, pageOf, pathId } from '../../schemas/common.ts';

const CREATED = 'Addresses created successfully.';

export const customFromAddressRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  const fromTags = ['custom from addresses'];

  app.post(
    '/customFromAddresses',
    {
      schema: {
        summary: "Create custom 'from' addresses",
        tags: fromTags,
        body: CreateAddressesBody,
        response: { 201: CreateFromAddressesResponse, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const created = await addressService.createAddresses(ctx, principalOf(request), 'from', request.body.addresses);
      reply.code(201);
      return { success: true as const, message: CREATED, data: { addresses: created.map(fromAddressListWire) } };
    },
  );

  app.get(
    '/customFromAddresses',
    {
      schema: {
        summary: "List custom 'from' addresses",
        tags: fromTags,
        querystring: ListQuery,
        response: { 200: ListFromAddressesResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const { perPage, page, limit, offset } = pageOf(request.query);
      const result = await addressService.listAddresses(ctx, principalOf(request), 'from', {
        limit,
        offset,
        term: request.query.term ?? null,
      });
      return {
        success: true as const,
        data: { meta: metaWire(result.total, page, perPage), addresses: result.items.map(fromAddressListWire) },
      };
    },
  );

  app.get(
    '/customFromAddresses/:customFromAddressId',
    {
      schema: {
        summary: "Fetch one custom 'from' address",
        tags: fromTags,
        params: IdParam('customFromAddressId'),
        response: { 200: CustomFromAddressResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const address = await addressService.getAddress(
        ctx,
        principalOf(request),
        'from',
        pathId(request.params, 'customFromAddressId'),
      );
      return { success: true as const, data: customFromAddressWire(address) };
    },
  );
};
