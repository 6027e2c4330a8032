// Every setting the service reads, in one place, read once and frozen. The CLI, the server and
// the tests all build their configuration here so a variable means the same thing everywhere.
import { availableParallelism } from 'node:os';
import { redactUrlPassword } from './domain/redact.ts';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
/** `auto`: readable lines on a terminal, JSON otherwise (src/log-stream.ts). */
export type LogFormat = 'auto' | 'json' | 'pretty';

export interface DatabaseConfig {
  readonly kind: 'sqlite' | 'postgres';
  /** File path for SQLite, connection string for PostgreSQL. */
  readonly url: string;
  /** PostgreSQL only: the schema to use (search_path); lets tests and tenants share a server. */
  readonly schema: string | null;
  /** PostgreSQL only: the connection pool and its timeouts (docs/operations.md, "Settings"). */
  readonly pool?: PoolConfig;
  /**
   * How long start-up waits for the database to answer (and, on PostgreSQL, to accept writes when
   * migrations are due) before giving up; 0: try once. Retried with backoff, logged.
   */
  readonly waitSeconds?: number;
}

export interface PoolConfig {
  /** Connections per process. */
  readonly size: number;
  /** Giving up on opening a connection (and on waiting for a free one) after this long. */
  readonly connectTimeoutMs: number;
  /** PostgreSQL cancels a statement running longer (statement_timeout); 0: no limit. Migrations are exempt. */
  readonly statementTimeoutMs: number;
  /** PostgreSQL ends a session idle inside an open transaction this long (idle_in_transaction_session_timeout); 0: no limit. */
  readonly idleInTransactionTimeoutMs: number;
  /** An idle pooled connection is closed after this long. */
  readonly idleTimeoutMs: number;
  /** TCP keepalive on every connection: first probe after this many seconds idle; 0: off. */
  readonly keepAliveSeconds: number;
}

export interface SmsConfig {
  /** `twilio`: the Twilio-compatible Messages API; `log`: write messages to the log only; `none`: keep live SMS queued. */
  readonly provider: 'twilio' | 'log' | 'none';
  readonly baseUrl: string;
  readonly accountSid: string;
  readonly authToken: string;
  readonly from: string;
}

export interface DeliveryConfig {
  /** Run the outbox worker inside the server process (`inline`) or only as `checkwriter worker` (`off`). */
  readonly worker: 'inline' | 'off';
  /** SMTP connection URL (smtp://user:pass@host:587, smtps://...); empty: live email stays queued. */
  readonly smtpUrl: string;
  readonly mailFrom: string;
  readonly sms: SmsConfig;
  readonly maxAttempts: number;
  /** First retry delay; each further one doubles (with jitter), capped at an hour. */
  readonly retryBaseMs: number;
  /** How long a claimed row stays with its worker before another may take it. */
  readonly leaseMs: number;
  readonly pollMs: number;
  readonly payeeLinkDays: number;
}

/** Prometheus metrics (docs/operations.md); off when neither the token nor the port is set. */
export interface MetricsConfig {
  /** Bearer token for `GET /metrics` on the API's port; empty: not served there. */
  readonly token: string;
  /** A separate listener for `GET /metrics` (on `host` below); null: none. */
  readonly port: number | null;
  readonly host: string;
}

/**
 * The worker pool for heavy work (src/heavy-work/: PDF rendering, positive pay files): how many
 * threads, how many tasks may wait, and what one task may cost before it is stopped, so one
 * hostile task cannot hold the server.
 */
export interface HeavyWorkConfig {
  /** Worker threads; 0 runs every task on the main thread, without caps (a baseline, not for service). */
  readonly threads: number;
  /** Tasks that may wait for a thread; one more is answered 503 with Retry-After. */
  readonly queue: number;
  /** Old-generation heap of each worker thread (resourceLimits.maxOldGenerationSizeMb). */
  readonly heapMb: number;
  /** The longest a task may run, from its start in a thread; it is stopped past it. */
  readonly deadlineMs: number;
}

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly publicUrl: string;
  readonly database: DatabaseConfig;
  readonly logLevel: LogLevel;
  readonly logFormat: LogFormat;
  /** Requests per second per API key; 0 turns rate limiting off. */
  readonly rateLimitPerKey: number;
  /**
   * Failed requests a minute per client address (API requests without a valid key, unknown
   * paths) before they are answered 429; bursts up to the same number. 0 turns the limit off.
   */
  readonly failedRequestsPerMinute: number;
  readonly bodyLimitBytes: number;
  /**
   * The server secret (signs API keys, derives payee links, account tokens and the data keys that
   * encrypt bank account numbers), given directly. Empty: it is kept in `secretFile`. Never in the database.
   */
  readonly keySigningSecret: string;
  /**
   * Where the server secret is kept when KEY_SIGNING_SECRET is empty: created (mode 0600) on first
   * start. SQLite default: `<database name>.secret` beside the database file; PostgreSQL has no
   * default (one of the two must be set).
   */
  readonly secretFile: string;
  readonly webhooksAllowPrivate: boolean;
  /**
   * Which X-Forwarded-For entries to believe: false (none), a number of proxy hops (`true` is one:
   * the right-most entry, the one the proxy appended), or comma-separated proxy addresses/CIDRs.
   * It decides the client address every per-address limit counts by (http/trust-proxy.ts).
   */
  readonly trustProxy: false | number | string;
  readonly delivery: DeliveryConfig;
  readonly metrics: MetricsConfig;
  readonly heavyWork: HeavyWorkConfig;
  /**
   * SIGTERM: how long in-flight requests, the delivery worker's batch and a running import get to
   * finish before the process closes anyway (docs/operations.md, "Shutdown").
   */
  readonly shutdownTimeoutMs: number;
  /** SIGTERM: how long /readyz answers 503 before the listener closes, so a load balancer stops sending first. */
  readonly shutdownDrainMs: number;
  /** Panel sessions: signed out after this many minutes without a request (SESSION_IDLE_MINUTES). */
  readonly sessionIdleMinutes: number;
  /** Panel sessions: signed out this many hours after signing in, however busy (SESSION_MAX_HOURS). */
  readonly sessionMaxHours: number;
  /**
   * Owners, admins and approvers must enrol a second factor before anything else, and an owner may
   * require it of everyone (SECOND_FACTOR_REQUIRED, default true; `false` only for a trial install
   * or tests that are not about the factor).
   */
  readonly secondFactorRequired: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** The pool settings (README's configuration table). */
export function loadPoolConfig(env: NodeJS.ProcessEnv): PoolConfig {
  return Object.freeze({
    size: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    connectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5_000, 100, 600_000),
    statementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 60_000, 0, 86_400_000),
    idleInTransactionTimeoutMs: integer(env, 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', 60_000, 0, 86_400_000),
    idleTimeoutMs: integer(env, 'DATABASE_IDLE_TIMEOUT_MS', 30_000, 100, 86_400_000),
    keepAliveSeconds: integer(env, 'DATABASE_KEEPALIVE_SECONDS', 30, 0, 86_400),
  });
}

export const DEFAULT_POOL: PoolConfig = loadPoolConfig({});

export function parseDatabaseUrl(
  raw: string | undefined,
  schema: string | undefined,
  pool: PoolConfig = DEFAULT_POOL,
  waitSeconds = 60,
): DatabaseConfig {
  const value = raw === undefined || raw === '' ? 'sqlite:./data/checkwriter.db' : raw;
  if (value.startsWith('postgres://') || value.startsWith('postgresql://')) {
    const cleanSchema = schema === undefined || schema === '' ? null : schema;
    if (cleanSchema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(cleanSchema)) {
      throw new ConfigError(`DATABASE_SCHEMA must be a lower-case SQL identifier, got "${cleanSchema}"`);
    }
    return Object.freeze({ kind: 'postgres', url: value, schema: cleanSchema, pool, waitSeconds });
  }
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === '') throw new ConfigError('DATABASE_URL=sqlite: needs a file path, e.g. sqlite:./data/checkwriter.db');
    return Object.freeze({ kind: 'sqlite', url: path, schema: null, pool, waitSeconds });
  }
  throw new ConfigError(`DATABASE_URL must start with sqlite: or postgres://, got "${redactUrlPassword(value)}"`);
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw))
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

function loadDeliveryConfig(env: NodeJS.ProcessEnv): DeliveryConfig {
  const smtpUrl = env.SMTP_URL ?? '';
  if (smtpUrl !== '' && !/^smtps?:\/\//.test(smtpUrl))
    throw new ConfigError('SMTP_URL must start with smtp:// or smtps://');
  const provider = oneOf(env, 'SMS_PROVIDER', ['twilio', 'log', 'none'] as const, 'none');
  const sms: SmsConfig = Object.freeze({
    provider,
    baseUrl: (env.SMS_BASE_URL ?? 'https://api.twilio.com').replace(/\/+$/, ''),
    accountSid: env.SMS_ACCOUNT_SID ?? '',
    authToken: env.SMS_AUTH_TOKEN ?? '',
    from: env.SMS_FROM ?? '',
  });
  if (provider === 'twilio' && (sms.accountSid === '' || sms.authToken === '' || sms.from === '')) {
    throw new ConfigError('SMS_PROVIDER=twilio needs SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM');
  }
  return Object.freeze({
    worker: oneOf(env, 'DELIVERY_WORKER', ['inline', 'off'] as const, 'inline'),
    smtpUrl,
    mailFrom: env.MAIL_FROM !== undefined && env.MAIL_FROM !== '' ? env.MAIL_FROM : 'checkwriter <no-reply@localhost>',
    sms,
    maxAttempts: integer(env, 'DELIVERY_MAX_ATTEMPTS', 8, 1, 100),
    retryBaseMs: integer(env, 'DELIVERY_RETRY_BASE_MS', 30_000, 1, 86_400_000),
    leaseMs: integer(env, 'DELIVERY_LEASE_MS', 60_000, 100, 86_400_000),
    pollMs: integer(env, 'DELIVERY_POLL_MS', 500, 10, 60_000),
    payeeLinkDays: integer(env, 'PAYEE_LINK_DAYS', 30, 1, 3650),
  });
}

/** The secret file beside a SQLite database: `data/checkwriter.db` -> `data/checkwriter.secret`. */
export function defaultSecretFile(database: DatabaseConfig): string {
  if (database.kind !== 'sqlite' || database.url === ':memory:') return '';
  const slash = database.url.lastIndexOf('/') + 1;
  const dir = database.url.slice(0, slash);
  const base = database.url.slice(slash).replace(/\.(db|sqlite3?)$/i, '');
  return `${dir}${base}.secret`;
}

// Entries left of the ones our own proxies appended are written by the client: `true` used to
// believe the left-most of them, so a client could pick any address to be counted as. Now `true`
// is one hop and a number that many; only a list of proxies walks further, past known proxies.
function parseTrustProxy(raw: string | undefined): false | number | string {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return 1;
  if (/^[0-9]+$/.test(value)) {
    const hops = Number(value);
    if (hops > 16) throw new ConfigError('TRUST_PROXY as a number of proxy hops must be at most 16');
    return hops;
  }
  if (!/^[0-9A-Fa-f.:/, ]+$/.test(value))
    throw new ConfigError(
      'TRUST_PROXY must be false, true (one proxy), a number of proxy hops, or comma-separated proxy addresses/CIDRs',
    );
  return value;
}

function loadMetricsConfig(env: NodeJS.ProcessEnv): MetricsConfig {
  const token = env.METRICS_TOKEN ?? '';
  if (token !== '' && Buffer.byteLength(token) < 32)
    throw new ConfigError('METRICS_TOKEN must be at least 32 characters (e.g. openssl rand -base64 32)');
  const port =
    env.METRICS_PORT === undefined || env.METRICS_PORT === '' ? null : integer(env, 'METRICS_PORT', 0, 0, 65535);
  const host = env.METRICS_HOST !== undefined && env.METRICS_HOST !== '' ? env.METRICS_HOST : '127.0.0.1';
  return { token, port, host };
}

function loadHeavyWorkConfig(env: NodeJS.ProcessEnv): HeavyWorkConfig {
  return Object.freeze({
    threads: integer(env, 'HEAVY_WORK_THREADS', availableParallelism(), 0, 256),
    queue: integer(env, 'HEAVY_WORK_QUEUE', 32, 0, 100_000),
    heapMb: integer(env, 'HEAVY_WORK_HEAP_MB', 256, 16, 16_384),
    deadlineMs: integer(env, 'HEAVY_WORK_DEADLINE_MS', 30_000, 10, 3_600_000),
  });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const host = env.HOST !== undefined && env.HOST !== '' ? env.HOST : '127.0.0.1';
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const logLevel = (env.LOG_LEVEL ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const database = parseDatabaseUrl(
    env.DATABASE_URL,
    env.DATABASE_SCHEMA,
    loadPoolConfig(env),
    integer(env, 'DATABASE_WAIT_SECONDS', 60, 0, 86_400),
  );
  const keySigningSecret = env.KEY_SIGNING_SECRET ?? '';
  if (keySigningSecret !== '' && Buffer.byteLength(keySigningSecret) < 32)
    throw new ConfigError('KEY_SIGNING_SECRET must be at least 32 characters (e.g. openssl rand -base64 32)');
  const secretFile =
    env.SECRET_FILE !== undefined && env.SECRET_FILE !== '' ? env.SECRET_FILE : defaultSecretFile(database);
  if (keySigningSecret === '' && secretFile === '') {
    throw new ConfigError(
      'PostgreSQL deployments must keep the server secret outside the database: set KEY_SIGNING_SECRET (at least 32 random characters) ' +
        'or SECRET_FILE (a file checkwriter creates with mode 0600 on first start). See docs/secrets.md.',
    );
  }
  const publicUrl = (
    env.PUBLIC_URL !== undefined && env.PUBLIC_URL !== '' ? env.PUBLIC_URL : `http://${host}:${port}`
  ).replace(/\/+$/, '');
  return Object.freeze({
    host,
    port,
    publicUrl,
    database,
    logLevel,
    logFormat: oneOf<LogFormat>(env, 'LOG_FORMAT', ['auto', 'json', 'pretty'], 'auto'),
    rateLimitPerKey: integer(env, 'RATE_LIMIT_PER_KEY', 200, 0, 1_000_000),
    failedRequestsPerMinute: integer(env, 'FAILED_REQUEST_LIMIT_PER_MINUTE', 60, 0, 1_000_000),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 2 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    keySigningSecret,
    secretFile,
    webhooksAllowPrivate: env.WEBHOOKS_ALLOW_PRIVATE === 'true',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    delivery: loadDeliveryConfig(env),
    metrics: loadMetricsConfig(env),
    heavyWork: loadHeavyWorkConfig(env),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 25_000, 0, 3_600_000),
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 30, 1, 10_080),
    sessionMaxHours: integer(env, 'SESSION_MAX_HOURS', 12, 1, 720),
    secondFactorRequired: env.SECOND_FACTOR_REQUIRED !== 'false',
    shutdownDrainMs: integer(env, 'SHUTDOWN_DRAIN_MS', 0, 0, 600_000),
  });
}
