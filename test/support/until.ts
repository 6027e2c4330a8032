// Polling for what a background worker (the import runner, a server process) does in its own time.

/** Reads every 50 ms until `done` holds for what was read, and answers it; fails after `tries` reads (20 s). */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, tries = 400): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
}

/** Waits until `test` answers true (every 50 ms, at most 20 s). */
export async function until(test: () => Promise<boolean>): Promise<void> {
  await eventually(test, (held) => held);
}
