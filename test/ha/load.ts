// Keyed load as API clients send it: eight clients, each sending batches of 50 checks, one
// Idempotency-Key per batch, every check with a referenceId of its own. A batch answered with a
// connection error, 409, 429, 500, 502, 503 or 504 is sent again with the same key — as the typed
// client (packages/client, retryingFetch) does — until it is answered, or given up when the
// scenario's drain time runs out (then it was never acknowledged; the read-back still looks for it).
import { randomUUID } from 'node:crypto';
import { sleep } from './processes.ts';

export const CLIENTS = 8;
export const CHECKS_PER_BATCH = 50;
const RETRIED = new Set([409, 429, 500, 502, 503, 504]);
/** Longest wait between two attempts of a batch, whatever Retry-After says (the typed client: 30 s). */
const MAX_WAIT_MS = 2_000;

export interface Batch {
  scenario: string;
  key: string;
  referenceIds: string[];
  firstSentAt: number;
  attempts: number;
  /** Check ids answered with the 201, in the order of referenceIds; null: never acknowledged. */
  acknowledged: string[] | null;
  ackAt: number | null;
  /** A final answer that was neither 201 nor retried (e.g. a 4xx). */
  refused: { status: number; message: string } | null;
}

export interface ScenarioLoad {
  scenario: string;
  startedAt: number;
  endedAt: number;
  batches: Batch[];
  /** When each 201 arrived. */
  successes: number[];
  /** Every answer but 201, by status and source ("503 app", "503 haproxy", "connection error"). */
  failures: Map<string, number>;
  /** A few error messages of answers from the servers themselves (5xx). */
  serverErrors: string[];
}

export interface Fixture {
  apiKey: string;
  bankAccountId: string;
  payeeId: string;
}

/** Who answered: every checkwriter response carries X-Request-Id; HAProxy's own errors do not. */
function describeFailure(status: number, headers: Headers): string {
  return `${status} ${headers.has('x-request-id') ? 'app' : 'haproxy'}`;
}

function retryAfterMs(value: string | null, attempt: number): number {
  const backoff = Math.random() * Math.min(MAX_WAIT_MS, 100 * 2 ** attempt);
  if (value === null || !/^\d+$/.test(value.trim())) return backoff;
  return Math.min(MAX_WAIT_MS, Number(value.trim()) * 1000);
}

export class Load {
  private current: ScenarioLoad | null = null;
  private stopping = false;
  private giveUpAt = Number.POSITIVE_INFINITY;
  private loops: Promise<void>[] = [];
  private sequence = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly fixture: Fixture,
    private readonly runId: string,
  ) {}

  begin(scenario: string): ScenarioLoad {
    const load: ScenarioLoad = {
      scenario,
      startedAt: Date.now(),
      endedAt: 0,
      batches: [],
      successes: [],
      failures: new Map(),
      serverErrors: [],
    };
    this.current = load;
    this.stopping = false;
    this.giveUpAt = Number.POSITIVE_INFINITY;
    this.loops = Array.from({ length: CLIENTS }, (_, client) => this.client(load, client));
    return load;
  }

  /** Stops sending new batches; the batches in flight get up to `drainMs` to be answered. */
  async end(drainMs: number): Promise<ScenarioLoad> {
    const load = this.current;
    if (load === null) throw new Error('no load running');
    this.stopping = true;
    this.giveUpAt = Date.now() + drainMs;
    await Promise.all(this.loops);
    load.endedAt = Date.now();
    this.current = null;
    return load;
  }

  private async client(load: ScenarioLoad, client: number): Promise<void> {
    while (!this.stopping) {
      this.sequence += 1;
      const batch: Batch = {
        scenario: load.scenario,
        key: randomUUID(),
        referenceIds: Array.from(
          { length: CHECKS_PER_BATCH },
          (_, i) => `${this.runId}-${load.scenario}-${client}-${this.sequence}-${i}`,
        ),
        firstSentAt: Date.now(),
        attempts: 0,
        acknowledged: null,
        ackAt: null,
        refused: null,
      };
      load.batches.push(batch);
      await this.send(load, batch);
    }
  }

  private body(batch: Batch): string {
    return JSON.stringify({
      checks: batch.referenceIds.map((referenceId, i) => ({
        bankAccountId: this.fixture.bankAccountId,
        payeeId: this.fixture.payeeId,
        amount: `${(i % 50) + 1}.${String(i % 100).padStart(2, '0')}`,
        memo: 'HA test',
        referenceId,
      })),
    });
  }

  private async send(load: ScenarioLoad, batch: Batch): Promise<void> {
    const body = this.body(batch);
    for (;;) {
      batch.attempts += 1;
      let wait: number;
      try {
        const response = await fetch(`${this.baseUrl}/api/v3/checks`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${this.fixture.apiKey}`,
            'content-type': 'application/json',
            'idempotency-key': batch.key,
          },
          body,
          signal: AbortSignal.timeout(30_000),
        });
        const text = await response.text();
        if (response.status === 201) {
          const json = JSON.parse(text) as { data: { checks: { checkId: string }[] } };
          batch.acknowledged = json.data.checks.map((c) => c.checkId);
          batch.ackAt = Date.now();
          load.successes.push(batch.ackAt);
          return;
        }
        const label = describeFailure(response.status, response.headers);
        load.failures.set(label, (load.failures.get(label) ?? 0) + 1);
        if (response.status >= 500 && label.endsWith('app') && load.serverErrors.length < 8)
          load.serverErrors.push(`${response.status} ${text.slice(0, 200)}`);
        if (!RETRIED.has(response.status)) {
          batch.refused = { status: response.status, message: text.slice(0, 200) };
          return;
        }
        wait = retryAfterMs(response.headers.get('retry-after'), batch.attempts);
      } catch {
        load.failures.set('connection error', (load.failures.get('connection error') ?? 0) + 1);
        wait = retryAfterMs(null, batch.attempts);
      }
      if (Date.now() + wait > this.giveUpAt) return;
      await sleep(wait);
    }
  }
}

/** The longest stretch of [from, to] with no 201 arriving. */
export function longestGap(successes: readonly number[], from: number, to: number): { ms: number; at: number } {
  const times = [from, ...successes.filter((t) => t >= from && t <= to).sort((a, b) => a - b), to];
  let best = { ms: 0, at: from };
  for (let i = 1; i < times.length; i += 1) {
    const previous = times[i - 1] ?? from;
    const gap = (times[i] ?? to) - previous;
    if (gap > best.ms) best = { ms: gap, at: previous };
  }
  return best;
}
