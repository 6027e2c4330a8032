// A payee: who a check is made out to.

export const PAYEE_FIELDS = [
  'name',
  'nickName',
  'company',
  'email',
  'phone',
  'address1',
  'address2',
  'city',
  'state',
  'zip',
  'country',
] as const;

export type PayeeField = (typeof PAYEE_FIELDS)[number];

export type PayeeFields = Record<PayeeField, string>;

export interface Payee extends PayeeFields {
  id: string;
  createdAt: number;
}
