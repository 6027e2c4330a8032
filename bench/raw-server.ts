// The baseline: a bare node:http server in its own process answering every request with the
// exact bytes (and roughly the headers) the real server sent for GET /checks/{id}. The ratio
// real/raw then isolates what checkwriter adds (auth, routing, SQL, serialising) from what HTTP
// on this machine costs anyway. Started by processes.ts with fork(); the body arrives over IPC.
import { createServer } from 'node:http';

interface RawSetup {
  body: string;
  contentType: string;
}

function isSetup(value: unknown): value is RawSetup {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as RawSetup).body === 'string' &&
    typeof (value as RawSetup).contentType === 'string'
  );
}

process.once('message', (message: unknown) => {
  if (!isSetup(message)) throw new Error('raw-server: expected { body, contentType }');
  const body = Buffer.from(message.body, 'utf8');
  // The real server sends a request id per response; a constant one of the same length keeps
  // the header bytes comparable without counting a UUID as "raw HTTP" work.
  const headers = {
    'content-type': message.contentType,
    'content-length': String(body.length),
    'x-request-id': '00000000-0000-4000-8000-000000000000',
  };
  const server = createServer((_request, response) => {
    response.writeHead(200, headers);
    response.end(body);
  });
  // Same keep-alive timeout as Fastify's default, so idle connections behave alike.
  server.keepAliveTimeout = 72_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('raw-server: no TCP address');
    process.send?.({ port: address.port });
  });
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
});
