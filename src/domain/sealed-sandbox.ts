// The sandbox inbox keeps what a test key "sent", links included. A payee link opens its check's
// page, so a copy of the database must not give one back: the columns that can carry a link
// (text, HTML, the link itself) are sealed at rest like bank account numbers (sealed.ts), bound to
// the message's id and column, and opened only when the inbox shows the message to its owner.
import type { SandboxMessage } from './delivery.ts';
import { SealError, sandboxMessageContext, sealedKeyId, type Vault } from './sealed.ts';

/** Shown in place of a message sealed under a server secret that has since been replaced. */
export const UNREADABLE_SANDBOX_TEXT =
  'This message was stored under a server secret that has since been replaced, so it can no longer be shown.';

/** The parts of a message that are sealed at rest. */
export interface SandboxMessageColumns {
  text: string;
  html: string;
  link: string;
}

type Transform = (value: string, context: string) => string;

/** Each sealed part through `seal` (a vault's seal under some key id), bound to the message and column. */
export function sealSandboxColumns(id: string, m: SandboxMessageColumns, seal: Transform): SandboxMessageColumns {
  return {
    text: seal(m.text, sandboxMessageContext(id, 'text_body')),
    html: seal(m.html, sandboxMessageContext(id, 'html_body')),
    link: seal(m.link, sandboxMessageContext(id, 'link')),
  };
}

/**
 * Each part opened with `open`. A value that is not sealed is taken as it is (a row written by a
 * server of an older version while a newer one was starting; the next start's migration seals
 * it). Throws SealError when a part does not open.
 */
export function openSandboxColumns(m: SandboxMessageColumns & { id: string }, open: Transform): SandboxMessageColumns {
  const one = (value: string, context: string): string => (sealedKeyId(value) === null ? value : open(value, context));
  return {
    text: one(m.text, sandboxMessageContext(m.id, 'text_body')),
    html: one(m.html, sandboxMessageContext(m.id, 'html_body')),
    link: one(m.link, sandboxMessageContext(m.id, 'link')),
  };
}

/** The message as stored: text, HTML and link sealed under the data key `keyId`. */
export function sealSandboxMessage(vault: Vault, keyId: string, m: SandboxMessage): SandboxMessage {
  return { ...m, ...sealSandboxColumns(m.id, m, (plain, context) => vault.seal(plain, keyId, context)) };
}

/**
 * The message as its owner sees it. One that no longer opens is replaced by a note, never an
 * error page: the rest of the inbox stays readable after the server secret is replaced.
 */
export function openSandboxMessage(vault: Vault, m: SandboxMessage): SandboxMessage {
  try {
    return { ...m, ...openSandboxColumns(m, (sealed, context) => vault.open(sealed, context)) };
  } catch (error) {
    if (!(error instanceof SealError)) throw error;
    return { ...m, text: UNREADABLE_SANDBOX_TEXT, html: '', link: '' };
  }
}
