// The fair queue in front of the heavy-work pool and the image decodes: one tenant's backlog never
// sits in front of another tenant's single task, a tenant's excess is refused on its own, the
// payee lane goes first, and a waiter whose caller has gone leaves without holding a slot.
import { describe, expect, it } from 'vitest';
import { CallerGone, FairQueue, QueueFull, type Release, WaitedTooLong } from '../../src/heavy-work/fair-queue.ts';

const limits = { slots: 2, perTenant: 1, perTenantWaiting: 3, waiting: 8 };

describe('fair queue', () => {
  it('serves tenants in turn: a tenant with one task waits behind one of the flooder, not all', async () => {
    const queue = new FairQueue(limits);
    const order: string[] = [];
    const hold = async (tenant: string, name: string): Promise<Release> => {
      const release = await queue.enter(tenant);
      order.push(name);
      return release;
    };
    const a1 = await hold('a', 'a1');
    const flood = ['a2', 'a3', 'a4'].map((name) => hold('a', name));
    const b1 = hold('b', 'b1');
    // The flooder holds its share (one of two slots); the other tenant gets the second at once.
    await b1;
    expect(order).toEqual(['a1', 'b1']);
    expect(queue.counts).toMatchObject({ running: 2, waiting: 3 });
    const c = hold('c', 'c1');
    (await b1)();
    await c;
    // The slot b freed went to c, who waited behind none of a's three.
    expect(order).toEqual(['a1', 'b1', 'c1']);
    a1();
    await flood[0];
    expect(order.at(-1)).toBe('a2');
  });

  it("refuses a tenant's own excess, and nobody else's", async () => {
    const queue = new FairQueue(limits);
    await queue.enter('a');
    const waiting = [queue.enter('a'), queue.enter('a'), queue.enter('a')];
    const refused = await queue.enter('a').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(QueueFull);
    expect((refused as QueueFull).ahead).toBe(4);
    await expect(queue.enter('b')).resolves.toBeTypeOf('function');
    expect(queue.counts.refused).toBe(1);
    expect(waiting).toHaveLength(3);
  });

  it('serves the priority lane before every waiting tenant', async () => {
    const queue = new FairQueue({ ...limits, perTenant: 2 });
    const first = await queue.enter('a');
    await queue.enter('a');
    const order: string[] = [];
    void queue.enter('b').then(() => order.push('b'));
    void queue.enter('payee', { priority: true }).then(() => order.push('payee'));
    first();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['payee']);
  });

  it('drops a waiter whose caller has gone; its slot is never taken, and a release frees it', async () => {
    const queue = new FairQueue(limits);
    const a = await queue.enter('a');
    const controller = new AbortController();
    const gone = queue.enter('a', { signal: controller.signal });
    controller.abort();
    await expect(gone).rejects.toBeInstanceOf(CallerGone);
    expect(queue.counts).toMatchObject({ running: 1, waiting: 0, dropped: 1 });
    a();
    a(); // a second release does nothing
    expect(queue.counts.running).toBe(0);
    await expect(queue.enter('a')).resolves.toBeTypeOf('function');
  });

  it('refuses a waiter past its longest wait', async () => {
    const queue = new FairQueue(limits);
    await queue.enter('a');
    await expect(queue.enter('a', { maxWaitMs: 20 })).rejects.toBeInstanceOf(WaitedTooLong);
    expect(queue.counts).toMatchObject({ waiting: 0, refused: 1 });
  });
});
