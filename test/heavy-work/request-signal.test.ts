// The client signal's storage (heavy-work/request-signal.ts) is entered by the handlers that may
// start heavy work and left when each has answered: a handler still inside keeps its signal while
// others come and go, and once none is inside the storage is turned off (its async hooks cost every
// request of the process). Through the app: what a request entered is left by its answer, a refusal
// included.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientSignalDone,
  handlersWithClientSignal,
  requestSignal,
  withClientSignal,
} from '../../src/heavy-work/request-signal.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

function response(): ServerResponse {
  return new ServerResponse(new IncomingMessage(new Socket()));
}

/** Runs `body` as a handler inside the signal of `res`, like app.ts's preHandler does. */
function handler<T>(res: ServerResponse, body: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => withClientSignal(res, () => void body().then(resolve, reject)));
}

describe('the client signal, entered and left', () => {
  it('a handler keeps its signal while another enters and answers; none is left when both have answered', async () => {
    const first = response();
    const second = response();
    let release = (): void => undefined;
    const waiting = new Promise<void>((resolve) => {
      release = resolve;
    });
    const firstSignals: (AbortSignal | undefined)[] = [];
    const running = handler(first, async () => {
      firstSignals.push(requestSignal());
      await waiting;
      firstSignals.push(requestSignal());
    });
    await handler(second, async () => {
      expect(requestSignal()).toBeDefined();
    });
    clientSignalDone(second);
    expect(handlersWithClientSignal()).toBe(1);
    release();
    await running;
    expect(firstSignals[0]).toBeDefined();
    // The same signal after the other handler answered: its storage was not turned off under it.
    expect(firstSignals[1]).toBe(firstSignals[0]);
    clientSignalDone(first);
    expect(handlersWithClientSignal()).toBe(0);
    expect(requestSignal()).toBeUndefined();
    // Answered twice (onSend of an error after a payload): counted once.
    clientSignalDone(first);
    expect(handlersWithClientSignal()).toBe(0);
  });

  it('a handler entered after the storage was turned off has its signal again', async () => {
    const res = response();
    const signal = await handler(res, async () => {
      await Promise.resolve();
      return requestSignal();
    });
    expect(signal).toBeDefined();
    clientSignalDone(res);
    expect(handlersWithClientSignal()).toBe(0);
  });
});

describe.each(dialects())('requests leave the client signal when answered (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let checkId: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client(`signal-${dialect}@example.com`);
    const basics = await seedBasics(api);
    const created = await api.post('/checks', { checks: [{ ...basics, amount: '12.00' }] });
    expect(created.status).toBe(201);
    checkId = created.body.data.checks[0].checkId;
  });
  afterAll(() => t.close());

  it('after a write, a refused write, a read and a PDF, no handler is inside it', async () => {
    expect((await api.post('/payees', { payees: [{ name: 'Signal Payee' }] })).status).toBe(201);
    expect((await api.post('/payees', { payees: [{}] })).status).toBe(422);
    expect((await api.get(`/checks/${checkId}`)).status).toBe(200);
    expect((await api.get('/checks')).status).toBe(200);
    expect((await api.get(`/checks/${checkId}/pdf`)).status).toBe(200);
    expect((await api.get('/checks/chk_unknown/pdf')).status).toBe(404);
    expect(handlersWithClientSignal()).toBe(0);
  });
});
