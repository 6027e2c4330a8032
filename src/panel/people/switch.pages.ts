// The company switcher (POST /panel/switch-company, from the header): a person in several
// companies moves this session to another of theirs. Any company they are not in is not found.
import type { FastifyInstance } from 'fastify';
import { originOf } from '../../domain/audit.ts';
import { AppError } from '../../errors.ts';
import * as team from '../../services/people/team.service.ts';
import { needs } from '../shell/access.ts';
import type { PanelDeps } from '../shell/deps.ts';
import { field } from '../shell/form.ts';
import { signedInOf } from '../shell/session.ts';

export async function switchPages(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ctx } = deps;
  app.post('/switch-company', needs('read'), async (request, reply) => {
    const signedIn = signedInOf(request);
    const token = request.panel.sessionToken;
    if (token === null) throw new AppError('unauthenticated', 'Sign in to see this page.');
    await team.switchCompany(ctx, signedIn, token, field(request.body, 'account'), originOf(request));
    return reply.redirect('/panel?notice=company-switched', 303);
  });
}
