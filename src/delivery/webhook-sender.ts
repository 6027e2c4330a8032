// The webhook port: how the delivery worker POSTs a signed event, like Mailer for email and
// SmsSender for SMS. The adapter below sends over HTTP(S) with the destination checks of
// webhook-post.ts; tests may stand in a resolver for the DNS lookup.
import { postWebhook, type Resolver } from './webhook-post.ts';

export interface WebhookSender {
  /**
   * POSTs `body` with `headers` to `url` and answers the response status. Throws
   * RefusedDestination (webhook-post.ts) for an address that may not be reached, any other
   * error for an unreachable endpoint.
   */
  post(url: string, headers: Record<string, string>, body: string): Promise<number>;
}

export interface HttpWebhookOptions {
  /** WEBHOOKS_ALLOW_PRIVATE: loopback and private addresses allowed (development only). */
  allowPrivate: boolean;
  timeoutMs?: number;
  /** How host names are resolved (default dns.lookup). */
  resolve?: Resolver;
}

export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly options: HttpWebhookOptions) {}

  post(url: string, headers: Record<string, string>, body: string): Promise<number> {
    const { allowPrivate, timeoutMs = 10_000, resolve } = this.options;
    return postWebhook(url, headers, body, { allowPrivate, timeoutMs, ...(resolve === undefined ? {} : { resolve }) });
  }
}
