// Deliveries: an email, SMS or webhook POST in the outbox, what a test key's message left in the
// sandbox inbox, and files attached to a check's email.

export interface Delivery {
  id: string;
  checkId: string | null;
  channel: 'email' | 'sms' | 'webhook';
  recipient: string;
  payload: Record<string, unknown>;
  status: 'queued' | 'sending' | 'sent' | 'failed';
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: number;
  sentAt: number | null;
  /**
   * The random link or account token the message carries, sealed (domain/sealed.ts) until the
   * message is sent or fails, then erased: only the token's hash outlives the sending.
   */
  sealedToken?: string | null;
}

/**
 * A message to one of the company's own people (a sign-in code, an invitation, an approval's news),
 * queued for its first attempt now: not about a check, and carrying at most a sealed token.
 */
export function queuedMessage(
  id: string,
  channel: 'email' | 'sms',
  recipient: string,
  payload: Record<string, unknown>,
  sealedToken: string | null,
  now: number,
): Delivery {
  return {
    id,
    checkId: null,
    channel,
    recipient,
    payload,
    sealedToken,
    status: 'queued',
    attempts: 0,
    nextAttemptAt: now,
    lastError: null,
    createdAt: now,
    sentAt: null,
  };
}

// ---- sandbox ----

export interface SandboxMessage {
  id: string;
  deliveryId: string;
  checkId: string | null;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string;
  text: string;
  html: string;
  link: string;
  attachments: string[];
  createdAt: number;
}

// ---- attachments ----

export interface AttachmentMeta {
  id: string;
  checkId: string;
  filename: string;
  contentType: string;
  size: number;
  createdAt: number;
}
