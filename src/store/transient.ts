// Which database errors are passing states rather than faults: the connection
// was lost, the server is shutting down or failing over, it is a standby (read-only), it cannot be
// reached, or it chose this transaction as the loser of a serialization conflict or a deadlock.
// Each of them rolls the transaction back, so the request wrote nothing and answers 503 with
// Retry-After: the same request, sent again (with the same Idempotency-Key), will do its work once.
import { AppError, isDiskFullCode, isOutOfRoomCode, unavailable } from '../errors.ts';

/** PostgreSQL SQLSTATEs (Appendix A of its manual) that pass by themselves. */
const TRANSIENT_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the server is stopping (a failover, a restart)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or in recovery
  '25006', // read_only_sql_transaction: a standby, or a primary demoted by a switchover
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '53300', // too_many_connections
  '25P03', // idle_in_transaction_session_timeout: the session was ended
  '57014', // query_canceled: statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS) under load
]);

/** Socket errors: the database cannot be reached, or the connection died. */
const TRANSIENT_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** What node-postgres says when a connection ends under it, or when it gives up connecting. */
const TRANSIENT_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Query read timeout|Connection ended/i;

/** SQLite: another process holds the write lock past the busy timeout, or the file cannot be written. */
const TRANSIENT_SQLITE = /^SQLITE_(BUSY|LOCKED|READONLY)/;

export function isTransientDatabaseError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (error instanceof AppError) return error.code === 'unavailable';
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('08')) return true; // connection_exception and its subclasses
    if (TRANSIENT_SQLSTATES.has(code) || TRANSIENT_NODE_CODES.has(code) || TRANSIENT_SQLITE.test(code)) return true;
    // A full disk, or PostgreSQL out of memory or connections: it passes when room returns.
    if (isOutOfRoomCode(code)) return true;
  }
  return typeof message === 'string' && TRANSIENT_MESSAGES.test(message);
}

/** Seconds a client should wait: a lost race is over at once; a failover takes a few seconds. */
function retryAfterSeconds(error: unknown): number {
  const code = (error as { code?: unknown }).code;
  // Someone has to free space: asking again every second or two would only add to the log.
  if (isDiskFullCode(code)) return OUT_OF_SPACE_RETRY_SECONDS;
  return code === '40001' || code === '40P01' || (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) ? 1 : 2;
}

export const UNAVAILABLE_MESSAGE =
  'The database is not available for writing right now (a failover, a restart or a lost connection). Send the same request again after Retry-After seconds, with the same Idempotency-Key: it is done once.';

export const OUT_OF_SPACE_RETRY_SECONDS = 30;

export const OUT_OF_SPACE_MESSAGE =
  'The database has no room to write right now (its disk is full); nothing of this request was written. Send the same request again after Retry-After seconds, with the same Idempotency-Key: it is done once.';

export const OUT_OF_RESOURCES_MESSAGE =
  'The database is out of resources right now (memory or connections); nothing of this request was written. Send the same request again after Retry-After seconds, with the same Idempotency-Key: it is done once.';

function messageFor(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (isDiskFullCode(code)) return OUT_OF_SPACE_MESSAGE;
  if (isOutOfRoomCode(code)) return OUT_OF_RESOURCES_MESSAGE;
  return UNAVAILABLE_MESSAGE;
}

/** A transient database error as the service's 503 (errors.ts); any other error as it is. */
export function asUnavailable(error: unknown): unknown {
  if (error instanceof AppError || !isTransientDatabaseError(error)) return error;
  const answer = unavailable(messageFor(error), retryAfterSeconds(error));
  // The driver's own error stays reachable for a log line.
  answer.cause = error;
  return answer;
}
