// SMS providers. `TwilioSms` speaks the Twilio Messages API (the base URL is configurable, so
// tests point it at a local HTTP server); `LogSms` writes the message to the log and sends nothing.
import type { SmsConfig } from '../config.ts';
import { redactText } from '../domain/redact.ts';

export interface SmsSender {
  readonly name: string;
  send(to: string, body: string, reference: string): Promise<void>;
}

export class SmsError extends Error {
  override name = 'SmsError';
  constructor(
    message: string,
    /** False when sending again cannot help (the provider refused the number). */
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export class TwilioSms implements SmsSender {
  readonly name = 'twilio';
  constructor(private readonly config: SmsConfig) {}

  async send(to: string, body: string): Promise<void> {
    const url = `${this.config.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(this.config.accountSid)}/Messages.json`;
    const auth = Buffer.from(`${this.config.accountSid}:${this.config.authToken}`).toString('base64');
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ To: to, From: this.config.from, Body: body }).toString(),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw new SmsError(`SMS provider unreachable: ${error instanceof Error ? error.message : String(error)}`, true);
    }
    if (response.ok) return;
    const detail = (await response.text().catch(() => '')).slice(0, 300);
    // 4xx other than 429 means the request itself is wrong (bad number, bad credentials): no retry helps.
    throw new SmsError(
      `SMS provider answered ${response.status}: ${detail}`,
      response.status === 429 || response.status >= 500,
    );
  }
}

export class LogSms implements SmsSender {
  readonly name = 'log';
  constructor(private readonly log: (entry: Record<string, unknown>, message: string) => void) {}

  async send(to: string, body: string, reference: string): Promise<void> {
    // Links and codes are credentials: the log gets the message with them blanked.
    this.log({ to, body: redactText(body), reference }, 'SMS (log provider: not sent)');
  }
}
