import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as addressService from '../../services/address.service.ts';
import type { ServiceContext } from '../../services/context.ts';
import { principalOf } from '../plugins/auth.ts';
import { categoryWire, metaWire } from '../presenters.ts';
import { CreateCategoriesBody, CreateCategoriesResponse, ListCategoriesResponse } from '../../schemas/categories.ts';
import { errorResponses, ListQuery, pageOf } from '../../schemas/common.ts';

export const categoryRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/categories',
    {
      schema: {
        summary: 'Create categories',
        tags: ['categories'],
        body: CreateCategoriesBody,
        response: { 201: CreateCategoriesResponse, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if ('categories' in body) {
        const created = await addressService.createCategories(ctx, principalOf(request), body.categories);
        reply.code(201);
        return {
          success: true as const,
          message: 'Categories created successfully.',
          data: { categories: created.map(categoryWire) },
        };
      }
      // One category unwrapped: answered unwrapped, as the clients that send it read it.
      const [created] = await addressService.createCategories(ctx, principalOf(request), [body]);
      if (created === undefined) throw new Error('a category create returned nothing');
      reply.code(201);
      return { success: true as const, message: 'Category created successfully.', data: categoryWire(created) };
    },
  );

  app.get(
    '/categories',
    {
      schema: {
        summary: 'List categories',
        tags: ['categories'],
        querystring: ListQuery,
        response: { 200: ListCategoriesResponse, ...errorResponses() },
      },
    },
    async (request) => {
      const { perPage, page, limit, offset } = pageOf(request.query);
      const result = await addressService.listCategories(ctx, principalOf(request), {
        limit,
        offset,
        term: request.query.term ?? null,
      });
      return {
        success: true as const,
        data: { meta: metaWire(result.total, page, perPage), categories: result.items.map(categoryWire) },
      };
    },
  );
};
