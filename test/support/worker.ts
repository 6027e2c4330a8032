// The outbox worker of an in-process test app, sending through the app's configured SMTP and SMS
// settings (usually the peers of mail-peers.ts), logging nothing; tests drive it with drain().
import { pino } from 'pino';
import { SmtpMailer } from '../../src/delivery/mailer.ts';
import { TwilioSms } from '../../src/delivery/sms.ts';
import { DeliveryWorker } from '../../src/services/delivery-worker.service.ts';
import type { TestApp } from './app.ts';
import { HttpWebhookSender } from '../../src/delivery/webhook-sender.ts';

export function testWorker(t: TestApp): { worker: DeliveryWorker; close: () => void } {
  const mailer = new SmtpMailer(t.config.delivery.smtpUrl);
  const worker = new DeliveryWorker({
    db: t.database.db,
    config: t.config,
    webhooks: new HttpWebhookSender({ allowPrivate: t.config.webhooksAllowPrivate }),
    secret: t.keys.secret,
    mailer,
    sms: new TwilioSms(t.config.delivery.sms),
    log: pino({ level: 'silent' }),
  });
  return { worker, close: () => mailer.close() };
}
