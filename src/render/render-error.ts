// Errors the renderer raises for input it refuses. They carry a closed code and the field path so the
// HTTP layer can turn them into a 4xx (422) naming the field, instead of a 500.

export type RenderErrorCode =
  | 'invalid_routing_number'
  | 'invalid_account_number'
  | 'account_number_too_long'
  | 'invalid_serial_number'
  | 'serial_number_too_long'
  | 'invalid_date'
  | 'invalid_amount'
  | 'amount_required'
  | 'payee_required'
  | 'text_too_long'
  | 'invalid_signature_image'
  | 'invalid_voucher'
  | 'invalid_print_offset'
  | 'empty_batch';

export class RenderInputError extends Error {
  override readonly name = 'RenderInputError';
  readonly code: RenderErrorCode;
  /** Path of the offending field in CheckDocument, e.g. "accountNumber" or "voucher.items[2]". */
  readonly field: string;
  /** Index of the offending check in a batch (renderChecksPdf), or null for a single check. */
  readonly index: number | null;

  constructor(code: RenderErrorCode, field: string, message: string, index: number | null = null) {
    super(message);
    this.code = code;
    this.field = field;
    this.index = index;
  }

  /** The same error, attributed to check number `index` of a batch. */
  atIndex(index: number): RenderInputError {
    return new RenderInputError(this.code, this.field, this.message, index);
  }
}
