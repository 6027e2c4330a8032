// The signal of the request being served: aborted when its client goes away before the answer was
// sent (the connection closed). The server sets it around each request's handler (app.ts), and the
// heavy work a handler starts reads it, so a PDF nobody waits for leaves the queue or is stopped
// without every service passing a signal along by hand.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import { unavailable } from '../errors.ts';

/**
 * The response being served, and its signal once someone asked for it. The signal (an
 * AbortController and a 'close' listener) is made only when heavy work asks: most requests never
 * do, and the hot reads should not pay for it.
 */
interface Served {
  response: ServerResponse;
  signal: AbortSignal | undefined;
}

const current = new AsyncLocalStorage<Served>();

function isGone(response: ServerResponse): boolean {
  return !response.writableFinished && (response.destroyed || response.socket === null || response.socket.destroyed);
}

/** The signal of the request whose handler is running here, if any. */
export function requestSignal(): AbortSignal | undefined {
  const served = current.getStore();
  if (served === undefined) return undefined;
  if (served.signal !== undefined) return served.signal;
  const controller = new AbortController();
  const gone = (): void => {
    if (!served.response.writableFinished) controller.abort(new Error('the client closed the request'));
  };
  // Closed already (while the body was read, or the key checked): 'close' will not come again.
  if (isGone(served.response)) gone();
  else served.response.once('close', gone);
  served.signal = controller.signal;
  return served.signal;
}

let stoppedEarly = 0;

/** Requests stopped by stopIfClientGone since the start (tests and the bench read it). */
export function stoppedBeforeHeavyWork(): number {
  return stoppedEarly;
}

/**
 * Throws when the client of the request being served has gone: for the long preparation of heavy
 * work on the main thread (reading 500 checks' documents), which nobody will read. The answer is
 * never sent (the connection is closed); it is a 503 so that it is logged as what it is.
 */
export function stopIfClientGone(what: string): void {
  if (requestSignal()?.aborted !== true) return;
  stoppedEarly += 1;
  throw unavailable(`${what} was stopped: the request was closed before it was answered.`, 1);
}

/**
 * The responses whose handlers run inside `current` and have not answered yet. On Node 20 and 22 an
 * AsyncLocalStorage, once run, turns on async hooks for every promise and native resource of the
 * process (about 10 µs of a 100 µs GET, docs/benchmarks.md) until it is disabled: so it is disabled
 * whenever no handler is inside it, and the routes that never start heavy work do not enter it.
 */
const serving = new Set<ServerResponse>();

/**
 * Runs `next` (the rest of the request's hooks and its handler) where `requestSignal()` gives a
 * signal that aborts when the response closes before it was finished: the client hung up, or its
 * socket failed. `clientSignalDone` must follow when the handler has answered.
 */
export function withClientSignal(response: ServerResponse, next: () => void): void {
  serving.add(response);
  current.run({ response, signal: undefined }, next);
}

/**
 * The handler of `response` has answered (its onSend; also after a client hung up, since Fastify
 * still sends what the handler returns): when no other handler is inside the signal's storage, the
 * storage is disabled and its async hooks with it. Not on 'close': a client that hangs up while
 * its handler still prepares heavy work must leave the handler its aborted signal.
 */
export function clientSignalDone(response: ServerResponse): void {
  if (!serving.delete(response)) return;
  if (serving.size === 0) current.disable();
}

/** Handlers inside the signal's storage now (tests read it). */
export function handlersWithClientSignal(): number {
  return serving.size;
}
