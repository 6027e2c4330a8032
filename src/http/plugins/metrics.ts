// Request metrics and `GET /metrics` on the API's port. Every answered request is
// counted under its route template; the scrape needs the METRICS_TOKEN as a Bearer token, compared
// in constant time. Without a token the route does not exist (server.ts may serve the same text on
// a separate port instead).
import type { FastifyInstance } from 'fastify';
import { bearerMatches, tokenHash } from '../../domain/secret-tokens.ts';
import type { Metrics } from '../../metrics.ts';

export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
  if (token === '') return;
  const expected = tokenHash(token);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!bearerMatches(expected, request.headers.authorization)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send({ message: 'Unauthenticated.' });
    }
    return reply.type(metrics.contentType).send(await metrics.text());
  });
}
