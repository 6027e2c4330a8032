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
