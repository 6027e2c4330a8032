// Email delivery throughput: live emails queued through the API, then drained by a
// `checkwriter worker` process into a real SMTP server (smtp-server) in this process. Measured from
// the worker's start to the last message accepted by the SMTP server.
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../../src/config.ts';
import { ApiKeys, ensureAccount } from '../../src/services/api-key.service.ts';
import { HttpClient } from '../http-client.ts';
import { createBasics } from '../fixtures.ts';
import { REPO_ROOT } from '../processes.ts';
import { fmt, type ScenarioContext, type ScenarioOutcome } from '../scenario.ts';

export const EMAIL_TARGET_PER_SEC = 500;
const EMAILS = 2000;

export interface EmailDetails {
  emails: number;
  seconds: number;
  startup: number;
  perSec: number;
}

interface CreatedReply {
  data: { checks: { checkId: string }[] };
}

export async function runEmail(ctx: ScenarioContext): Promise<ScenarioOutcome<EmailDetails>> {
  let received = 0;
  let firstAt = 0;
  let onAll: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (onAll = resolve));
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        if (received === 0) firstAt = performance.now();
        received += 1;
        if (received >= EMAILS) onAll();
        callback();
      });
    },
  });
  smtp.on('error', () => undefined);
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  try {
    // A live key: test keys' mail goes to the sandbox inbox, not over SMTP.
    const keys = await ApiKeys.open(ctx.database.db, loadConfig(ctx.database.env));
    const { account } = await ensureAccount(ctx.database.db, { email: 'mail@bench.test', verified: true, phone: '+14155552671' });
    const { key } = await keys.create(account.id, 'live', 'bench');
    const client = new HttpClient(ctx.serverUrl, key);
    try {
      const basics = await createBasics(client, ['Acme Supplies']);
      for (let done = 0; done < EMAILS; done += 500) {
        const created = await client.json<CreatedReply>('POST', '/checks', 201, { checks: Array.from({ length: 500 }, () => ({ bankAccountId: basics.bankAccountId, payeeId: basics.payees[0]?.id, amount: '25.00' })) });
        await client.json('POST', '/emailchecks', 200, { emailChecks: created.data.checks.map((c) => ({ checkId: c.checkId })) });
      }
    } finally {
      client.close();
    }
    const worker = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'checkwriter.js'), 'worker'], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...ctx.database.env, LOG_LEVEL: 'warn', SMTP_URL: `smtp://127.0.0.1:${port}`, DELIVERY_POLL_MS: '20' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const start = performance.now();
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`email: only ${received} of ${EMAILS} messages arrived in 120 s`)), 120_000).unref());
    try {
      await Promise.race([all, timeout]);
    } finally {
      worker.kill('SIGTERM');
    }
    const end = performance.now();
    // From the first message to the last: the worker process's start-up (loading TypeScript,
    // connecting) is reported apart, not counted against the sending rate.
    const seconds = (end - firstAt) / 1000;
    const perSec = (EMAILS - 1) / seconds;
    const startup = (firstAt - start) / 1000;
    return {
      details: { emails: EMAILS, seconds, startup, perSec },
      verdicts: [
        {
          scenario: `email: ${fmt(EMAILS)} live emails to a local SMTP server (one worker process)`,
          measured: `${fmt(perSec)} emails/s (${fmt(seconds, 1)} s, after ${fmt(startup, 1)} s of worker start-up)`,
          target: `≥ ${EMAIL_TARGET_PER_SEC} emails/s`,
          pass: perSec >= EMAIL_TARGET_PER_SEC,
        },
      ],
    };
  } finally {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
}
