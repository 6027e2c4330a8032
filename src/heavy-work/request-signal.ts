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
 * Runs `next` (the rest of the request's hooks and its handler) where `requestSignal()` gives a
 * signal that aborts when the response closes before it was finished: the client hung up, or its
 * socket failed.
 */
export function withClientSignal(response: ServerResponse, next: () => void): void {
  current.run({ response, signal: undefined }, next);
}
