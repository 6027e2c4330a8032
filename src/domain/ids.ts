import { randomBytes } from 'node:crypto';

// Opaque, prefixed, time-sortable ids (ULID layout: 48-bit ms timestamp + 80 random bits, Crockford
// base32). The prefix tells a reader what an id names (`chk_`, `pay_`...); sorting by id sorts by
// creation time, and ids made in the same millisecond by one process stay in creation order.

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdPrefix =
  | 'acct'
  | 'key'
  | 'bank'
  | 'pay'
  | 'cat'
  | 'from'
  | 'to'
  | 'vch'
  | 'chk'
  | 'dlv'
  | 'att'
  | 'msg'
  | 'mail'
  | 'whk'
  | 'evt'
  | 'ppx'
  | 'ppl'
  | 'imp'
  | 'per'
  | 'inv'
  | 'aud'
  // An account token handed over by hand (a printed password link), with no delivery of its own.
  | 'tok';

let lastTime = -1;
let lastRandom: Uint8Array = new Uint8Array(10);
/** encodeTime(lastTime): ids made in the same millisecond (a 500-check batch makes 1,000) share it. */
let lastTimeText = '';

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i += 1) {
    out = (ALPHABET[rest % 32] as string) + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  // 80 bits -> 16 base32 characters, 5 bits at a time.
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >> bits) & 31];
    }
  }
  return out;
}

/** Adds one to the 80-bit number in place (the array is this module's own, never handed out). */
function increment(bytes: Uint8Array): void {
  for (let i = bytes.length - 1; i >= 0; i -= 1) {
    const value = (bytes[i] as number) + 1;
    bytes[i] = value & 0xff;
    if (value <= 0xff) break;
  }
}

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  if (now <= lastTime) {
    increment(lastRandom);
  } else {
    lastTime = now;
    lastTimeText = encodeTime(now);
    lastRandom = new Uint8Array(randomBytes(10));
  }
  return `${prefix}_${lastTimeText}${encodeRandom(lastRandom)}`;
}
