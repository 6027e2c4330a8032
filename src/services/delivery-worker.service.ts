// The outbox worker: claims due delivery rows, sends them through the mail, SMS and webhook ports
// (delivery/ holds the adapters), and records the outcome. A row is
// leased while it is being sent; a worker killed mid-send leaves it to be claimed again when the
// lease ends, and the stable Message-ID lets the receiver recognise the repeat. Failures retry
// with exponential backoff and jitter; after the last attempt the row is `failed`, logged, and
// visible through the API — never dropped.
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import type { Owner } from '../domain/owner.ts';
import { type Account, senderName } from '../domain/account.ts';
import { newId } from '../domain/ids.ts';
import { localMoment } from '../domain/dates.ts';
import type { Db } from '../store/db.ts';
import type { Metrics } from '../metrics.ts';
import * as accounts from '../store/accounts.repository.ts';
import * as checks from '../store/checks/checks.repository.ts';
import * as deliveries from '../store/deliveries.repository.ts';
import type { ClaimedDelivery } from '../store/deliveries.repository.ts';
import { accountEmail, checkEmail, checkSms, phoneCodeSms, type CheckMessageInput } from '../delivery/messages.ts';
import { accountToken, phoneCode } from '../domain/account-tokens.ts';
import type { Mailer } from '../delivery/mailer.ts';
import { linkToken, payeeLink } from '../domain/payee-links.ts';
import { SmsError, type SmsSender } from '../delivery/sms.ts';
import * as webhooks from '../store/events.repository.ts';
import { emit } from './events.ts';
import type { EventType } from '../domain/event-types.ts';
import { deliveryTokenContext, Vault } from '../domain/sealed.ts';
import { sealSandboxMessage } from '../domain/sealed-sandbox.ts';
import type { SandboxMessage } from '../domain/delivery.ts';
import { currentDataKeyId } from '../store/server-secret.ts';
import { RefusedDestination } from '../delivery/webhook-post.ts';
import type { WebhookSender } from '../delivery/webhook-sender.ts';
import { webhookHeaders } from '../domain/webhook-signature.ts';

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

class Permanent extends Error {}

/**
 * The database, not the channel, failed around a send. The row keeps its lease: claimed again
 * when it ends (a message already sent then goes again with the same Message-ID).
 */
class DatabaseFailed extends Error {
  constructor(override readonly cause: unknown) {
    super('the database failed while a delivery was recorded');
  }
}

/** Verification and reset messages of the panel (payload `{ account: purpose }`), not about a check. */
function isAccountMessage(d: ClaimedDelivery): boolean {
  return typeof d.payload.account === 'string';
}

/** What one batch reads once and shares between its messages. */
interface BatchCache {
  accounts: Map<string, Promise<Account | undefined>>;
  listening: Map<string, Promise<boolean>>;
}

export class DeliveryWorker {
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly vault: Vault;

  constructor(private readonly deps: WorkerDeps) {
    this.vault = new Vault(deps.secret);
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
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
    const claimed = await deliveries.claimDue(this.deps.db, this.now(), delivery.leaseMs, BATCH, {
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
    if (unsent.length > 0) await deliveries.releaseClaims(this.deps.db, unsent);
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
      await deliveries.markSent(db, d.id, this.now());
    } else {
      await db.transaction(async (tx) => {
        await deliveries.markSent(tx, d.id, this.now());
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
    if (!(await deliveries.renewLease(this.deps.db, d.id, d.leaseUntil, until))) return false;
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
        await this.send(d, batch);
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
          await deliveries.markFailed(db, d.id, message);
        } else {
          await db.transaction(async (tx) => {
            await deliveries.markFailed(tx, d.id, message);
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
        await deliveries.reschedule(db, d.id, at, message);
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

  /**
   * The link or account token a message carries: its sealed random token, or for a message
   * queued by an older version (no sealed token), the token derived from its id then.
   */
  private token(d: ClaimedDelivery, derived: (secret: Buffer, id: string) => string): string {
    if (d.sealedToken === null) return derived(this.deps.secret, d.id);
    return this.vault.open(d.sealedToken, deliveryTokenContext(d.id));
  }

  /** The sending account (read once per batch). */
  private account(accountId: string, batch: BatchCache): Promise<Account | undefined> {
    let read = batch.accounts.get(accountId);
    if (read === undefined) {
      read = accounts.findAccountById(this.deps.db, accountId);
      batch.accounts.set(accountId, read);
    }
    return read;
  }

  private async content(d: ClaimedDelivery, batch: BatchCache): Promise<CheckMessageInput> {
    const { db, config } = this.deps;
    if (d.checkId === null) throw new Permanent('delivery names no check');
    const check = await checks.findCheck(db, d.owner, d.checkId);
    if (check === undefined) throw new Permanent(`check ${d.checkId} no longer exists`);
    const account = await this.account(d.owner.accountId, batch);
    const expires = d.createdAt + config.delivery.payeeLinkDays * 86_400_000;
    return {
      company: account === undefined ? 'A company' : senderName(account),
      payeeName: check.payeeName ?? 'there',
      amountCents: check.amountCents,
      memo: check.memo,
      serialNumber: check.serialNumber,
      issueDate: check.issueDate,
      link: payeeLink(config.publicUrl, this.token(d, linkToken)),
      linkExpiresOn: localMoment(expires, account?.timeZone ?? 'UTC').date,
    };
  }

  /** POSTs the event to the endpoint as `{ "event": { type, data, id, createdAt } }`, signed (domain/webhook-signature.ts). */
  private async sendWebhook(d: ClaimedDelivery): Promise<void> {
    const { db } = this.deps;
    if (d.endpointId === null || d.eventId === null) throw new Permanent('webhook delivery names no endpoint or event');
    // A deleted endpoint gets nothing more: its queued events fail for good (no retries).
    const endpoint = await webhooks.findEndpoint(db, d.owner, d.endpointId);
    const event = await webhooks.findEvent(db, d.eventId);
    if (endpoint === undefined) throw new Permanent('webhook endpoint deleted');
    if (event === undefined) throw new Permanent('event no longer exists');
    const body = JSON.stringify({
      event: { type: event.type, data: event.data, id: event.id, createdAt: new Date(event.createdAt).toISOString() },
    });
    const headers = webhookHeaders(endpoint.secret, body, Math.floor(this.now() / 1000), event.id);
    let status: number;
    try {
      status = await this.deps.webhooks.post(endpoint.url, headers, body);
    } catch (error) {
      await webhooks.setResponseStatus(db, d.id, null);
      // A refused destination will not become acceptable by retrying: it fails for good, at once.
      if (error instanceof RefusedDestination) throw new Permanent(`delivery refused: ${error.message}`);
      throw new Error(`endpoint unreachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    await webhooks.setResponseStatus(db, d.id, status);
    if (status < 200 || status >= 300) throw new Error(`endpoint answered ${status}`);
  }

  /** An email link (random, sealed in the row until sent) or phone code (derived from the row's id) of the panel. */
  private async sendAccountMessage(d: ClaimedDelivery, batch: BatchCache): Promise<void> {
    const { config, secret } = this.deps;
    const purpose = d.payload.account;
    if (purpose === 'verify-phone') {
      if (this.deps.sms === null) throw new Error('no SMS provider is configured');
      await this.deps.sms.send(d.recipient, phoneCodeSms(phoneCode(secret, d.id)), d.id);
      return;
    }
    if (purpose !== 'verify-email' && purpose !== 'reset-password')
      throw new Permanent(`unknown account message ${String(purpose)}`);
    if (this.deps.mailer === null) throw new Error('SMTP is not configured');
    const account = await this.account(d.owner.accountId, batch);
    // The panel's pages carry the purpose's name: /panel/verify-email, /panel/reset-password.
    const token = this.token(d, accountToken);
    const email = accountEmail(
      purpose,
      account === undefined ? 'your' : senderName(account),
      `${config.publicUrl}/panel/${purpose}?token=${token}`,
    );
    await this.deps.mailer.send({
      messageId: `<${d.id}@checkwriter>`,
      from: config.delivery.mailFrom,
      to: d.recipient,
      ...email,
      attachments: [],
    });
  }

  private async send(d: ClaimedDelivery, batch: BatchCache): Promise<void> {
    const { db, config } = this.deps;
    if (d.channel === 'webhook') return this.sendWebhook(d);
    if (isAccountMessage(d)) return this.sendAccountMessage(d, batch);
    const owner = d.owner;
    const input = await this.content(d, batch);
    const attachments =
      d.channel === 'email' && d.payload.sendAttachment === 1 && d.checkId !== null
        ? await deliveries.attachmentsWithData(db, owner, d.checkId)
        : [];
    const email = checkEmail(input);
    const sms = checkSms(input);
    if (owner.env === 'test') {
      // Nothing leaves the machine for test keys: the message lands in the sandbox inbox, its
      // link sealed so a copy of the database opens no test check's page.
      const message: SandboxMessage = {
        id: newId('msg', this.now()),
        deliveryId: d.id,
        checkId: d.checkId,
        channel: d.channel === 'sms' ? 'sms' : 'email',
        recipient: d.recipient,
        subject: d.channel === 'email' ? email.subject : '',
        text: d.channel === 'email' ? email.text : sms,
        html: d.channel === 'email' ? email.html : '',
        link: input.link,
        attachments: attachments.map((a) => a.filename),
        createdAt: this.now(),
      };
      const keyId = await currentDataKeyId(db);
      await deliveries.insertSandboxMessage(db, owner.accountId, sealSandboxMessage(this.vault, keyId, message));
      return;
    }
    if (d.channel === 'email') {
      if (this.deps.mailer === null) throw new Error('SMTP is not configured');
      await this.deps.mailer.send({
        messageId: `<${d.id}@checkwriter>`,
        from: config.delivery.mailFrom,
        to: d.recipient,
        subject: email.subject,
        text: email.text,
        html: email.html,
        attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.data })),
      });
      return;
    }
    if (this.deps.sms === null) throw new Error('no SMS provider is configured');
    await this.deps.sms.send(d.recipient, sms, d.id);
  }
}
