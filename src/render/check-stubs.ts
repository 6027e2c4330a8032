import { formatCents } from '../domain/money.ts';
import { type CheckDocument, CUSTOM_ELEMENT_KEYS, type VoucherItem } from './check-document.ts';
import { element } from './check-face.ts';
import {
  formatQuantity,
  IN,
  LABEL,
  LEFT,
  PAGE_WIDTH,
  put,
  RIGHT,
  rule,
  type TextStyle,
  VOID_RED,
} from './check-layout.ts';
import type { PreparedCheck } from './check-validation.ts';
import type { Pdf } from './pdf-document.ts';
import { type CheckStock, stockDraws } from './print-layout.ts';

export const ROW = 11;

export function drawVoucherTable(doc: Pdf, check: CheckDocument, top: number, bottom: number): void {
  const voucher = check.voucher;
  if (voucher === null) return;
  const cols = {
    invoice: LEFT,
    description: 1.75 * IN,
    quantityRight: 5.7 * IN,
    unitRight: 6.8 * IN,
    totalRight: RIGHT,
  };
  const header = top;
  const label: TextStyle = { font: 'Helvetica-Bold', size: 8, color: LABEL };
  put(doc, 'Invoice', cols.invoice, header, label);
  put(doc, 'Description', cols.description, header, label);
  put(doc, 'Qty', cols.quantityRight, header, { ...label, align: 'right' });
  put(doc, 'Unit cost', cols.unitRight, header, { ...label, align: 'right' });
  put(doc, 'Total', cols.totalRight, header, { ...label, align: 'right' });
  rule(doc, LEFT, RIGHT, header + 11, 0.4);

  // Rows that fit above the total line; the rest are summarised in one line (and still counted in the total).
  const firstRow = header + 15;
  const capacity = Math.max(1, Math.floor((bottom - 16 - firstRow) / ROW));
  const items = voucher.items;
  const shown = items.length > capacity ? items.slice(0, capacity - 1) : items;
  const row: TextStyle = { font: 'Helvetica', size: 8.5 };
  shown.forEach((item: VoucherItem, i) => {
    const y = firstRow + i * ROW;
    // Either part may be empty: an imported bill's line has a description and no name.
    const description = [item.name, item.description]
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .join(' — ');
    put(doc, item.invoiceNumber, cols.invoice, y, { ...row, maxWidth: cols.description - cols.invoice - 6 });
    put(doc, description, cols.description, y, { ...row, maxWidth: cols.quantityRight - 0.5 * IN - cols.description });
    put(doc, formatQuantity(item.quantity), cols.quantityRight, y, { ...row, align: 'right' });
    // No unit cost given (the API's default is 0) on a line with a total: leave it blank rather
    // than print a price of 0.00 beside an amount that is not zero.
    const noUnitCost = item.unitCostCents === 0 && item.totalCents !== 0;
    if (!noUnitCost) put(doc, formatCents(item.unitCostCents), cols.unitRight, y, { ...row, align: 'right' });
    put(doc, formatCents(item.totalCents), cols.totalRight, y, { ...row, align: 'right' });
  });
  let y = firstRow + shown.length * ROW;
  if (shown.length < items.length) {
    const more = items.length - shown.length;
    put(doc, `… and ${more} more item${more === 1 ? '' : 's'}`, cols.description, y, { ...row, color: LABEL });
    y += ROW;
  }
  rule(doc, 5.0 * IN, RIGHT, y + 1, 0.4);
  const total = items.reduce((sum, item) => sum + item.totalCents, 0);
  put(doc, 'Total', cols.unitRight, y + 4, { font: 'Helvetica-Bold', size: 8.5, align: 'right' });
  put(doc, `$${formatCents(total)}`, cols.totalRight, y + 4, { font: 'Helvetica-Bold', size: 8.5, align: 'right' });
}

export function drawStubDetails(doc: Pdf, prepared: PreparedCheck, top: number): void {
  const check = prepared.doc;
  const rows: Array<[string, string]> = [
    ['Payee', check.noPayee || check.payee === null ? '' : check.payee.name],
    ['Date', check.noDate ? '' : prepared.date],
    ['Amount', check.noAmount || check.amountCents === null ? '' : `$${formatCents(check.amountCents)}`],
    ['Memo', check.memo ?? ''],
    ['Invoice number', check.invoiceNumber ?? ''],
  ];
  rows.forEach(([label, value], i) => {
    const y = top + i * 14;
    put(doc, label, LEFT, y + 1, { font: 'Helvetica-Bold', size: 8, color: LABEL });
    put(doc, value, 1.6 * IN, y, { font: 'Helvetica', size: 9.5, maxWidth: RIGHT - 1.6 * IN });
  });
}

export function drawStub(
  doc: Pdf,
  prepared: PreparedCheck,
  stock: CheckStock,
  top: number,
  height: number,
  tableBottom: number,
): void {
  const check = prepared.doc;
  put(doc, check.from.name, LEFT, top + 0.3 * IN, { font: 'Helvetica-Bold', size: 10, maxWidth: 3 * IN });
  if (stockDraws(stock, 'checkNumber')) {
    put(doc, `Check No. ${check.checkNumber}`, RIGHT, top + 0.3 * IN, {
      font: 'Helvetica-Bold',
      size: 10,
      align: 'right',
    });
  }
  if (check.environment === 'test') {
    put(doc, 'VOID — TEST', PAGE_WIDTH / 2 + 0.6 * IN, top + 0.28 * IN, {
      font: 'Helvetica-Bold',
      size: 12,
      align: 'center',
      color: VOID_RED,
    });
  }

  const infoY = top + 0.55 * IN;
  const payee = check.noPayee || check.payee === null ? '' : check.payee.name;
  put(doc, payee === '' ? '' : `Pay to: ${payee}`, LEFT, infoY, { font: 'Helvetica', size: 9, maxWidth: 4.3 * IN });
  if (!check.noDate) put(doc, `Date: ${prepared.date}`, 5.0 * IN, infoY, { font: 'Helvetica', size: 9 });
  if (!check.noAmount && check.amountCents !== null) {
    put(doc, `$${formatCents(check.amountCents)}`, RIGHT, infoY, { font: 'Helvetica-Bold', size: 9, align: 'right' });
  }
  rule(doc, LEFT, RIGHT, infoY + 13, 0.5);

  const footerLines = CUSTOM_ELEMENT_KEYS.slice(6)
    .map((k) => element(check, k))
    .filter((v) => v !== '');
  const footerTop = top + height - 0.3 * IN - footerLines.length * 9;
  footerLines.forEach((line, i) => {
    put(doc, line, LEFT, footerTop + i * 9, { font: 'Helvetica', size: 7.5, maxWidth: RIGHT - LEFT, color: LABEL });
  });

  const bodyTop = infoY + 0.3 * IN;
  if (check.voucher === null) {
    drawStubDetails(doc, prepared, bodyTop);
    return;
  }
  const v = check.voucher;
  const heading = [
    v.voucherNumber === null ? '' : `Voucher ${v.voucherNumber}`,
    prepared.voucherDate === null ? '' : `Voucher date ${prepared.voucherDate}`,
    v.memo === null ? '' : `Memo: ${v.memo}`,
  ].filter((s) => s !== '');
  put(doc, heading.join('    '), LEFT, bodyTop - 6, { font: 'Helvetica', size: 8.5, maxWidth: RIGHT - LEFT });
  // Both stubs show the same rows, so the shorter stub sets the capacity.
  drawVoucherTable(doc, check, bodyTop + 10, Math.min(tableBottom, footerTop) - 4);
}

export function drawPerforationGuide(doc: Pdf, y: number): void {
  // A faint guide for blank stock; pre-perforated stock tears here. The layouts place it 1 pt to
  // the stub's side of the tear so it stays out of the check's clear band.
  doc.save();
  doc
    .moveTo(0.25 * IN, y)
    .lineTo(PAGE_WIDTH - 0.25 * IN, y)
    .lineWidth(0.3)
    .dash(2, { space: 3 })
    .strokeColor('#999999')
    .stroke();
  doc.undash();
  doc.restore();
}
