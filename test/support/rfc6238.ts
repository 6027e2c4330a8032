// RFC 6238 (TOTP) written from the RFC itself, for tests: the panel's codes are computed here, not
// with the library under test (otpauth). Checked against the RFC's Appendix B vectors in
// test/panel/second-factor.test.ts.
import { createHmac } from 'node:crypto';

/** RFC 4226 HOTP: HMAC over the 8-byte big-endian counter, dynamic truncation, modulo 10^digits. */
export function hotp(
  key: Buffer,
  counter: number,
  digits: number,
  algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1',
): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary =
    (((mac[offset] ?? 0) & 0x7f) << 24) |
    ((mac[offset + 1] ?? 0) << 16) |
    ((mac[offset + 2] ?? 0) << 8) |
    (mac[offset + 3] ?? 0);
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** RFC 6238 TOTP: T = floor((unix seconds - T0) / X) with T0 = 0 and X = 30. */
export function totp(
  key: Buffer,
  unixSeconds: number,
  digits = 6,
  algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1',
): string {
  return hotp(key, Math.floor(unixSeconds / 30), digits, algorithm);
}

/** RFC 4648 base32 (the alphabet authenticator apps read), spaces and padding ignored. */
export function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const clean = text.toUpperCase().replace(/[\s=]/g, '');
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((buffer >> bits) & 0xff);
    }
  }
  return Buffer.from(out);
}
