// Builds the delivery worker with the real senders the configuration names (SMTP, the SMS
// provider, HTTP for webhooks): with server.ts and cli/main.ts, the only place adapters are wired.
import type { Config } from './config.ts';
import { SmtpMailer, type Mailer } from './delivery/mailer.ts';
import { LogSms, TwilioSms, type SmsSender } from './delivery/sms.ts';
import { HttpWebhookSender } from './delivery/webhook-sender.ts';
import type { Metrics } from './metrics.ts';
import { DeliveryWorker, type WorkerLog } from './services/delivery-worker.service.ts';
import type { Db } from './store/db.ts';

export function smsSender(config: Config, log: WorkerLog): SmsSender | null {
  switch (config.delivery.sms.provider) {
    case 'twilio':
      return new TwilioSms(config.delivery.sms);
    case 'log':
      return new LogSms((entry, message) => log.info(entry, message));
    case 'none':
      return null;
  }
}

/** What the start banner says about delivery (not /healthz: anyone may ask that). */
export function deliveryStatus(config: Config): { worker: string; smtp: string; sms: string } {
  return {
    worker: config.delivery.worker,
    smtp:
      config.delivery.smtpUrl === '' ? 'not configured: live emails stay queued until SMTP_URL is set' : 'configured',
    sms:
      config.delivery.sms.provider === 'none'
        ? 'not configured: live SMS stay queued until SMS_PROVIDER is set'
        : config.delivery.sms.provider,
  };
}

export function buildDeliveryWorker(
  config: Config,
  db: Db,
  secret: Buffer,
  log: WorkerLog,
  metrics?: Metrics,
): { worker: DeliveryWorker; close: () => Promise<void> } {
  const mailer: Mailer | null = config.delivery.smtpUrl === '' ? null : new SmtpMailer(config.delivery.smtpUrl);
  const worker = new DeliveryWorker({
    db,
    config,
    secret,
    mailer,
    sms: smsSender(config, log),
    webhooks: new HttpWebhookSender({ allowPrivate: config.webhooksAllowPrivate }),
    log,
    ...(metrics === undefined ? {} : { metrics }),
  });
  return {
    worker,
    close: async () => {
      await worker.stop();
      mailer?.close();
    },
  };
}
