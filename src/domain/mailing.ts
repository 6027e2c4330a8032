// A mailing: a check in the print-and-mail queue.

export type MailingStatus = 'queued' | 'dispatched' | 'cancelled';

export interface Mailing {
  id: string;
  checkId: string;
  shippingTypeId: number;
  paperTypeId: number;
  toAddressId: string | null;
  status: MailingStatus;
  createdAt: number;
  updatedAt: number;
  /** What the hosted service's POST /mailchecks also takes (its clients send it): kept and returned. */
  informTypeId: number | null;
  enableSmsInform: boolean;
  enableEmailInform: boolean;
  payeeEmail: string | null;
  payeePhone: string | null;
  shippingToCustomAddress: boolean;
  fromAddressId: string | null;
  customShippingTypeId: number | null;
}

/**
 * The statement a check gains when it joins the print-and-mail queue: its status stays `new`
 * (the spec's status codes), so this is how a reader of the check sees that it waits for mail.
 */
export const MAILING_QUEUED_STATEMENT = 'queued for mailing';
