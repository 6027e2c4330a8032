// Long work on the main thread goes in slices, the event loop given back between them. On SQLite
// every statement is synchronous and an await resolves in the same turn of the loop, so without a
// real pause a loop over 10,000 rows holds every other request (and /healthz) until it ends.

/** Lets the event loop run what waits (timers, sockets) before the next slice. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
