// What may reach a log line. Some URLs are credentials: the payee link `/c/<token>` opens a
// check, `?token=` links reset passwords and confirm emails. Logs are read by
// more people, kept longer and copied further than the database, so these never appear in them.

// One list of secret-bearing query names, for URLs and for free text alike.
const SECRET_NAMES = 'token|code|key|api_key|apikey|access_token|secret|password|signature|sig';
const SECRET_QUERY_NAMES = new RegExp(`^(?:${SECRET_NAMES})$`, 'i');
const SECRET_QUERY_IN_TEXT = new RegExp(`([?&](?:${SECRET_NAMES})=)[^&\\s]+`, 'gi');
const PAYEE_LINK = /^\/c\/[^/?#]+/;
// Invitation links, `/panel/join/<token>`, as a path or carried in a query (`next=%2Fpanel%2Fjoin%2F…`).
const INVITATION_LINK = /(\/panel\/join\/|%2Fpanel%2Fjoin%2F)[^/?#&\s"'<>]+/gi;

export const REDACTED = '[redacted]';

/** Payee links and secret-bearing query values in free text, replaced. */
function redactLinks(text: string): string {
  return text
    .replace(INVITATION_LINK, `$1${REDACTED}`)
    .replace(/\/c\/[A-Za-z0-9_-]+/g, `/c/${REDACTED}`)
    .replace(SECRET_QUERY_IN_TEXT, `$1${REDACTED}`);
}

// What any of the replacements below needs in a URL: a query, a percent sign (an encoded
// invitation link), a payee link or an invitation link. Most URLs (`/api/v3/checks/<id>`) have
// none, and are logged as they are after one test instead of two replacements.
const MAY_HOLD_SECRET = /[?%]|^\/c\/|\/panel\/join\//i;

/** A request URL as it may be logged: payee-link tokens and secret-bearing query values replaced. */
export function redactUrl(given: string): string {
  if (!MAY_HOLD_SECRET.test(given)) return given;
  const url = given.replace(INVITATION_LINK, `$1${REDACTED}`);
  const at = url.indexOf('?');
  const path = at === -1 ? url : url.slice(0, at);
  const safePath = PAYEE_LINK.test(path) ? path.replace(PAYEE_LINK, `/c/${REDACTED}`) : path;
  if (at === -1) return safePath;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is logged as sent; it cannot be one of ours.
      }
      return eq !== -1 && SECRET_QUERY_NAMES.test(decoded) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${safePath}?${query}`;
}

/**
 * Free text (a message body the log SMS provider writes) with the same secrets removed: payee
 * links, secret query values, and one-time codes (runs of 4 to 8 digits standing alone).
 */
export function redactText(text: string): string {
  return redactLinks(text).replace(/(?<!\d|\d[.,]|\$)\d{4,8}(?!\d|[.,]\d)/g, REDACTED);
}

/**
 * Why a request was refused, as its log line may say it: the message's first sentence ("The
 * checks.0.amount field must be a number."), with what the client sent taken out — quoted text
 * (a file's cell, a name), any run of five or more digits (account and check numbers, codes),
 * payee links and secret query values — and at most 160 characters. The field and the rule are what an
 * operator needs; the value is the client's, and may be anyone's account number.
 */
export function loggableReason(message: string): string {
  const first = /^.*?[.!?](?=\s|$)/s.exec(message)?.[0] ?? message;
  // Not redactText's four-digit rule: a year is no secret, and the message's own words keep it.
  const reason = redactLinks(first)
    .replace(/"[^"]*"|“[^”]*”|‹[^›]*›/g, '"…"')
    .replace(/\d{5,}/g, '…')
    .replace(/\s+/g, ' ');
  return reason.length > 160 ? `${reason.slice(0, 159)}…` : reason;
}

/**
 * A connection URL (DATABASE_URL) as it may be printed: its password replaced by `***` (URL-safe,
 * where `[redacted]` would be percent-encoded). Text without a host to find a password beside (a
 * bare file path, `sqlite:…`, or no URL at all) is printed as it is unless it holds an `@`, which
 * may follow a password: then it is `[redacted]` whole.
 */
export function redactUrlPassword(text: string): string {
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    // Not a URL: judged below as text.
  }
  if (url === null || url.host === '') return text.includes('@') ? REDACTED : text;
  if (url.password === '') return text;
  url.password = '***';
  return url.toString();
}
