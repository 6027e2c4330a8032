// Printing from the panel: the checks list's print form (the ticked checks, one PDF) and a check's
// Print/Reprint form. Both call the same service as POST /checks/print, so a check printed here is
// printed for the API too (status, statement, webhook event). The answer is the PDF itself, as an
// attachment; the page the form was on stays where it was.
import { needs } from '../shell/access.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import type { Check } from '../../domain/check.ts';
import { type CheckStock, isCheckStock, isPageLayout, type PageLayout } from '../../render/print-layout.ts';
import * as printService from '../../services/checks/print.service.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { checksListPage } from './checks.pages.ts';
import { field, fields } from '../shell/form.ts';
import { withEnv } from '../shell/layout.ts';
import { MAX_PRINT } from './print-forms.ts';
import { envOf, principalFor } from '../shell/session.ts';

/** The paper and layout the form chose; anything else (only a hand-made request sends it) is refused. */
function chosenOptions(body: unknown): { stock: CheckStock; layout: PageLayout } | undefined {
  const stock = field(body, 'stock');
  const layout = field(body, 'layout');
  return isCheckStock(stock) && isPageLayout(layout) ? { stock, layout } : undefined;
}

/**
 * The service words its refusals for the API ("The checkIds.2 field names a check that …"); the
 * panel names the check by its number instead.
 */
function forPeople(message: string, checks: readonly Check[]): string {
  const number = (index: string): string => checks[Number(index)]?.serialNumber ?? '?';
  return message
    .replace(/^The checkIds\.(\d+) field names a check /, (_, i: string) => `Check ${number(i)} is a check `)
    .replace(/^The check in checkIds\.(\d+) /, (_, i: string) => `Check ${number(i)} `);
}

function sendPdf(reply: FastifyReply, pdf: Buffer, filename: string): FastifyReply {
  // A download, not a page: the pages' script policy is not for it.
  reply.removeHeader('content-security-policy');
  return reply.type('application/pdf').header('content-disposition', `attachment; filename="${filename}"`).send(pdf);
}

export async function printPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  app.post('/print', needs('checks.print'), async (request, reply) => {
    const env = envOf(request);
    const principal = principalFor(request, env);
    const ids = fields(request.body, 'checkIds');
    const chosen = chosenOptions(request.body);
    const refuse = (problem: string): Promise<FastifyReply> =>
      checksListPage(ctx, request, reply, {
        problem,
        selected: new Set(ids.length > MAX_PRINT ? [] : ids),
        ...(chosen === undefined ? {} : { chosen }),
      });
    if (ids.length === 0) return refuse('Tick at least one check to print.');
    if (ids.length > MAX_PRINT)
      return refuse(`You ticked ${ids.length} checks: one print holds at most ${MAX_PRINT}. Print them in parts.`);
    if (new Set(ids).size !== ids.length) return refuse('A check was ticked twice. Reload the page and try again.');
    if (chosen === undefined) return refuse('Choose the paper and the layout from the lists.');
    // Another account's or environment's id is a 404, as everywhere in the panel.
    const checks = await printService.checksToPrint(ctx, principal, ids);
    let pdf: Buffer;
    try {
      pdf = await printService.printChecks(ctx, principal, ids, { ...chosen, inCheckNumberOrder: true });
    } catch (error) {
      if (error instanceof AppError && error.code === 'validation') return refuse(forPeople(error.message, checks));
      throw error;
    }
    return sendPdf(reply, pdf, checks.length === 1 ? `check-${checks[0]?.serialNumber ?? ''}.pdf` : 'checks.pdf');
  });

  app.post('/:id/print', needs('checks.print'), async (request, reply) => {
    const env = envOf(request);
    const principal = principalFor(request, env);
    const { id } = request.params as { id: string };
    const [check] = await printService.checksToPrint(ctx, principal, [id]);
    const chosen = chosenOptions(request.body);
    if (check === undefined) throw new AppError('not_found', 'Check not found.');
    if (chosen === undefined) throw new AppError('validation', 'Choose the paper and the layout from the lists.');
    try {
      const pdf = await printService.printChecks(ctx, principal, [id], chosen);
      return sendPdf(reply, pdf, `check-${check.serialNumber}.pdf`);
    } catch (error) {
      if (error instanceof AppError && error.code === 'validation')
        throw new AppError('validation', forPeople(error.message, [check]));
      throw error;
    }
  });

  // The forms post to these addresses; opening them (the test/live switch of a refused print's
  // page, a reload) shows the page the form was on.
  const back = (request: FastifyRequest, path: string): string => withEnv(path, envOf(request));
  app.get('/print', needs('read'), async (request, reply) => reply.redirect(back(request, '/panel/checks'), 303));
  app.get('/:id/print', needs('read'), async (request, reply) =>
    reply.redirect(back(request, `/panel/checks/${encodeURIComponent((request.params as { id: string }).id)}`), 303),
  );
}
