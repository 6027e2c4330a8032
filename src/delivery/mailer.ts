// Email leaves through SMTP (nodemailer, pooled connections). The interface is what the worker
// needs; tests use a real SMTP server on loopback as the peer.
import type { Transporter } from 'nodemailer';

export interface OutgoingEmail {
  /** Stable per delivery row, so a retried send is recognisable as the same message. */
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

export class SmtpMailer implements Mailer {
  readonly #url: string;
  /**
   * nodemailer is loaded by the first email, not at start-up: a server that sends none (or whose
   * outbox is drained by a separate worker) never needs it.
   */
  #transport: Promise<Transporter> | null = null;
  #closed = false;

  constructor(url: string) {
    // Pooled connections (nodemailer reads transport options from the URL's query) keep a busy
    // outbox from opening a connection per message.
    const pooled = new URL(url);
    if (!pooled.searchParams.has('pool')) pooled.searchParams.set('pool', 'true');
    if (!pooled.searchParams.has('maxConnections')) pooled.searchParams.set('maxConnections', '5');
    this.#url = pooled.toString();
  }

  #open(): Promise<Transporter> {
    this.#transport ??= import('nodemailer').then(({ createTransport }) => createTransport(this.#url));
    return this.#transport;
  }

  async send(email: OutgoingEmail): Promise<void> {
    if (this.#closed) throw new Error('the mailer is closed');
    const transport = await this.#open();
    await transport.sendMail({
      messageId: email.messageId,
      from: email.from,
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      attachments: email.attachments,
    });
  }

  close(): void {
    this.#closed = true;
    this.#transport?.then((transport) => transport.close()).catch(() => undefined);
  }
}
