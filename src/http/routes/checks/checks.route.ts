// /checks and /checks/{checkId}: create, list, read, edit and delete while new, void.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { statusCode } from '../../../domain/check-status.ts';
import * as checkList from '../../../services/checks/list.service.ts';
import * as checkService from '../../../services/checks/write.service.ts';
import { readCheck } from '../../../services/checks/read.service.ts';
import type { ServiceContext } from '../../../services/context.ts';
import * as lifecycle from '../../../services/checks/lifecycle.service.ts';
import { mailingsOfChecks } from '../../../services/mailing.service.ts';
import { answerNotModified } from '../../etag.ts';
import { principalOf } from '../../plugins/auth.ts';
import { checkWire, checkWithApprovalWire, createdCheckWire, metaWire } from '../../presenters.ts';
import * as approvals from '../../../services/approvals/approvals.service.ts';
import { NOT_REQUIRED } from '../../../domain/approvals/policy.ts';
import {
  CheckEditBody,
  CheckMessageResponse,
  CheckResponse,
  CreateChecksBody,
  CreateChecksResponse,
  ListChecksQuery,
  ListChecksResponse,
} from '../../../schemas/checks.ts';
import { errorResponses, IdParam, Message, pageOf, pathId } from '../../../schemas/common.ts';

export const checkRoutes: FastifyPluginAsyncTypebox<{ ctx: ServiceContext }> = async (app, { ctx }) => {
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
        message:
          created.length === 1 ? 'Check created successfully.' : `${created.length} checks created successfully.`,
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
      config: { startsHeavyWork: false },
    },
    async (request) => {
      const principal = principalOf(request);
      const { perPage, page } = pageOf(request.query);
      const { status, term, referenceId, approval } = request.query;
      const result =
        approval === undefined || approval === ''
          ? await checkList.listChecks(ctx, principal, {
              perPage,
              page,
              term: term === undefined || term === '' ? null : term,
              status: status === undefined || status === '' ? null : statusCode(status),
              referenceId: referenceId === undefined || referenceId === '' ? null : referenceId,
            })
          : await approvals.listByApproval(ctx, principal, approval, perPage, page);
      const held = await approvals.approvalsFor(
        ctx.db,
        principal,
        result.checks.map((c) => c.id),
      );
      const mailings = await mailingsOfChecks(ctx, principal, result.checks);
      return {
        success: true as const,
        data: {
          meta: metaWire(result.total, page, perPage),
          checks: result.checks.map((c) =>
            checkWithApprovalWire(c, principal.timeZone, held.get(c.id) ?? NOT_REQUIRED, mailings.get(c.id)),
          ),
        },
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
      // An ETag on every 200; If-None-Match with it answers 304 (http/etag.ts).
      onSend: answerNotModified,
      // A read: no heavy work, so no client signal and no async hooks on its path (app.ts).
      config: { startsHeavyWork: false },
    },
    async (request) => {
      const principal = principalOf(request);
      const read = await readCheck(ctx, principal, pathId(request.params, 'checkId'));
      return {
        success: true as const,
        data: checkWithApprovalWire(read.check, principal.timeZone, read.approval, read.mailing),
      };
    },
  );

  app.post(
    '/checks/:checkId/void',
    {
      schema: {
        summary: 'Void a check (final)',
        tags: ['checks'],
        params: IdParam('checkId'),
        response: { 200: CheckMessageResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const check = await lifecycle.voidCheck(ctx, principal, pathId(request.params, 'checkId'));
      const mailings = await mailingsOfChecks(ctx, principal, [check]);
      return {
        success: true as const,
        message: 'Check voided successfully.',
        data: checkWire(check, principal.timeZone, mailings.get(check.id)),
      };
    },
  );

  app.put(
    '/checks/:checkId',
    {
      schema: {
        summary: 'Edit a check while it is still new (the fields given change)',
        tags: ['checks'],
        params: IdParam('checkId'),
        body: CheckEditBody,
        response: { 200: CheckMessageResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const check = await lifecycle.editCheck(ctx, principal, pathId(request.params, 'checkId'), request.body);
      return {
        success: true as const,
        message: 'Check updated successfully.',
        data: checkWire(check, principal.timeZone),
      };
    },
  );

  app.delete(
    '/checks/:checkId',
    {
      schema: {
        summary: 'Delete a check that is still new',
        tags: ['checks'],
        params: IdParam('checkId'),
        response: { 200: Message, ...errorResponses(404) },
      },
    },
    async (request) => {
      await lifecycle.deleteCheck(ctx, principalOf(request), pathId(request.params, 'checkId'));
      return { success: true as const, message: 'Check deleted successfully.' };
    },
  );
};
