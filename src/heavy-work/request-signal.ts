// The signal of the request being served: aborted when its client goes away before the answer was
// sent (the connection closed). The server sets it around each request's handler (app.ts), and the
// heavy work a handler starts reads it, so a PDF nobody waits for leaves the queue or is stopped
// without every service passing a signal along by hand.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';

const current = new AsyncLocalStorage<AbortSignal>();

/** The signal of the request whose handler is running here, if any. */
export function requestSignal(): AbortSignal | undefined {
  return current.getStore();
}

/**
 * Runs `next` (the rest of the request's hooks and its handler) with a signal that aborts when the
 * response closes before it was finished: the client hung up, or its socket failed.
 */
export function withClientSignal(response: ServerResponse, next: () => void): void {
  const controller = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) controller.abort(new Error('the client closed the request'));
  });
  current.run(controller.signal, next);
}
