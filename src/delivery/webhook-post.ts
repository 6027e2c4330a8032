// One webhook POST, with the destination checked where it matters: at connect time. A name is
// resolved by our own lookup, which refuses every non-public answer, so a host name that resolves
// (or later re-resolves) to 127.0.0.1 or a private range is never connected to; an IP literal,
// which Node connects to without a lookup, is checked before the request, and the socket's peer
// address is checked once more when it connects. Redirects are not followed (a 3xx is an answer
// like any other), and each delivery uses its own connection, so no pooled socket skips the check.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { nonPublicReason, refusedUrl } from '../domain/public-address.ts';

// node:http and node:https are required at the first POST, not imported: on Node 22 and 24 an ES
// import of node:http reads every export, and one of them loads Node's bundled fetch library —
// about 35 ms of every start.
const requireBuiltin = createRequire(import.meta.url);

/** The endpoint may not be reached: recorded as a permanent failure with this reason. */
export class RefusedDestination extends Error {
  override name = 'RefusedDestination';
}

const SWITCH = 'set WEBHOOKS_ALLOW_PRIVATE=true to allow it';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** How names are resolved: dns.lookup's shape with `all: true` (tests pass their own). */
export type Resolver = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** A `lookup` for net.connect that answers only public addresses, refusing the name otherwise. */
export function publicOnlyLookup(
  resolve: Resolver = dnsLookup,
): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, []);
      const refused = addresses.map((a) => ({ a, why: nonPublicReason(a.address) })).filter((x) => x.why !== null);
      if (refused.length > 0) {
        // One non-public answer refuses the name: a round-robin of public and private addresses is an attack, not a mistake.
        const [first] = refused;
        return callback(
          new RefusedDestination(`${hostname} resolves to ${first?.a.address ?? ''}, ${first?.why ?? ''}; ${SWITCH}`),
          [],
        );
      }
      if (options.all === true) return callback(null, addresses);
      const [first] = addresses;
      if (first === undefined)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      return callback(null, first.address, first.family);
    });
  };
}

export interface PostOptions {
  /** WEBHOOKS_ALLOW_PRIVATE: any destination may be reached (development). */
  allowPrivate: boolean;
  timeoutMs: number;
  /** Name resolution (default dns.lookup, what Node itself would use). */
  resolve?: Resolver;
}

/** POSTs `body` and answers the response status; throws RefusedDestination or a network error. */
export function postWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: PostOptions,
): Promise<number> {
  const url = new URL(target);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return Promise.reject(new RefusedDestination(`${url.protocol} is not http or https`));
  if (!options.allowPrivate) {
    const why = refusedUrl(url);
    if (why !== null) return Promise.reject(new RefusedDestination(`${why}; ${SWITCH}`));
  }
  const send =
    url.protocol === 'https:'
      ? (requireBuiltin('node:https') as typeof import('node:https')).request
      : (requireBuiltin('node:http') as typeof import('node:http')).request;
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, status = 0): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error !== null) reject(error);
      else resolve(status);
    };
    const request = send(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      agent: false,
      ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup(options.resolve) }),
    });
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on('socket', (socket: Socket) => {
      if (options.allowPrivate) return;
      // The last word: whatever resolved the name, the peer we are connected to must be public.
      socket.once('connect', () => {
        const peer = socket.remoteAddress ?? '';
        const why = nonPublicReason(peer);
        if (why !== null) request.destroy(new RefusedDestination(`connected to ${peer}, ${why}; ${SWITCH}`));
      });
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => finish(null, response.statusCode ?? 0));
      response.on('error', (error) => finish(error));
    });
    request.on('error', (error) => finish(error));
    request.end(body);
  });
}
