// The sandbox inbox keeps what a test key "sent", links included. A payee link opens its check's
// page, so a copy of the database must not give one back: the columns that can carry a link
// (text, HTML, the link itself) are sealed at rest like bank account numbers (sealed.ts), bound to
// the message's id and column, and opened only when the inbox shows the message to its owner.
import type { SandboxMessage } from './delivery.ts';
import { SealError, sandboxMessageContext, sealedKeyId, type Vault } from './sealed.ts';

/** Shown in place of a message sealed under a server secret that has since been replaced. */
export const UNREADABLE_SANDBOX_TEXT =
  'This message was stored under a server secret that has since been replaced, so it can no longer be shown.';

/** The message as stored: text, HTML and link sealed. */
export function sealSandboxMessage(vault: Vault, keyId: string, m: SandboxMessage): SandboxMessage {
  return {
    ...m,
    text: vault.seal(m.text, keyId, sandboxMessageContext(m.id, 'text_body')),
    html: vault.seal(m.html, keyId, sandboxMessageContext(m.id, 'html_body')),
    link: vault.seal(m.link, keyId, sandboxMessageContext(m.id, 'link')),
  };
}

/**
 * The message as its owner sees it. A value that is not sealed is shown as it is (a row written by
 * a server of an older version while a newer one was starting; the next start's migration seals
 * it). One that no longer opens is replaced by a note, never an error page: the rest of the inbox
 * stays readable after the server secret is replaced.
 */
export function openSandboxMessage(vault: Vault, m: SandboxMessage): SandboxMessage {
  try {
    const open = (value: string, column: 'text_body' | 'html_body' | 'link'): string =>
      sealedKeyId(value) === null ? value : vault.open(value, sandboxMessageContext(m.id, column));
    return { ...m, text: open(m.text, 'text_body'), html: open(m.html, 'html_body'), link: open(m.link, 'link') };
  } catch (error) {
    if (!(error instanceof SealError)) throw error;
    return { ...m, text: UNREADABLE_SANDBOX_TEXT, html: '', link: '' };
  }
}
