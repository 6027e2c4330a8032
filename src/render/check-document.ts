// Everything a printed check needs, as plain data: no database rows, no HTTP shapes. The API layer
// builds a CheckDocument from its records; the renderer (check-pdf.ts) only reads it.
//
// Money is integer cents. Dates are given as issued (YYYY-MM-DD) and printed MM/DD/YYYY, the
// numeric form US banks and check stock use ("11/21/2026"), so the printed date cannot be misread
// as day-first.

import type { PrintOffset } from '../domain/print-offset.ts';

export type CheckEnvironment = 'test' | 'live';

/** A name and the lines under it, printed as given (the caller formats city/state/ZIP). */
export interface CheckParty {
  readonly name: string;
  readonly addressLines: readonly string[];
}

/** The custom 'from' address shape of the API (GET /customFromAddresses/{id}). */
export interface CustomFromAddress {
  readonly name: string;
  readonly companyName: string;
  readonly addressLine1: string;
  readonly addressLine2: string;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
  readonly phone: string;
}

export type CustomElementKey =
  | 'element1'
  | 'element2'
  | 'element3'
  | 'element4'
  | 'element5'
  | 'element6'
  | 'element7'
  | 'element8'
  | 'element9'
  | 'element10';

export const CUSTOM_ELEMENT_KEYS: readonly CustomElementKey[] = [
  'element1',
  'element2',
  'element3',
  'element4',
  'element5',
  'element6',
  'element7',
  'element8',
  'element9',
  'element10',
];

/**
 * Where each custom element prints (one line each, shortened with "…" if it does not fit):
 * - element1, element2: check face, top centre, under the bank name;
 * - element3, element4: check face, top right, under the check number;
 * - element5, element6: check face, right, between the amount and the signature area;
 * - element7 .. element10: both stubs, bottom left.
 */
export type CustomElements = Readonly<Partial<Record<CustomElementKey, string>>>;

export interface VoucherItem {
  readonly invoiceNumber: string;
  readonly name: string;
  readonly description: string;
  readonly quantity: number;
  readonly unitCostCents: number;
  readonly totalCents: number;
}

export interface CheckVoucher {
  readonly voucherNumber: string | null;
  /** YYYY-MM-DD, or null to omit. */
  readonly date: string | null;
  readonly memo: string | null;
  readonly items: readonly VoucherItem[];
}

export interface SignatureImage {
  /** PNG or JPEG bytes; printed inside the signature box, keeping its aspect ratio. */
  readonly data: Uint8Array;
}

export interface CheckDocument {
  readonly environment: CheckEnvironment;
  /** The drawer, printed top left (and shown through the upper window of a double-window envelope). */
  readonly from: CheckParty;
  readonly bankName: string;
  readonly routingNumber: string;
  readonly accountNumber: string;
  /** The check (serial) number, digits only; printed top right, on both stubs and in the MICR line. */
  readonly checkNumber: string;
  /** YYYY-MM-DD as issued. */
  readonly issueDate: string;
  /** Name and mailing address; may be null only when noPayee is true. */
  readonly payee: CheckParty | null;
  /** Integer cents, 1 .. 9,999,999,999; may be null only when noAmount is true. */
  readonly amountCents: number | null;
  readonly memo: string | null;
  readonly invoiceNumber: string | null;
  readonly signature: SignatureImage | null;
  /**
   * The drawer's logo (the bank account's, else the account's), PNG or JPEG: drawn at the
   * top left with the from block moved right beside it, both inside the upper envelope window.
   */
  readonly logo?: SignatureImage | null;
  readonly customElements: CustomElements;
  /** Leave the signature area unsigned (the line stays, for a hand signature). */
  readonly noSign: boolean;
  /** Leave the numeric amount and the legal line blank (box and lines stay, for hand filling). */
  readonly noAmount: boolean;
  /** Leave the date blank (the line stays). */
  readonly noDate: boolean;
  /** Leave the payee name and address blank (the line stays). */
  readonly noPayee: boolean;
  readonly voucher: CheckVoucher | null;
  /** Shifts the whole page to correct the printer's placement (the bank account's offsets); none if absent. */
  readonly printOffset?: PrintOffset;
}

/** Formats a custom 'from' address as a CheckParty: company (if any), street lines, "City, ST ZIP", phone. */
export function partyFromCustomAddress(address: CustomFromAddress): CheckParty {
  const lines: string[] = [];
  const name = address.name.trim();
  const company = address.companyName.trim();
  if (company !== '' && company !== name) lines.push(company);
  for (const line of [address.addressLine1, address.addressLine2]) {
    if (line.trim() !== '') lines.push(line.trim());
  }
  const cityState = [address.city.trim(), address.state.trim()].filter((s) => s !== '').join(', ');
  const lastLine = [cityState, address.zip.trim()].filter((s) => s !== '').join(' ');
  if (lastLine !== '') lines.push(lastLine);
  if (address.phone.trim() !== '') lines.push(address.phone.trim());
  return { name: name !== '' ? name : company, addressLines: lines };
}
