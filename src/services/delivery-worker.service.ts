// The outbox worker: claims due delivery rows, sends them through the mail, SMS and webhook ports
// (delivery/ holds the adapters; delivery-sender.service.ts builds each message), and records the outcome. A row is
// leased while it is being sent; a worker killed mid-send leaves it to be claimed again when the
// lease ends, and the stable Message-ID lets the receiver recognise the repeat. Failures retry
// with exponential backoff and jitter; after the last attempt the row is `failed`, logged, and
// visible through the API — never dropped.
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import type { Owner } from '../domain/owner.ts';
import type { Db } from '../store/db.ts';
import type { Metrics } from '../metrics.ts';
import * as claims from '../store/delivery-claims.repository.ts';
import type { ClaimedDelivery } from '../store/delivery-claims.repository.ts';
import type { Mailer } from '../delivery/mailer.ts';
import { SmsError, type SmsSender } from '../delivery/sms.ts';
import * as webhooks from '../store/events.repository.ts';
import { emit } from './events.ts';
import type { EventType } from '../domain/event-types.ts';
import { Vault } from '../domain/sealed.ts';
import type { WebhookSender } from '../delivery/webhook-sender.ts';
import { DeliverySender, isAccountMessage, Permanent, type SendBatch } from './delivery-sender.service.ts';

/** The logger the worker writes to (pino's, or Fastify's which is pino too). */
export interface WorkerLog {
  info(entry: object, message: string): void;
  warn(entry: object, message: string): void;
  error(entry: object, message: string): void;
}

const MAX_BACKOFF_MS = 60 * 60 * 1000;
const BATCH = 50;
const CONCURRENCY = 20;

export interface WorkerDeps {
  db: Db;
  config: Config;
  secret: Buffer;
  /** null: SMTP is not configured, live email stays queued. */
  mailer: Mailer | null;
  /** null: no SMS provider, live SMS stays queued. */
  sms: SmsSender | null;
  webhooks: WebhookSender;
  log: WorkerLog;
  /** Counts finished attempts by channel and outcome when /metrics is on. */
  metrics?: Metrics;
  now?: () => number;
  random?: () => number;
}

/** Delay before attempt `attempts + 1`: base·2^(attempts-1), capped, with "equal jitter" (half fixed, half random). */
export function backoffMs(attempts: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * The database, not the channel, failed around a send. The row keeps its lease: claimed again
 * when it ends (a message already sent then goes again with the same Message-ID).
 */
class DatabaseFailed extends Error {
  constructor(override readonly cause: unknown) {
    super('the database failed while a delivery was recorded');
  }
}

/** What one batch reads once and shares between its messages. */
interface BatchCache extends SendBatch {
  listening: Map<string, Promise<boolean>>;
}

export class DeliveryWorker {
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly sender: DeliverySender;

  constructor(private readonly deps: WorkerDeps) {
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
    this.sender = new DeliverySender({
      db: deps.db,
      config: deps.config,
      secret: deps.secret,
      vault: new Vault(deps.secret),
      mailer: deps.mailer,
      sms: deps.sms,
      webhooks: deps.webhooks,
      now: this.now,
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      let claimed = 0;
      try {
        claimed = await this.tick();
        failures = 0;
      } catch (error) {
        failures += 1;
        this.deps.log.error({ err: error, failures }, 'delivery worker: claiming failed; retrying');
      }
      if (claimed === 0 && this.running) {
        // While the database is away (a failover) the worker backs off, up to 5 s between tries.
        const pause = Math.min(
          this.deps.config.delivery.pollMs * 2 ** failures,
          Math.max(5_000, this.deps.config.delivery.pollMs),
        );
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pause);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
      }
    }
  }

  /** Claims and sends one batch; answers how many rows it took. */
  async tick(): Promise<number> {
    const { delivery } = this.deps.config;
    const claimed = await claims.claimDue(this.deps.db, this.now(), delivery.leaseMs, BATCH, {
      liveEmail: this.deps.mailer !== null,
      liveSms: this.deps.sms !== null,
    });
    // Per batch, each account is read once, and so is whether it has webhook endpoints: an
    // account without any marks a message sent in one statement instead of a transaction.
    const batch: BatchCache = { accounts: new Map(), listening: new Map() };
    let next = 0;
    // A worker told to stop (shutdown) sends no further message of its batch once it has finished
    // those it started; the rest are handed back below.
    const lanes = Array.from({ length: Math.min(CONCURRENCY, claimed.length) }, async () => {
      while (next < claimed.length && (this.running || this.loop === null)) {
        const item = claimed[next++];
        if (item !== undefined) await this.deliver(item, batch);
      }
    });
    const settled = await Promise.allSettled(lanes);
    const unsent = claimed.slice(next);
    if (unsent.length > 0) await claims.releaseClaims(this.deps.db, unsent);
    const failed = settled.find((lane) => lane.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    return claimed.length;
  }

  /** Sends until nothing is due (tests and `checkwriter worker --drain`). */
  async drain(): Promise<void> {
    while ((await this.tick()) > 0) {
      // keep going
    }
  }

  /** What a delivery event says about a message (webhooks and account messages are not announced). */
  private deliveryEvent(
    d: ClaimedDelivery,
    outcome: 'sent' | 'failed',
    error: string | null,
  ): { type: EventType; data: Record<string, unknown> }[] {
    if (d.channel === 'webhook' || isAccountMessage(d)) return [];
    return [
      {
        type: `delivery.${d.channel}.${outcome}`,
        data: {
          deliveryId: d.id,
          checkId: d.checkId,
          channel: d.channel,
          recipient: d.recipient,
          status: outcome,
          attempts: d.attempts,
          error,
        },
      },
    ];
  }

  /** Marks a sent message sent (and announces it to the owner's webhooks, in one transaction). */
  private async recordSent(d: ClaimedDelivery, batch: BatchCache): Promise<void> {
    const { db } = this.deps;
    const announced = this.deliveryEvent(d, 'sent', null);
    if (announced.length === 0 || !(await this.listening(d.owner, batch))) {
      await claims.markSent(db, d.id, this.now());
    } else {
      await db.transaction(async (tx) => {
        await claims.markSent(tx, d.id, this.now());
        await emit(tx, d.owner, announced, this.now());
      });
    }
  }

  /** Whether the owner has webhook endpoints (asked once per batch). */
  private listening(owner: Owner, batch: BatchCache): Promise<boolean> {
    const key = `${owner.accountId}/${owner.env}`;
    let answer = batch.listening.get(key);
    if (answer === undefined) {
      answer = webhooks.listEndpoints(this.deps.db, owner).then((list) => list.length > 0);
      batch.listening.set(key, answer);
    }
    return answer;
  }

  /**
   * Whether this worker still holds `d`, renewing its lease when half of it has passed: a batch
   * that takes longer than its lease (a slow SMTP server, a loaded machine) must not send what
   * another worker claimed after the lease ran out (that is a second copy of a message).
   */
  private async stillHeld(d: ClaimedDelivery): Promise<boolean> {
    const { leaseMs } = this.deps.config.delivery;
    const now = this.now();
    if (now < d.leaseUntil - leaseMs / 2) return true;
    const until = now + leaseMs;
    if (!(await claims.renewLease(this.deps.db, d.id, d.leaseUntil, until))) return false;
    d.leaseUntil = until;
    return true;
  }

  private async deliver(d: ClaimedDelivery, batch: BatchCache): Promise<void> {
    const { db, log } = this.deps;
    if (!(await this.stillHeld(d))) {
      log.warn(
        { deliveryId: d.id, channel: d.channel },
        'delivery: lease ran out before sending; another worker has it',
      );
      return;
    }
    try {
      try {
        await this.sender.send(d, batch);
      } catch (error) {
        // The database failed (reading what to send), not the send: nothing went out. The row
        // stays leased and is claimed again when its lease ends.
        if (error instanceof AppError && error.code === 'unavailable') throw new DatabaseFailed(error);
        throw error;
      }
      this.deps.metrics?.deliveryFinished(d.channel, 'sent');
      // Sent: recording it must not be mistaken for a failed send (that would send it again).
      await this.recordSent(d, batch).catch((error: unknown) => {
        throw new DatabaseFailed(error);
      });
    } catch (error) {
      if (error instanceof DatabaseFailed) throw error.cause;
      const message = error instanceof Error ? error.message : String(error);
      const permanent = error instanceof Permanent || (error instanceof SmsError && !error.retryable);
      if (permanent || d.attempts >= this.deps.config.delivery.maxAttempts) {
        this.deps.metrics?.deliveryFinished(d.channel, 'failed');
        const announced = this.deliveryEvent(d, 'failed', message);
        if (announced.length === 0 || !(await this.listening(d.owner, batch))) {
          await claims.markFailed(db, d.id, message);
        } else {
          await db.transaction(async (tx) => {
            await claims.markFailed(tx, d.id, message);
            await emit(tx, d.owner, announced, this.now());
          });
        }
        log.error(
          { deliveryId: d.id, checkId: d.checkId, channel: d.channel, attempts: d.attempts, err: message },
          'delivery failed for good',
        );
      } else {
        this.deps.metrics?.deliveryFinished(d.channel, 'retry');
        const at = this.now() + backoffMs(d.attempts, this.deps.config.delivery.retryBaseMs, this.random);
        await claims.reschedule(db, d.id, at, message);
        log.warn(
          {
            deliveryId: d.id,
            channel: d.channel,
            attempts: d.attempts,
            retryAt: new Date(at).toISOString(),
            err: message,
          },
          'delivery failed; will retry',
        );
      }
    }
  }
}
