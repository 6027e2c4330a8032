// Values encrypted at rest (bank account numbers): AES-256-GCM under a data key derived with HKDF
// from the server secret (which never lives in the database, docs/secrets.md) and a key id. The
// key id is written with each value, so a rotation can re-seal values under a new id while those
// not yet re-sealed still open. The associated data names what the value is and which row it
// belongs to, so a sealed value copied into another row or column does not open there.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const FORMAT = 'cw1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,40}$/;

export class SealError extends Error {
  override name = 'SealError';
}

/** A fresh key id: random, so two installations (or a restored backup) never share one by accident. */
export function newKeyId(): string {
  return `k${randomBytes(6).toString('hex')}`;
}

/** The key id a sealed value names, or null when it is not a sealed value (plain text). */
export function sealedKeyId(value: string): string | null {
  const parts = value.split('.');
  return parts.length === 5 && parts[0] === FORMAT && KEY_ID.test(parts[1] ?? '') ? (parts[1] ?? null) : null;
}

export class Vault {
  private readonly keys = new Map<string, Buffer>();

  constructor(private readonly secret: Buffer) {}

  private key(keyId: string): Buffer {
    let key = this.keys.get(keyId);
    if (key === undefined) {
      key = Buffer.from(hkdfSync('sha256', this.secret, 'checkwriter data keys', `data-key:${keyId}`, 32));
      this.keys.set(keyId, key);
    }
    return key;
  }

  /** `cw1.<key id>.<iv>.<ciphertext>.<tag>` (base64url parts). `context` must be given again to open it. */
  seal(plain: string, keyId: string, context: string): string {
    if (!KEY_ID.test(keyId)) throw new SealError(`bad key id "${keyId}"`);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(keyId), iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      FORMAT,
      keyId,
      iv.toString('base64url'),
      body.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
    ].join('.');
  }

  open(sealed: string, context: string): string {
    const keyId = sealedKeyId(sealed);
    if (keyId === null) throw new SealError('not a sealed value');
    const [, , iv = '', body = '', tag = ''] = sealed.split('.');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key(keyId), Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SealError(`the value sealed under key ${keyId} does not open with this server secret`);
    }
  }
}

/** The associated data of a bank account's number. */
export function bankAccountNumberContext(bankAccountId: string): string {
  return `bank_accounts.account_number:${bankAccountId}`;
}

/** The associated data of the token an unsent message carries. */
export function deliveryTokenContext(deliveryId: string): string {
  return `deliveries.sealed_token:${deliveryId}`;
}

/** The sandbox inbox's columns that carry a payee link (in the text, the HTML, or alone). */
export type SandboxSealedColumn = 'text_body' | 'html_body' | 'link';

/** The associated data of one sealed column of a sandbox inbox message. */
export function sandboxMessageContext(messageId: string, column: SandboxSealedColumn): string {
  return `sandbox_messages.${column}:${messageId}`;
}

/** The associated data of a person's authenticator app secret: it opens only in its own row. */
export function totpSecretContext(personId: string): string {
  return `person_totp.sealed_secret:${personId}`;
}
