// Every setting the service reads, in one place, read once and frozen. The CLI, the server and
// the tests all build their configuration here so a variable means the same thing everywhere.
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
   * Which proxies' X-Forwarded-For to believe (Fastify's trustProxy): false, true (any), or
   * comma-separated addresses/CIDRs. It decides the client address the panel's sign-in limits count by.
   */
  readonly trustProxy: boolean | string;
  readonly delivery: DeliveryConfig;
  readonly metrics: MetricsConfig;
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

export function parseDatabaseUrl(raw: string | undefined, schema: string | undefined): DatabaseConfig {
  const value = raw === undefined || raw === '' ? 'sqlite:./data/checkwriter.db' : raw;
  if (value.startsWith('postgres://') || value.startsWith('postgresql://')) {
    const cleanSchema = schema === undefined || schema === '' ? null : schema;
    if (cleanSchema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(cleanSchema)) {
      throw new ConfigError(`DATABASE_SCHEMA must be a lower-case SQL identifier, got "${cleanSchema}"`);
    }
    return Object.freeze({ kind: 'postgres', url: value, schema: cleanSchema });
  }
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === '') throw new ConfigError('DATABASE_URL=sqlite: needs a file path, e.g. sqlite:./data/checkwriter.db');
    return Object.freeze({ kind: 'sqlite', url: path, schema: null });
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

function parseTrustProxy(raw: string | undefined): boolean | string {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (!/^[0-9A-Fa-f.:/, ]+$/.test(value))
    throw new ConfigError('TRUST_PROXY must be true, false, or comma-separated proxy addresses/CIDRs');
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const host = env.HOST !== undefined && env.HOST !== '' ? env.HOST : '127.0.0.1';
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const logLevel = (env.LOG_LEVEL ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const database = parseDatabaseUrl(env.DATABASE_URL, env.DATABASE_SCHEMA);
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
  });
}
