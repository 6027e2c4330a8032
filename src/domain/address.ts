// Custom from and to addresses printed on checks and envelopes.

export type AddressKind = 'from' | 'to';

export const ADDRESS_FIELDS = [
  'name',
  'companyName',
  'addressLine1',
  'addressLine2',
  'city',
  'state',
  'zip',
  'country',
  'phone',
  'email',
  'note',
] as const;

export type AddressField = (typeof ADDRESS_FIELDS)[number];

export type AddressFields = Record<AddressField, string>;

export interface Address extends AddressFields {
  id: string;
  kind: AddressKind;
  createdAt: number;
}
