// Every setting the service reads, in one place, read once and frozen. The CLI, the server and
// the tests all build their configuration here so a variable means the same thing everywhere.

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface DatabaseConfig {
  readonly kind: 'sqlite' | 'postgres';
  /** File path for SQLite, connection string for PostgreSQL. */
  readonly url: string;
  /** PostgreSQL only: the schema to use (search_path); lets tests and tenants share a server. */
  readonly schema: string | null;
}

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly publicUrl: string;
  readonly database: DatabaseConfig;
  readonly logLevel: LogLevel;
  /** Requests per second per API key; 0 turns rate limiting off. */
  readonly rateLimitPerKey: number;
  readonly bodyLimitBytes: number;
  /** HMAC secret for API keys; when empty the service keeps a generated one in the database. */
  readonly keySigningSecret: string;
  readonly webhooksAllowPrivate: boolean;
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
  throw new ConfigError(`DATABASE_URL must start with sqlite: or postgres://, got "${value}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const host = env.HOST !== undefined && env.HOST !== '' ? env.HOST : '127.0.0.1';
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const logLevel = (env.LOG_LEVEL ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const publicUrl = (env.PUBLIC_URL !== undefined && env.PUBLIC_URL !== '' ? env.PUBLIC_URL : `http://${host}:${port}`).replace(/\/+$/, '');
  return Object.freeze({
    host,
    port,
    publicUrl,
    database: parseDatabaseUrl(env.DATABASE_URL, env.DATABASE_SCHEMA),
    logLevel,
    rateLimitPerKey: integer(env, 'RATE_LIMIT_PER_KEY', 200, 0, 1_000_000),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 2 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    keySigningSecret: env.KEY_SIGNING_SECRET ?? '',
    webhooksAllowPrivate: env.WEBHOOKS_ALLOW_PRIVATE === 'true',
  });
}
