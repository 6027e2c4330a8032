// Builds the worker with the real senders the configuration names.
import type { Config } from '../config.ts';
import type { Db } from '../store/db.ts';
import { SmtpMailer, type Mailer } from './mailer.ts';
import { LogSms, TwilioSms, type SmsSender } from './sms.ts';
import { DeliveryWorker, type WorkerLog } from './worker.ts';

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

/** What /healthz and the start banner say about delivery. */
export function deliveryStatus(config: Config): { worker: string; smtp: string; sms: string } {
  return {
    worker: config.delivery.worker,
    smtp: config.delivery.smtpUrl === '' ? 'not configured: live emails stay queued until SMTP_URL is set' : 'configured',
    sms: config.delivery.sms.provider === 'none' ? 'not configured: live SMS stay queued until SMS_PROVIDER is set' : config.delivery.sms.provider,
  };
}

export function buildDeliveryWorker(config: Config, db: Db, secret: Buffer, log: WorkerLog): { worker: DeliveryWorker; close: () => Promise<void> } {
  const mailer: Mailer | null = config.delivery.smtpUrl === '' ? null : new SmtpMailer(config.delivery.smtpUrl);
  const worker = new DeliveryWorker({ db, config, secret, mailer, sms: smsSender(config, log), log });
  return {
    worker,
    close: async () => {
      await worker.stop();
      mailer?.close();
    },
  };
}
