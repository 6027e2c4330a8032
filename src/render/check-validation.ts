import { isJpeg, isPng } from '../domain/file-types.ts';
import { MAX_AMOUNT_CENTS } from '../domain/money.ts';
import type { CheckDocument } from './check-document.ts';
import { CHECK_PAGE_LAYOUT, formatCheckDate, MAX_FROM_ADDRESS_LINES } from './check-layout.ts';
import { layoutMicrLine, type PositionedMicrChar } from './micr-line.ts';
import { checkPrintOffset } from './page-offset.ts';
import { RenderInputError } from './render-error.ts';
import { type PreparedImage, prepareImage } from './signature-image.ts';

export interface PreparedCheck {
  readonly doc: CheckDocument;
  readonly micr: PositionedMicrChar[];
  readonly date: string;
  readonly voucherDate: string | null;
  /** The signature to draw, or null for none or noSign. */
  readonly signature: PreparedImage | null;
  /** The logo to draw, or null for none (or one that could not be read: a logo is decoration). */
  readonly logo: PreparedImage | null;
}

/** A check that passed every rule, its images not yet prepared. */
export type CheckedCheck = Omit<PreparedCheck, 'signature' | 'logo'>;

export function signatureError(detail: string): RenderInputError {
  return new RenderInputError(
    'invalid_signature_image',
    'signature.data',
    `signature image could not be read: ${detail}`,
  );
}

export function isCents(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

/** Checks everything that could make a printed check wrong, before any drawing starts. */
export function prepare(doc: CheckDocument): CheckedCheck {
  const micr = layoutMicrLine({
    routingNumber: doc.routingNumber,
    accountNumber: doc.accountNumber,
    serialNumber: doc.checkNumber,
  });
  const date = formatCheckDate(doc.issueDate, 'issueDate');
  checkPrintOffset(doc.printOffset);
  if (!doc.noAmount) {
    if (doc.amountCents === null) {
      throw new RenderInputError('amount_required', 'amountCents', 'amount is required unless noAmount is set');
    }
    if (!Number.isSafeInteger(doc.amountCents) || doc.amountCents < 1 || doc.amountCents > MAX_AMOUNT_CENTS) {
      throw new RenderInputError(
        'invalid_amount',
        'amountCents',
        'amount must be whole cents from 0.01 to 99,999,999.99',
      );
    }
  }
  if (!doc.noPayee && doc.payee === null) {
    throw new RenderInputError('payee_required', 'payee', 'payee is required unless noPayee is set');
  }
  if (doc.payee !== null && doc.payee.addressLines.length > CHECK_PAGE_LAYOUT.payeeWindow.maxAddressLines) {
    throw new RenderInputError(
      'text_too_long',
      'payee.addressLines',
      `the envelope window shows the payee name and at most ${CHECK_PAGE_LAYOUT.payeeWindow.maxAddressLines} address lines`,
    );
  }
  if (doc.from.addressLines.length > MAX_FROM_ADDRESS_LINES) {
    throw new RenderInputError(
      'text_too_long',
      'from.addressLines',
      `at most ${MAX_FROM_ADDRESS_LINES} from-address lines`,
    );
  }
  if (doc.signature !== null && !doc.noSign && !isPng(doc.signature.data) && !isJpeg(doc.signature.data)) {
    throw new RenderInputError('invalid_signature_image', 'signature.data', 'signature must be PNG or JPEG bytes');
  }
  let voucherDate: string | null = null;
  if (doc.voucher !== null) {
    if (doc.voucher.date !== null) voucherDate = formatCheckDate(doc.voucher.date, 'voucher.date');
    doc.voucher.items.forEach((item, i) => {
      if (!isCents(item.unitCostCents) || !isCents(item.totalCents) || !Number.isFinite(item.quantity)) {
        throw new RenderInputError(
          'invalid_voucher',
          `voucher.items[${i}]`,
          'voucher item amounts must be whole non-negative cents and quantity a finite number',
        );
      }
    });
  }
  return { doc, micr, date, voucherDate };
}

/** Prepares a checked check's images for drawing (once per distinct image, see signature-image.ts). */
export async function withImages(checked: CheckedCheck): Promise<PreparedCheck> {
  const { doc } = checked;
  let signature: PreparedImage | null = null;
  if (doc.signature !== null && !doc.noSign) {
    try {
      signature = await prepareImage(doc.signature.data);
    } catch (error) {
      throw signatureError(error instanceof Error ? error.message : String(error));
    }
  }
  const logoData = doc.logo?.data;
  // A logo is decoration: one that cannot be read is left out, and the check still prints.
  const logo = logoData === undefined ? null : await prepareImage(logoData).catch(() => null);
  return { ...checked, signature, logo };
}
