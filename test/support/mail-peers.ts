// Real peers on loopback for what leaves the service: an SMTP server (smtp-server) that keeps every
// message it accepts, and an HTTP server that answers like the Twilio Messages API.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';

export interface ReceivedMail {
  messageId: string;
  raw: string;
}

export interface SmtpPeer {
  url: string;
  received: ReceivedMail[];
  /** Answer the next `n` messages with a temporary failure (451). */
  failNext(n: number): void;
  /** Answer every message with a temporary failure until called with false. */
  failAlways(on: boolean): void;
  close(): Promise<void>;
}

export async function startSmtpPeer(options: { delayMs?: number } = {}): Promise<SmtpPeer> {
  const received: ReceivedMail[] = [];
  let failures = 0;
  let always = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 20 * 1024 * 1024,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        if (options.delayMs !== undefined) await new Promise((r) => setTimeout(r, options.delayMs));
        if (always || failures > 0) {
          failures = Math.max(0, failures - 1);
          const error = new Error('try again later') as Error & { responseCode: number };
          error.responseCode = 451;
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const messageId = /^Message-ID:\s*(\S+)/im.exec(raw)?.[1] ?? '';
        received.push({ messageId, raw });
        callback();
      });
    },
  });
  // A client killed mid-conversation (the crash test's SIGKILL) resets its connection: expected here.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    failNext: (n) => {
      failures = n;
    },
    failAlways: (on) => {
      always = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function parseMail(raw: string): Promise<Awaited<ReturnType<typeof PostalMime.parse>>> {
  return PostalMime.parse(raw);
}

export interface SmsPeer {
  baseUrl: string;
  received: { path: string; authorization: string; form: URLSearchParams }[];
  /** Status to answer the next requests with (default 201). */
  answer(status: number): void;
  close(): Promise<void>;
}

export async function startSmsPeer(): Promise<SmsPeer> {
  const received: SmsPeer['received'] = [];
  let status = 201;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (status === 201)
        received.push({
          path: request.url ?? '',
          authorization: request.headers.authorization ?? '',
          form: new URLSearchParams(Buffer.concat(chunks).toString()),
        });
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          status === 201
            ? { sid: `SM${received.length}`, status: 'queued' }
            : { code: 21211, message: 'invalid number' },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    answer: (s) => {
      status = s;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The settings that point checkwriter's mailer and SMS provider (Twilio's API shape) at these peers. */
export function peerEnv(smtp: SmtpPeer, sms: SmsPeer): Record<string, string> {
  return {
    SMTP_URL: smtp.url,
    SMS_PROVIDER: 'twilio',
    SMS_BASE_URL: sms.baseUrl,
    SMS_ACCOUNT_SID: 'AC123',
    SMS_AUTH_TOKEN: 'secret-token',
    SMS_FROM: '+15005550006',
  };
}
