// /customToAddresses: where mailed checks go when not to the payee.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as addressService from '../../services/address.service.ts';
import type { ServiceContext } from '../../services/context.ts';
import { principalOf } from '../plugins/auth.ts';
import { metaWire, toAddressListWire } from '../presenters.ts';
import {
  CreateAddressesBody,
  CreateToAddressesResponse,
  ListToAddressesResponse,
  ToAddressResponse,
} from '../../schemas/addresses.ts';
import { errorResponses, IdParam, ListQuery, Message, pageOf, pathId } from '../../schemas/common.ts';

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
      const body = request.body;
      reply.code(201);
      if ('addresses' in body) {
        const created = await addressService.createAddresses(ctx, principalOf(request), 'to', body.addresses);
        return { success: true as const, message: CREATED, data: { addresses: created.map(toAddressListWire) } };
      }
      // One address unwrapped: answered unwrapped, as the client that sends it reads it.
      const [created] = await addressService.createAddresses(ctx, principalOf(request), 'to', [body]);
      if (created === undefined) throw new Error('an address create returned nothing');
      return { success: true as const, message: 'Address created successfully.', data: toAddressListWire(created) };
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

  app.get(
    '/customToAddresses/:customToAddressId',
    {
      schema: {
        summary: "Fetch one custom 'to' address",
        description: 'Beyond the spec: what the hosted service does (docs/api-notes.md).',
        tags: toTags,
        params: IdParam('customToAddressId'),
        response: { 200: ToAddressResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const address = await addressService.getAddress(
        ctx,
        principalOf(request),
        'to',
        pathId(request.params, 'customToAddressId'),
      );
      return { success: true as const, data: toAddressListWire(address) };
    },
  );

  app.delete(
    '/customToAddresses/:customToAddressId',
    {
      schema: {
        summary: "Delete a custom 'to' address nothing uses (409 while a mailing names it)",
        description: 'Beyond the spec: what the hosted service does (docs/api-notes.md).',
        tags: toTags,
        params: IdParam('customToAddressId'),
        response: { 200: Message, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      await addressService.deleteUnusedAddress(
        ctx,
        principalOf(request),
        'to',
        pathId(request.params, 'customToAddressId'),
      );
      return { success: true as const, message: 'Address deleted successfully.' };
    },
  );
};
