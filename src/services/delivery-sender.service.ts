// Turning a claimed outbox row into its message and handing it to its channel: a check's email or
// SMS (or, for test keys, the sandbox inbox), a panel account message, a signed webhook POST. The
// worker (delivery-worker.service.ts) claims the rows, calls `send`, and records what happened;
// a `Permanent` error tells it that retrying cannot help.
import type { Config } from '../config.ts';
import { type Account, senderName } from '../domain/account.ts';
import { accountToken, phoneCode } from '../domain/account-tokens.ts';
import { localMoment } from '../domain/dates.ts';
import type { SandboxMessage } from '../domain/delivery.ts';
import { newId } from '../domain/ids.ts';
import { linkToken, payeeLink } from '../domain/payee-links.ts';
import { deliveryTokenContext, type Vault } from '../domain/sealed.ts';
import { sealSandboxMessage } from '../domain/sealed-sandbox.ts';
import { webhookHeaders } from '../domain/webhook-signature.ts';
import type { Mailer } from '../delivery/mailer.ts';
import {
  accountEmail,
  type CheckMessageInput,
  checkEmail,
  checkSms,
  invitationEmail,
  phoneCodeSms,
  recoveryCodeUsedEmail,
} from '../delivery/messages.ts';
import type { SmsSender } from '../delivery/sms.ts';
import { type ApprovalMessageInput, approvalEmail } from '../delivery/approval-messages.ts';
import { RefusedDestination } from '../delivery/webhook-post.ts';
import type { WebhookSender } from '../delivery/webhook-sender.ts';
import * as accounts from '../store/accounts.repository.ts';
import * as attachmentStore from '../store/attachments.repository.ts';
import * as checks from '../store/checks/checks.repository.ts';
import type { Db } from '../store/db.ts';
import type { ClaimedDelivery } from '../store/delivery-claims.repository.ts';
import * as webhooks from '../store/events.repository.ts';
import * as sandboxInbox from '../store/sandbox-inbox.repository.ts';
import { currentDataKeyId } from '../store/server-secret.ts';

/** A failure that retrying cannot mend: the row fails for good at once. */
export class Permanent extends Error {}

/** Verification and reset messages of the panel (payload `{ account: purpose }`), not about a check. */
export function isAccountMessage(d: ClaimedDelivery): boolean {
  return typeof d.payload.account === 'string';
}

/** Approval news for a company's people (payload `{ approval: news, ... }`), not for a payee. */
export function isApprovalMessage(d: ClaimedDelivery): boolean {
  return typeof d.payload.approval === 'string';
}

/** What one batch reads once and shares between its messages. */
export interface SendBatch {
  accounts: Map<string, Promise<Account | undefined>>;
}

export interface SenderDeps {
  db: Db;
  config: Config;
  secret: Buffer;
  vault: Vault;
  /** null: SMTP is not configured. */
  mailer: Mailer | null;
  /** null: no SMS provider. */
  sms: SmsSender | null;
  webhooks: WebhookSender;
  now: () => number;
}

export class DeliverySender {
  private readonly vault: Vault;
  private readonly now: () => number;

  constructor(private readonly deps: SenderDeps) {
    this.vault = deps.vault;
    this.now = deps.now;
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
  private account(accountId: string, batch: SendBatch): Promise<Account | undefined> {
    let read = batch.accounts.get(accountId);
    if (read === undefined) {
      read = accounts.findAccountById(this.deps.db, accountId);
      batch.accounts.set(accountId, read);
    }
    return read;
  }

  private async content(d: ClaimedDelivery, batch: SendBatch): Promise<CheckMessageInput> {
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
  private async sendAccountMessage(d: ClaimedDelivery, batch: SendBatch): Promise<void> {
    const { config, secret } = this.deps;
    const purpose = d.payload.account;
    if (purpose === 'verify-phone') {
      if (this.deps.sms === null) throw new Error('no SMS provider is configured');
      await this.deps.sms.send(d.recipient, phoneCodeSms(phoneCode(secret, d.id)), d.id);
      return;
    }
    if (purpose === 'invite') return this.sendInvitation(d, batch);
    if (purpose === 'recovery-code-used') return this.sendRecoveryNotice(d, batch);
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

  /**
   * An invitation to join a company: mailed when queued live; one queued as a test (the inviter
   * chose the sandbox inbox to try the flow) lands in the company's sandbox inbox, nothing leaves.
   */
  private async sendInvitation(d: ClaimedDelivery, batch: SendBatch): Promise<void> {
    const { config } = this.deps;
    const account = await this.account(d.owner.accountId, batch);
    const text = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
    const link = `${config.publicUrl}/panel/join/${this.token(d, accountToken)}`;
    const email = invitationEmail({
      company: account === undefined ? 'a company' : senderName(account),
      inviter: text(d.payload.inviter, 'Someone'),
      role: text(d.payload.role, 'a member'),
      link,
    });
    // The invitation's link is a credential: the sandbox message does not repeat it in its link field.
    await this.toPersonOrSandbox(d, email, '');
  }

  /**
   * An approval email to a person of the company: for test data to the sandbox inbox (nothing
   * leaves the machine), for live data through the mailer.
   */
  private async sendApprovalMessage(d: ClaimedDelivery, batch: SendBatch): Promise<void> {
    const { config } = this.deps;
    const news = d.payload.approval;
    if (news !== 'waiting' && news !== 'approved' && news !== 'rejected')
      throw new Permanent(`unknown approval message ${String(news)}`);
    const account = await this.account(d.owner.accountId, batch);
    const env = d.owner.env === 'live' ? '?env=live' : '';
    const input: ApprovalMessageInput = {
      news,
      company: account === undefined ? 'your company' : senderName(account),
      checks: Array.isArray(d.payload.checks) ? (d.payload.checks as ApprovalMessageInput['checks']) : [],
      reason: typeof d.payload.reason === 'string' ? d.payload.reason : null,
      link: `${config.publicUrl}/panel/${news === 'waiting' ? 'approvals' : 'checks'}${env}`,
    };
    await this.toPersonOrSandbox(d, approvalEmail(input), input.link);
  }

  /** A message to a person of the company: queued as a test, into the sandbox inbox; live, mailed. */
  private async toPersonOrSandbox(
    d: ClaimedDelivery,
    email: { subject: string; text: string; html: string },
    link: string,
  ): Promise<void> {
    const { config, db } = this.deps;
    if (d.owner.env === 'test') {
      const message: SandboxMessage = {
        id: newId('msg', this.now()),
        deliveryId: d.id,
        checkId: null,
        channel: 'email',
        recipient: d.recipient,
        subject: email.subject,
        text: email.text,
        html: email.html,
        link,
        attachments: [],
        createdAt: this.now(),
      };
      const keyId = await currentDataKeyId(db);
      await sandboxInbox.insertSandboxMessage(db, d.owner.accountId, sealSandboxMessage(this.vault, keyId, message));
      return;
    }
    if (this.deps.mailer === null) throw new Error('SMTP is not configured');
    await this.deps.mailer.send({
      messageId: `<${d.id}@checkwriter>`,
      from: config.delivery.mailFrom,
      to: d.recipient,
      ...email,
      attachments: [],
    });
  }

  /** The notice that a recovery code was used: it carries no token and no code. */
  private async sendRecoveryNotice(d: ClaimedDelivery, batch: SendBatch): Promise<void> {
    if (this.deps.mailer === null) throw new Error('SMTP is not configured');
    const account = await this.account(d.owner.accountId, batch);
    const usedAt = typeof d.payload.usedAt === 'number' ? d.payload.usedAt : d.createdAt;
    const email = recoveryCodeUsedEmail(
      account === undefined ? 'your' : senderName(account),
      new Date(usedAt).toISOString().slice(0, 16).replace('T', ' '),
    );
    await this.deps.mailer.send({
      messageId: `<${d.id}@checkwriter>`,
      from: this.deps.config.delivery.mailFrom,
      to: d.recipient,
      ...email,
      attachments: [],
    });
  }

  /** Builds the row's message and hands it to its channel; throws when it did not go. */
  async send(d: ClaimedDelivery, batch: SendBatch): Promise<void> {
    const { db, config } = this.deps;
    if (d.channel === 'webhook') return this.sendWebhook(d);
    if (isAccountMessage(d)) return this.sendAccountMessage(d, batch);
    if (isApprovalMessage(d)) return this.sendApprovalMessage(d, batch);
    const owner = d.owner;
    const input = await this.content(d, batch);
    const attachments =
      d.channel === 'email' && d.payload.sendAttachment === 1 && d.checkId !== null
        ? await attachmentStore.attachmentsWithData(db, owner, d.checkId)
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
      await sandboxInbox.insertSandboxMessage(db, owner.accountId, sealSandboxMessage(this.vault, keyId, message));
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
