// `checkwriter <command>`: serve (what npm start runs), migrate, keys (keys.ts), secret rotate,
// people link, accounts verify, and the office's commands in their own files. Uses the same
// configuration as the server (DATABASE_URL and friends). This entry point alone opens the
// database and hands each command what it needs (src/layers.ts).
import { renameSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Vault } from '../domain/sealed.ts';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { ApiKeys, verifyAccount } from '../services/api-key.service.ts';
import { passwordLink } from '../services/account.service.ts';
import type { Db } from '../store/db.ts';
import { anyActiveApiKey } from '../services/operator.service.ts';
import type { ServiceContext } from '../services/context.ts';
import { InlineHeavyWork } from '../heavy-work/inline.ts';
import type { CommandSession, OpenSession } from './command-context.ts';
import { migrate } from '../store/migrate.ts';
import { connectOrExplain } from '../store/connect.ts';
import { logDestination } from '../log-stream.ts';
import { readOrCreateSecretFile, recordSecretCheck, SecretFileError } from '../store/server-secret.ts';
import { noMoreArguments, quoted, required, UsageError } from './command-helpers.ts';
import { keysCommand } from './keys.ts';

// What only some commands need (the HTTP server, the panel, PDF rendering, the delivery worker) is
// imported inside those commands, so `keys create` starts in a fraction of the server's time
// (`npx checkwriter keys create` is meant to answer within 1 s).

const USAGE = `Usage: checkwriter <command>

Commands:
  serve                                   run the API (npm start)
  worker                                  run only the delivery worker (email, SMS)
  migrate                                 apply database migrations
  keys create --email EMAIL [--env test|live] [--name NAME] [--company NAME] [--phone PHONE] [--unverified]
                                          create an API key (and the account when it is new);
                                          --company sets the sender name payees see (new or
                                          existing account); the key alone is the last line of output
  keys list [--email EMAIL]               list keys (never the keys themselves)
  keys revoke KEY_ID                      revoke a key; the API refuses it at once
  keys rotate-encryption [--previous-secret-file PATH]
                                          make a new data key current and re-encrypt every bank
                                          account number under it; with the replaced server
                                          secret's file, move them to the new secret (docs/secrets.md)
  secret rotate --new-secret-file PATH    re-seal every sealed value under a new server secret (the
                                          file's, or a random one written there) and record it as
                                          this database's, in one transaction; the secret file is
                                          replaced. API keys made before stop working (docs/operations.md)
  people link --email EMAIL               print a one-time link (valid 1 hour) to set the panel
                                          password of the person with that email
  accounts verify --email EMAIL [--only email|phone]
                                          mark an account's email and phone verified
  mailings list [--status queued|dispatched|cancelled]
                                          the print-and-mail queue (operator)
  mailings dispatch MAILING_ID            mark a mailing dispatched: its check becomes mailed
  mailings cancel MAILING_ID              cancel a queued mailing: its check becomes refunded
  positive-pay export --email EMAIL --bank-account ID --from YYYY-MM-DD --to YYYY-MM-DD
                     [--format csv|fixed] [--env test|live] [--out FILE]
                                          write a bank account's positive pay file (stdout
                                          unless --out) and record the export
  reconcile FILE --email EMAIL --bank-account ID [--env test|live] [--cleared-date YYYY-MM-DD]
                                          clear the checks the bank's file (CSV, OFX/QFX or BAI2)
                                          says were paid, as the API's clearedItems; rows that
                                          do not match change nothing (docs/reconciliation.md)
  backup --out FILE                       SQLite: an online, consistent copy of the database while
                                          servers write (restore: docs/operations.md);
                                          PostgreSQL: use pgBackRest (deploy/pgbackrest)
  import checks|payees FILE.csv --email EMAIL [--env test|live] [--bank-account ID]
         [--create-payees] [--date-order mdy|dmy] [--money-out negative] [--map COLUMN=FIELD ...]
                                          import a CSV file, all or nothing (docs/imports.md);
                                          every row's errors are printed when it is refused

  approvals set --email OWNER --threshold AMOUNT --approvers 1|2|0 [--bank-account ID]
                                          checks at or above AMOUNT dollars (0: every check) need
                                          that many approvals; 0 approvers removes the rule
                                          (docs/approvals.md)
  audit verify                            check every company's audit trail chain: prints each
                                          company's record count and OK, or the first record
                                          that does not fit; exits 1 if any does not

Configuration comes from the environment: DATABASE_URL (default sqlite:./data/checkwriter.db),
HOST, PORT, LOG_LEVEL, PUBLIC_URL, RATE_LIMIT_PER_KEY, KEY_SIGNING_SECRET or SECRET_FILE. See the README.`;

async function withDb<T>(config: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await connectOrExplain(config.database);
  try {
    await migrate(db, config);
    return await fn(db);
  } finally {
    await db.close();
  }
}

// The ServiceContext a command builds for itself: the database it opened, the server secret's keys
// and heavy work on its own thread — a command serves nobody else while it works, so a worker pool
// would only add its start-up (docs/architecture.md, src/heavy-work/).
function commandContext(db: Db, config: Config, keys: ApiKeys): ServiceContext {
  return { db, config, now: Date.now, secret: keys.secret, vault: keys.vault, heavyWork: new InlineHeavyWork() };
}

function sessionOf(db: Db, config: Config): CommandSession {
  return { db, context: async () => commandContext(db, config, await ApiKeys.open(db, config)) };
}

function openSession(config: Config): OpenSession {
  return (run) => withDb(config, (db) => run(sessionOf(db, config)));
}

async function serve(config: Config): Promise<void> {
  const [{ closeOnSignals, startServer }, { deliveryStatus }] = await Promise.all([
    import('../server.ts'),
    import('../delivery-worker.ts'),
  ]);
  const server = await startServer(config);
  closeOnSignals(server, config);
  const anyKey = await anyActiveApiKey(server.db);
  const base = `${server.url}/api/v3`;
  const delivery = deliveryStatus(config);
  const lines = [
    '',
    `checkwriter is listening on ${server.url} (database: ${config.database.kind})`,
    `  panel:    ${server.url}/panel   (sign up, verify, make API keys)`,
    `  API:      ${base}   (docs: ${base}/docs, OpenAPI: ${base}/openapi.json)`,
    `  health:   ${server.url}/healthz (alive)   ${server.url}/readyz (can write)`,
    `  delivery: worker ${delivery.worker === 'inline' ? 'running in this process' : 'off (run npx checkwriter worker)'}; email ${delivery.smtp}; SMS ${delivery.sms}`,
  ];
  if (server.metricsUrl !== null) lines.push(`  metrics:  ${server.metricsUrl}`);
  else if (config.metrics.token !== '') lines.push(`  metrics:  ${server.url}/metrics   (Bearer METRICS_TOKEN)`);
  if (!anyKey) {
    lines.push(
      '',
      'No API keys yet. Sign up in the panel and create one there:',
      `  ${server.url}/panel/sign-up`,
      'or create a test key in another terminal with:',
      '  npx checkwriter keys create --email you@example.com',
      '',
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * `checkwriter secret rotate`: the current secret must match the database (ApiKeys.open checks
 * it); every sealed value is opened with it and sealed under the new one, and the new secret's
 * check value recorded, in one transaction. API keys are signed by the secret and are not kept
 * by the database, so they cannot be signed again: they stop working (a rotation is for a secret
 * that may have leaked, and then its keys must stop too). Then the new secret takes the old
 * one's place: the file is renamed over it (the old one kept as .previous, for older backups).
 */
async function rotateSecret(db: Db, config: Config, target: string): Promise<number> {
  const keys = await ApiKeys.open(db, config);
  const next = readOrCreateSecretFile(target);
  if (next.equals(keys.secret)) throw new UsageError(`${target} holds the current secret: give a new one`);
  const { rotateDataKey } = await import('../services/data-keys.service.ts');
  const { withdrawRecoveryCodesForNewSecret } = await import('../services/people/second-factor.service.ts');
  let withdrawn = 0;
  const rotation = await rotateDataKey(db, new Vault(next), keys.vault, async (tx) => {
    await recordSecretCheck(tx, next);
    withdrawn = await withdrawRecoveryCodesForNewSecret(tx);
  });
  const lines = [
    `the server secret was rotated: ${rotation.resealed} bank account numbers, ${rotation.sandboxResealed} sandbox messages and ${rotation.totpResealed} authenticator app secrets re-sealed under data key ${rotation.keyId} of the new secret (was ${rotation.previousKeyId}); the database now answers to the new secret only`,
    'API keys and payee links made with the old secret no longer work: create new API keys (docs/operations.md, "Rotating the secret")',
    `recovery codes were withdrawn from ${withdrawn} ${withdrawn === 1 ? 'person' : 'people'} (they were keyed by the old secret): each makes new ones on /panel/security; authenticator apps and passkeys keep working`,
  ];
  if (config.keySigningSecret !== '') {
    lines.push(`set KEY_SIGNING_SECRET to the contents of ${target} before the next start, then delete that file`);
  } else {
    renameSync(config.secretFile, `${config.secretFile}.previous`);
    renameSync(target, config.secretFile);
    lines.push(
      `${config.secretFile} holds the new secret; the old one is ${config.secretFile}.previous (backups taken before now need it)`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/** `--help` or `-h` anywhere asks for the usage: nothing is configured, opened or started. */
function asksForHelp(argv: readonly string[]): boolean {
  const options = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  return options[0] === 'help' || options.includes('--help') || options.includes('-h');
}

/** serve, worker and migrate are configured by the environment alone: an argument is a mistake, not ignored. */
function noArguments(command: string, args: readonly (string | undefined)[]): void {
  const given = args.filter((a) => a !== undefined);
  if (given.length > 0)
    throw new UsageError(
      `${command} takes no arguments (got ${quoted(given)}); it is configured by the environment (PORT, DATABASE_URL, …: see the README)`,
    );
}

/** node:util's parseArgs refusing what it was given (an unknown option, a missing value): a usage error. */
function isArgumentError(error: unknown): error is Error {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

export async function main(argv: string[]): Promise<number> {
  if (asksForHelp(argv)) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [command, sub, ...rest] = argv;
  if (command === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return 1;
  }
  if (command === 'serve' || command === 'worker' || command === 'migrate') noArguments(command, [sub, ...rest]);
  const config = loadConfig();
  switch (command) {
    case 'serve':
      await serve(config);
      return -1;
    case 'worker': {
      const [{ openDatabase }, { buildDeliveryWorker, deliveryStatus }, { pino }, { Metrics }, { listenForMetrics }] =
        await Promise.all([
          import('../server.ts'),
          import('../delivery-worker.ts'),
          import('pino'),
          import('../metrics.ts'),
          import('../metrics-server.ts'),
        ]);
      const db = await openDatabase(config);
      // A refused secret (server-secret.ts) closes the pool, so the process ends with its message.
      const keys = await ApiKeys.open(db, config).catch(async (error: unknown) => {
        await db.close().catch(() => undefined);
        throw error;
      });
      const destination = await logDestination(config.logFormat);
      const log = pino({ level: config.logLevel }, destination);
      // A worker process has no API port: its figures are served only on METRICS_PORT.
      const metrics = config.metrics.port === null ? undefined : new Metrics();
      if (metrics !== undefined) {
        const { outboxDepth } = await import('../store/outbox.repository.ts');
        metrics.watchOutbox(() => outboxDepth(db, Date.now()));
        metrics.watchStorage(() => db.storage());
      }
      const { worker, close } = buildDeliveryWorker(config, db, keys.secret, log, metrics);
      const metricsListener =
        metrics === undefined || config.metrics.port === null
          ? null
          : await listenForMetrics(metrics, config.metrics.host, config.metrics.port, config.metrics.token);
      if (metricsListener !== null) log.info({ url: metricsListener.url }, 'metrics listening');
      worker.start();
      const status = deliveryStatus(config);
      log.info({ smtp: status.smtp, sms: status.sms }, 'delivery worker started');
      const stop = (): void => {
        close()
          .then(() => metricsListener?.close())
          .then(() => db.close())
          .then(() => process.exit(0))
          .catch(() => process.exit(1));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return -1;
    }
    case 'migrate': {
      const db = await connectOrExplain(config.database);
      const applied = await migrate(db, config).finally(() => db.close());
      process.stdout.write(
        `migrations applied${applied.length === 0 ? '' : `: ${applied.join(', ')}`}; the ${config.database.kind} database is up to date\n`,
      );
      return 0;
    }
    case 'keys':
      return withDb(config, (db) => keysCommand(db, config, sub, rest));
    case 'secret': {
      const args = parseArgs({ args: rest, options: { 'new-secret-file': { type: 'string' } } });
      if (sub !== 'rotate') throw new UsageError(`unknown secret command "${sub ?? ''}"`);
      const target = required(args.values['new-secret-file'], '--new-secret-file');
      return withDb(config, (db) => rotateSecret(db, config, target));
    }
    case 'people': {
      const args = parseArgs({ args: rest, options: { email: { type: 'string' } } });
      if (sub !== 'link') throw new UsageError(`unknown people command "${sub ?? ''}"`);
      const email = required(args.values.email, '--email');
      const link = await withDb(config, (db) => passwordLink(db, config.publicUrl, email));
      if (link === undefined) throw new AppError('not_found', `no person with email ${email}`);
      process.stderr.write('One use, within 1 hour: it sets the password and signs nobody in.\n');
      process.stdout.write(`${link}\n`);
      return 0;
    }
    case 'accounts': {
      const args = parseArgs({ args: rest, options: { email: { type: 'string' }, only: { type: 'string' } } });
      if (sub !== 'verify') throw new UsageError(`unknown accounts command "${sub ?? ''}"`);
      const email = required(args.values.email, '--email');
      const only = args.values.only;
      if (only !== undefined && only !== 'email' && only !== 'phone')
        throw new UsageError('--only must be email or phone');
      const account = await withDb(config, (db) =>
        verifyAccount(db, email, { email: only !== 'phone', phone: only !== 'email' }),
      );
      process.stdout.write(
        `account ${account.id}: email ${account.emailVerified ? 'verified' : 'unverified'}, phone ${account.phoneVerified ? 'verified' : 'unverified'}\n`,
      );
      return 0;
    }
    case 'mailings': {
      const args = parseArgs({ args: rest, allowPositionals: true, options: { status: { type: 'string' } } });
      const { operatorQueue, operatorSettle } = await import('../services/mailing.service.ts');
      return withDb(config, async (db) => {
        if (sub === 'list') {
          noMoreArguments(args.positionals, 'mailings list');
          const status = args.values.status ?? null;
          if (status !== null && status !== 'queued' && status !== 'dispatched' && status !== 'cancelled')
            throw new UsageError('--status must be queued, dispatched or cancelled');
          const queue = await operatorQueue(db, status);
          for (const m of queue) {
            process.stdout.write(
              `${m.id}\t${m.status}\t${m.checkId}\tshipping ${m.shippingTypeId}\tpaper ${m.paperTypeId}\t${m.owner.env}\t${new Date(m.createdAt).toISOString()}\n`,
            );
          }
          if (queue.length === 0) process.stdout.write('no mailings\n');
          return 0;
        }
        if (sub === 'dispatch' || sub === 'cancel') {
          const mailingId = required(args.positionals[0], 'MAILING_ID');
          noMoreArguments(args.positionals.slice(1), `mailings ${sub}`);
          const mailing = await operatorSettle(db, mailingId, sub === 'dispatch' ? 'dispatched' : 'cancelled');
          process.stdout.write(
            `${mailing.id} ${mailing.status}: check ${mailing.checkId} is now ${sub === 'dispatch' ? 'mailed' : 'refunded'}\n`,
          );
          return 0;
        }
        throw new UsageError(`unknown mailings command "${sub ?? ''}"`);
      });
    }
    case 'positive-pay': {
      const { positivePayCommand } = await import('./positive-pay.ts');
      return withDb(config, (db) => positivePayCommand(sessionOf(db, config), sub, rest));
    }
    case 'backup': {
      const [{ backupCommand }, { backupSqlite }] = await Promise.all([
        import('./backup.ts'),
        import('../store/sqlite-backup.ts'),
      ]);
      return backupCommand(config, sub === undefined ? rest : [sub, ...rest], backupSqlite);
    }
    case 'reconcile': {
      const { reconcileCommand } = await import('./reconcile.ts');
      return withDb(config, (db) => reconcileCommand(sessionOf(db, config), sub === undefined ? rest : [sub, ...rest]));
    }
    case 'audit': {
      const { auditCommand } = await import('./audit.ts');
      return withDb(config, (db) => auditCommand(db, sub, (line) => process.stdout.write(`${line}\n`), rest));
    }
    case 'approvals': {
      const { approvalsCommand } = await import('./approvals.ts');
      return withDb(config, (db) =>
        approvalsCommand(sessionOf(db, config), sub, rest, (line) => process.stdout.write(`${line}\n`)),
      );
    }
    case 'import': {
      const { importCommand } = await import('./import.ts');
      return importCommand(sub, rest, openSession(config));
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    const usage = error instanceof UsageError || isArgumentError(error);
    if (usage || error instanceof ConfigError || error instanceof AppError || error instanceof SecretFileError) {
      process.stderr.write(`checkwriter: ${error.message}\n${usage ? `\n${USAGE}\n` : ''}`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`checkwriter: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
