// How a webhook POST is signed, two ways: `Signature` (hex HMAC-SHA256 of the raw body, what the
// hosted service's users verify) and `Checkwriter-Signature: t=<unix seconds>,v1=<hex HMAC of
// "t.body">`, so receivers can refuse replays (docs/webhooks.md; packages/client verifies both).
import { createHmac } from 'node:crypto';

export function webhookHeaders(
  secret: string,
  body: string,
  timestampSeconds: number,
  eventId: string,
): Record<string, string> {
  const sign = (text: string): string => createHmac('sha256', secret).update(text).digest('hex');
  return {
    'content-type': 'application/json',
    'user-agent': 'checkwriter-webhooks/1',
    signature: sign(body),
    'checkwriter-signature': `t=${timestampSeconds},v1=${sign(`${timestampSeconds}.${body}`)}`,
    'checkwriter-event-id': eventId,
  };
}
