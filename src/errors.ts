// One error model for the whole service: an AppError carries a code from a closed list; the code
// alone decides the HTTP status, and the wire shapes are the two the spec allows
// (spec "Errors": `{ message }` for authentication, `{ success: false, errorMsg }` otherwise).

export type ErrorCode =
  | 'unauthenticated'
  | 'bad_request'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'validation'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

const STATUS: Readonly<Record<ErrorCode, number>> = {
  unauthenticated: 401,
  bad_request: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation: 422,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

export function codeToStatus(code: ErrorCode): number {
  return STATUS[code];
}

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    /**
     * Fields beside `errorMsg` in the body: the existing record's id when a create names
     * something that already exists (`{"success": false, "errorMsg": ..., "checkId": ...}`),
     * as the hosted service answers duplicates (docs/api-notes.md, "Duplicates").
     */
    readonly extra: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
  get status(): number {
    return codeToStatus(this.code);
  }
}

export const UNAUTHENTICATED_MESSAGE = 'Unauthenticated.';

export function validationError(message: string): AppError {
  return new AppError('validation', message);
}

/** Unknown ids and other accounts' ids get the same answer: never reveal that a thing exists. */
export function notFound(
  what: 'Check' | 'Payee' | 'Address' | 'Bank account' | 'Category' | 'Voucher' | 'API key' | 'Account',
): AppError {
  return new AppError('not_found', `${what} not found.`);
}

/**
 * A passing state, not the request's fault: the worker pool is full, the database is failing over
 * or read-only. The client should send the same request again (with the same Idempotency-Key)
 * after `retryAfterSeconds` (a fault the client can wait out: 503 with Retry-After, never 500).
 */
export function unavailable(message: string, retryAfterSeconds: number): AppError {
  return new AppError('unavailable', message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
}

/**
 * For the log line of a 503 caused by a passing database state (store/transient.ts): the driver's
 * reason and code, so the operator sees the failover the client was told to retry through. Null
 * for any other error.
 */
export function unavailableCause(error: AppError): { reason: string; code: string | null } | null {
  if (error.code !== 'unavailable' || error.cause === undefined) return null;
  const cause = error.cause;
  const code = (cause as { code?: unknown }).code;
  return {
    reason: cause instanceof Error ? cause.message : String(cause),
    code: typeof code === 'string' ? code : null,
  };
}

/**
 * A database error code that says the machine ran out of room: SQLite could not grow its file or
 * WAL (SQLITE_FULL, SQLITE_IOERR_* — a write or fsync refused, ENOSPC underneath) or PostgreSQL's
 * class 53, "insufficient resources" (53100 disk_full, 53200 out_of_memory, 53300
 * too_many_connections, 53400 configuration_limit_exceeded). Each rolls its transaction back.
 */
export function isOutOfRoomCode(code: unknown): boolean {
  return typeof code === 'string' && (/^SQLITE_(FULL|IOERR)/.test(code) || /^53[0-9A-Z]{3}$/.test(code));
}

/** The disk itself is full (not memory or connections): what /readyz and the metrics report. */
export function isDiskFullCode(code: unknown): boolean {
  return typeof code === 'string' && (/^SQLITE_(FULL|IOERR)/.test(code) || code === '53100');
}

/** How often a full disk is said in the log: every request is refused, one line is enough. */
const OUT_OF_ROOM_WARN_MS = 60_000;
let outOfRoomWarnedAt = Number.NEGATIVE_INFINITY;
let outOfRoomSinceWarning = 0;

interface WarnLog {
  warn(fields: object, message: string): void;
}

/**
 * The log line of a 503 answered for a passing database state. A failover is one line per request
 * (it lasts seconds); a full disk may last hours, so it is one warning a minute, counting the
 * refusals since the last one, and never a stack.
 */
export function logUnavailable(log: WarnLog, reqId: string, error: AppError): void {
  const cause = unavailableCause(error);
  if (cause === null) return;
  if (!isOutOfRoomCode(cause.code)) {
    log.warn({ reqId, ...cause }, 'database unavailable: answered 503');
    return;
  }
  outOfRoomSinceWarning += 1;
  const now = performance.now();
  if (now - outOfRoomWarnedAt < OUT_OF_ROOM_WARN_MS) return;
  outOfRoomWarnedAt = now;
  log.warn(
    { reqId, ...cause, refused: outOfRoomSinceWarning },
    'database out of room (disk full or resources exhausted): writes answered 503 until space returns (docs/operations.md, "A full disk")',
  );
  outOfRoomSinceWarning = 0;
}

export type WireError = { message: string } | ({ success: false; errorMsg: string } & Record<string, string | false>);

export function toWire(code: ErrorCode, message: string, extra: Readonly<Record<string, string>> = {}): WireError {
  return code === 'unauthenticated'
    ? { message: UNAUTHENTICATED_MESSAGE }
    : { ...extra, success: false, errorMsg: message };
}

/** A 422 for a create that names a record that already exists, with that record's id. */
export function duplicate(message: string, idKey: string, existingId: string): AppError {
  return new AppError('validation', message, {}, { [idKey]: existingId });
}
