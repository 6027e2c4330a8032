// One row's cells into the API request it stands for (a check or a payee), each cell checked as
// the import checks every cell (domain/import-columns.ts); a cell's problem is the row's message.
// PURE like read-import-file.ts.
import {
  CellError,
  type DateOrder,
  type ImportField,
  type PayeeRow,
  safeCell,
  sheetAmount,
  sheetDate,
  sheetFlag,
} from '../../domain/import-columns.ts';

/** A check row as the file alone says it: the request, and the names the preview looks up. */
export interface CheckRow {
  item: Record<string, unknown>;
  payeeName: string | null;
  categoryName: string | null;
}

/** Collects a row's messages once each. */
export function adder(list: string[]): (message: string) => void {
  return (message) => {
    if (!list.includes(message)) list.push(message);
  };
}

function cellText(field: string, text: string, add: (message: string) => void): string {
  try {
    return safeCell(field, text);
  } catch (error) {
    if (!(error instanceof CellError)) throw error;
    add(error.message);
    return '';
  }
}

/** A row's cells into a create-check request; cell problems go to `add`. */
export function checkRow(
  cells: Partial<Record<ImportField, string>>,
  request: { readonly bankAccountId?: string; readonly dateOrder?: DateOrder },
  add: (message: string) => void,
): CheckRow {
  const item: Record<string, unknown> = {};
  let payeeName: string | null = null;
  let categoryName: string | null = null;
  const cell = (field: string, convert: (text: string) => unknown): void => {
    const text = cells[field as ImportField];
    if (text === undefined || text === '') return;
    try {
      item[field] = convert(safeCell(field, text));
    } catch (error) {
      if (!(error instanceof CellError)) throw error;
      add(error.message);
    }
  };
  const bank = cells.bankAccountId ?? '';
  item.bankAccountId = bank === '' ? (request.bankAccountId ?? '') : cellText('bankAccountId', bank, add);
  cell('payeeId', (t) => t);
  const payee = cells.payee ?? '';
  if (item.payeeId === undefined && payee !== '') {
    const text = cellText('payee', payee, add);
    if (/^pay_[0-9A-Za-z]+$/.test(text)) item.payeeId = text;
    else payeeName = text;
  }
  const category = cells.category ?? '';
  if (category !== '') {
    const text = cellText('category', category, add);
    if (/^cat_[0-9A-Za-z]+$/.test(text)) item.categoryId = text;
    else categoryName = text;
  }
  cell('serialNumber', (t) => t.replace(/^#/, ''));
  cell('issueDate', (t) => sheetDate(t, request.dateOrder ?? 'mdy'));
  cell('amount', sheetAmount);
  for (const field of ['memo', 'note', 'accountNumber', 'invoiceNumber', 'referenceId']) cell(field, (t) => t);
  for (const field of ['noSign', 'noAmount', 'noDate', 'noPayee']) cell(field, (t) => sheetFlag(field, t));
  return { item, payeeName, categoryName };
}

export function payeeRow(cells: Partial<Record<ImportField, string>>, add: (message: string) => void): PayeeRow {
  const item: Record<string, string> = {};
  for (const [field, text] of Object.entries(cells)) {
    if (text === '' && field !== 'name') continue;
    item[field] = cellText(field, text, add);
  }
  return item as PayeeRow;
}
