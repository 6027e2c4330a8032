// Email delivery throughput: live emails queued through the API, then drained by one
// `checkwriter worker` process into a real SMTP server (smtp-server) in this process. The rate runs
// from the first message to the last accepted by the SMTP server; afterwards the messages the peer
// received are counted against those queued: none may be lost (nor sent twice).
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../../src/config.ts';
import { ApiKeys, ensureAccount } from '../../src/services/api-key.service.ts';
import { HttpClient } from '../http-client.ts';
import { createBasics } from '../fixtures.ts';
import { checkwriterBin } from '../package-commands.ts';
import { cpuProfileFlags, REPO_ROOT } from '../processes.ts';
import { fmt, TARGETS, type ScenarioContext, type ScenarioOutcome } from '../scenario.ts';

const EMAILS = 2000;
/** How long the worker may take for all of them before the rest count as lost. */
const GIVE_UP_MS = 120_000;
/** After the last expected message, how long to listen for duplicates. */
const SETTLE_MS = 1_000;

export interface EmailDetails {
  emails: number;
  /** Messages the SMTP peer accepted. */
  received: number;
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
  let lastAt = 0;
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
        lastAt = performance.now();
        received += 1;
        if (received === EMAILS) onAll();
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
    const { account } = await ensureAccount(ctx.database.db, {
      email: 'mail@bench.test',
      verified: true,
      phone: '+14155552671',
    });
    const { key } = await keys.create(account.id, 'live', 'bench');
    const client = new HttpClient(ctx.serverUrl, key);
    try {
      const basics = await createBasics(client, ['Acme Supplies']);
      for (let done = 0; done < EMAILS; done += 500) {
        const created = await client.json<CreatedReply>('POST', '/checks', 201, {
          checks: Array.from({ length: 500 }, () => ({
            bankAccountId: basics.bankAccountId,
            payeeId: basics.payees[0]?.id,
            amount: '25.00',
          })),
        });
        await client.json('POST', '/emailchecks', 200, {
          emailChecks: created.data.checks.map((c) => ({ checkId: c.checkId })),
        });
      }
    } finally {
      client.close();
    }
    const profile = ctx.profileDir === null ? [] : cpuProfileFlags(ctx.profileDir, 'worker');
    const worker = spawn(process.execPath, [...profile, checkwriterBin(), 'worker'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        ...ctx.database.env,
        LOG_LEVEL: 'warn',
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        DELIVERY_POLL_MS: '20',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const workerExit = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const start = performance.now();
    try {
      const done = await Promise.race([
        all.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), GIVE_UP_MS).unref()),
      ]);
      // A worker that sends some messages twice would reach the count early: listen a moment more.
      if (done) await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    } finally {
      // Waiting for the exit lets --cpu-prof write the worker's profile before the report reads it.
      worker.kill('SIGTERM');
      await workerExit;
    }
    // From the first message to the last: the worker process's start-up (loading the code,
    // connecting) is reported apart, not counted against the sending rate.
    const seconds = (lastAt - firstAt) / 1000;
    const perSec = received < 2 ? 0 : (received - 1) / seconds;
    const startup = received === 0 ? Number.NaN : (firstAt - start) / 1000;
    const rateTarget = TARGETS.emailPerSec[ctx.dialect];
    const lost = EMAILS - received;
    const accounted = lost === 0 ? 'none lost' : lost > 0 ? `${fmt(lost)} LOST` : `${fmt(-lost)} SENT TWICE`;
    return {
      details: { emails: EMAILS, received, seconds, startup, perSec },
      verdicts: [
        {
          scenario: `email: ${fmt(EMAILS)} live emails to a local SMTP server, one worker process`,
          measured: `${fmt(perSec)} emails/s, ${fmt(received)} received of ${fmt(EMAILS)} queued (${accounted}; ${fmt(seconds, 1)} s after ${fmt(startup, 1)} s of worker start-up)`,
          target:
            rateTarget === null
              ? 'none lost (rate reported: the target is for PostgreSQL)'
              : `≥ ${rateTarget} emails/s, none lost`,
          pass: lost === 0 && (rateTarget === null || perSec >= rateTarget),
          profile: 'worker',
        },
      ],
    };
  } finally {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
}
