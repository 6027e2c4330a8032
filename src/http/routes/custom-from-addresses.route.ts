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
import { errorResponses, IdParam, ListQuery, Message, pageOf, pathId } from '../../schemas/common.ts';

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
      const body = request.body;
      reply.code(201);
      if ('addresses' in body) {
        const created = await addressService.createAddresses(ctx, principalOf(request), 'from', body.addresses);
        return { success: true as const, message: CREATED, data: { addresses: created.map(fromAddressListWire) } };
      }
      // One address unwrapped: answered unwrapped, as the client that sends it reads it.
      const [created] = await addressService.createAddresses(ctx, principalOf(request), 'from', [body]);
      if (created === undefined) throw new Error('an address create returned nothing');
      return { success: true as const, message: 'Address created successfully.', data: fromAddressListWire(created) };
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

  app.delete(
    '/customFromAddresses/:customFromAddressId',
    {
      schema: {
        summary: "Delete a custom 'from' address nothing uses (409 while a bank account or a mailing names it)",
        description: 'Beyond the spec: what the hosted service does (docs/api-notes.md).',
        tags: fromTags,
        params: IdParam('customFromAddressId'),
        response: { 200: Message, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      await addressService.deleteUnusedAddress(
        ctx,
        principalOf(request),
        'from',
        pathId(request.params, 'customFromAddressId'),
      );
      return { success: true as const, message: 'Address deleted successfully.' };
    },
  );
};
