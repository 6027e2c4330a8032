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

function increment(bytes: Uint8Array): Uint8Array {
  const next: Uint8Array = Uint8Array.from(bytes);
  for (let i = next.length - 1; i >= 0; i -= 1) {
    const value = (next[i] as number) + 1;
    next[i] = value & 0xff;
    if (value <= 0xff) break;
  }
  return next;
}

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  if (now <= lastTime) {
    lastRandom = increment(lastRandom);
  } else {
    lastTime = now;
    lastRandom = new Uint8Array(randomBytes(10));
  }
  return `${prefix}_${encodeTime(lastTime)}${encodeRandom(lastRandom)}`;
}
