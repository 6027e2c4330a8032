// The two small JSON answers the check form's script asks while the operator types: payee
// suggestions and an amount in words. Both read the signed-in account's own data in the current
// environment, and are bounded (20 payees, one amount).
import { needsForJson } from '../../shell/access.ts';
import type { FastifyInstance } from 'fastify';
import { amountInWords } from '../../../domain/amount-words.ts';
import { MAX_TERM_LENGTH } from '../../../domain/paging.ts';
import { AppError } from '../../../errors.ts';
import * as checkService from '../../../services/checks/write.service.ts';
import * as payeeService from '../../../services/payee.service.ts';
import { PAYEE_SUGGESTIONS } from './form-fields.ts';
import type { PanelDeps } from '../../shell/deps.ts';
import { queryText } from '../../shell/form.ts';
import { envOf, principalFor } from '../../shell/session.ts';

export async function checkLookupPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;

  // What the form's script asks while the operator types. Both are reads of the signed-in
  // account's own data in the current environment, and bounded (20 payees, one amount).
  app.get('/payees/search', needsForJson('read'), async (request, reply) => {
    const env = envOf(request);
    const term = queryText(request.query, 'term').trim().slice(0, MAX_TERM_LENGTH);
    const found = await payeeService.listPayees(ctx, principalFor(request, env), {
      limit: PAYEE_SUGGESTIONS,
      offset: 0,
      term: term === '' ? null : term,
    });
    return reply.type('application/json; charset=utf-8').send({
      payees: found.items.map((p) => ({ payeeId: p.id, name: p.name, company: p.company, email: p.email })),
    });
  });

  app.get('/amount-in-words', needsForJson('read'), async (request, reply) => {
    const amount = queryText(request.query, 'amount').trim().slice(0, 40);
    let answer: { words: string; message: string };
    try {
      answer = { words: amount === '' ? '' : amountInWords(checkService.cents('amount', amount)), message: '' };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      answer = { words: '', message: error.message };
    }
    return reply.type('application/json; charset=utf-8').send(answer);
  });
}
