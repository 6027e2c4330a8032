// What paper the checks are printed on, as data: the stock (what is already on the paper, so not
// drawn) and the page layout (where on a US letter page each check and its stubs go). The drawing
// code (check-face.ts, check-stubs.ts) is the same for every stock and layout; it asks the stock
// which parts to draw and is moved to each slot of the layout. docs/printing.md has the picture.

// Plain data with no imports, so the API's schemas and the panel can name stocks and layouts
// without loading the renderer.
const IN = 72;

export const CHECK_STOCKS = ['blank', 'preprinted'] as const;
export type CheckStock = (typeof CHECK_STOCKS)[number];

export const PAGE_LAYOUTS = ['top', 'middle', 'bottom', 'three-per-page'] as const;
export type PageLayout = (typeof PAGE_LAYOUTS)[number];

export function isCheckStock(value: string): value is CheckStock {
  return (CHECK_STOCKS as readonly string[]).includes(value);
}

export function isPageLayout(value: string): value is PageLayout {
  return (PAGE_LAYOUTS as readonly string[]).includes(value);
}

/**
 * The parts of a printed page that come with the paper on pre-printed stock. The variable fields
 * of the check (date, payee name and window address, amount, amount in words, memo, signature)
 * are not here: every stock prints them, at the same coordinates. The test mark (VOID — TEST) is
 * not here either: a test check must never pass for a real one, whatever the paper.
 */
export type StockPart =
  /** The drawer's name and address, top left of the check. */
  | 'from'
  /** The bank's name, top centre. */
  | 'bankName'
  /** The check number, top right of the check and on each stub ("Check No. 10001"). */
  | 'checkNumber'
  /** Custom elements 1–6 on the check face (7–10 are on the stubs, which the stock leaves blank). */
  | 'faceCustomElements'
  /** Printed captions, rules and boxes: "PAY TO THE ORDER OF", the date line, the amount box, "Dollars", "MEMO", the signature line. */
  | 'captions'
  /** The E-13B MICR line in the clear band. */
  | 'micr'
  /** Faint dashed lines where the page is to be cut or torn. */
  | 'perforationGuides';

export interface StockSpec {
  /** Parts drawn on this stock (everything the paper does not already carry). */
  readonly draws: ReadonlySet<StockPart>;
}

export const STOCKS: Readonly<Record<CheckStock, StockSpec>> = {
  // Blank check paper (or plain paper for a test print): everything, MICR line included.
  blank: {
    draws: new Set<StockPart>([
      'from',
      'bankName',
      'checkNumber',
      'faceCustomElements',
      'captions',
      'micr',
      'perforationGuides',
    ]),
  },
  // Pre-printed checks: the bank, the drawer, the captions, the number and the MICR line are on the
  // paper already, and it is perforated. Printing the number on a stub could contradict the paper's
  // own number if a sheet is skipped, so it is left to the paper there too.
  preprinted: { draws: new Set<StockPart>() },
};

export function stockDraws(stock: CheckStock, part: StockPart): boolean {
  return STOCKS[stock].draws.has(part);
}

/** A voucher stub: its top edge and height, points from the page's top. */
export interface StubSlot {
  readonly y: number;
  readonly height: number;
}

/** One check on the page: the top edge of its 8.5 × 3.5 in face, and its stubs (none on three-per-page). */
export interface CheckSlot {
  readonly checkY: number;
  readonly stubs: readonly StubSlot[];
}

export interface LayoutSpec {
  /** Checks on one page, top to bottom; a page holds slots.length checks. */
  readonly slots: readonly CheckSlot[];
  /** Where perforation guides are drawn (points from the page's top), each 1 pt to the stub's side of the tear so none falls in a check's clear band. */
  readonly perforations: readonly number[];
}

/**
 * The letter page is 11 in high. The three one-check layouts split it 3.5 + 3.5 + 4 in (the check
 * 3.5 in, the two stubs 3.5 and 4 in) as common three-part voucher stock does; three-per-page
 * stacks three 3.5-in checks from the top and leaves the last 0.5 in blank.
 */
export const LAYOUTS: Readonly<Record<PageLayout, LayoutSpec>> = {
  // Today's page: check 0–3.5 in, stubs 3.5–7 and 7–11 in.
  top: {
    slots: [
      {
        checkY: 0,
        stubs: [
          { y: 3.5 * IN, height: 3.5 * IN },
          { y: 7 * IN, height: 4 * IN },
        ],
      },
    ],
    perforations: [3.5 * IN + 1, 7 * IN + 1],
  },
  // Stub 0–3.5 in, check 3.5–7 in, stub 7–11 in.
  middle: {
    slots: [
      {
        checkY: 3.5 * IN,
        stubs: [
          { y: 0, height: 3.5 * IN },
          { y: 7 * IN, height: 4 * IN },
        ],
      },
    ],
    perforations: [3.5 * IN - 1, 7 * IN + 1],
  },
  // Stubs 0–3.5 and 3.5–7.5 in, check 7.5–11 in (its MICR line 3/16 in above the paper's bottom edge).
  bottom: {
    slots: [
      {
        checkY: 7.5 * IN,
        stubs: [
          { y: 0, height: 3.5 * IN },
          { y: 3.5 * IN, height: 4 * IN },
        ],
      },
    ],
    perforations: [3.5 * IN + 1, 7.5 * IN - 1],
  },
  // Checks 0–3.5, 3.5–7 and 7–10.5 in; no stubs (a voucher needs a one-check layout).
  'three-per-page': {
    slots: [
      { checkY: 0, stubs: [] },
      { checkY: 3.5 * IN, stubs: [] },
      { checkY: 7 * IN, stubs: [] },
    ],
    perforations: [3.5 * IN + 1, 7 * IN + 1, 10.5 * IN + 1],
  },
};

export interface PrintOptions {
  readonly stock: CheckStock;
  readonly layout: PageLayout;
  /**
   * Marks every check "PREVIEW — NOT PRINTED" (the panel's "Preview the PDF"): paper from a preview
   * must not pass for a check, since the check stays new and positive pay does not list it. The
   * API's GET /checks/{id}/pdf never sets it, so its bytes are unchanged.
   */
  readonly preview?: boolean;
  /**
   * Marks every check "NOT APPROVED — NOT NEGOTIABLE" and leaves out its MICR line: the check
   * waits for approvals its company's policy asks for (docs/approvals.md), so no paper of it may
   * clear at a bank.
   */
  readonly notApproved?: boolean;
}

/** What POST /checks/print has always printed: blank stock, check on top. */
export const DEFAULT_PRINT_OPTIONS: PrintOptions = { stock: 'blank', layout: 'top' };
