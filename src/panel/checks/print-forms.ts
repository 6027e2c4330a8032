// The print controls of the checks list and of a check's page: paper (stock) and layout selects
// and the Print button. Plain form controls; they work without script.
import type { FastifyRequest } from 'fastify';
import { canPrint, statusName } from '../../domain/check-status.ts';
import type { Check } from '../../domain/check.ts';
import type { Environment } from '../../domain/owner.ts';
import {
  CHECK_STOCKS,
  type CheckStock,
  DEFAULT_PRINT_OPTIONS,
  PAGE_LAYOUTS,
  type PageLayout,
  type PrintOptions,
} from '../../render/print-layout.ts';
import { MAX_BATCH } from '../../schemas/common.ts';
import { html, type Html } from '../shell/html.ts';
import { csrfField, withEnv } from '../shell/layout.ts';

/** Checks one print may hold: a request's cost stays bounded (the API's batch limit). */
export const MAX_PRINT = MAX_BATCH;

export const STOCK_LABELS: Readonly<Record<CheckStock, string>> = {
  // Short enough for a phone's select, which cuts long options; the hint under "Paper" says the rest.
  blank: 'Blank check paper',
  preprinted: 'Pre-printed checks',
};

export const LAYOUT_LABELS: Readonly<Record<PageLayout, string>> = {
  top: 'Check on top, two stubs below',
  middle: 'Check in the middle, a stub above and below',
  bottom: 'Check at the bottom, two stubs above',
  'three-per-page': 'Three checks a page, no stubs',
};

/** The paper and layout selects; `idPrefix` keeps ids unique when a page has two print forms. */
export function printOptionFields(idPrefix: string, chosen: PrintOptions = DEFAULT_PRINT_OPTIONS): Html {
  const option = (value: string, label: string, selected: boolean): Html =>
    html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;
  return html`<div><label for="${idPrefix}-stock">Paper</label><select id="${idPrefix}-stock" name="stock" aria-describedby="${idPrefix}-stock-hint">${CHECK_STOCKS.map(
    (s) => option(s, STOCK_LABELS[s], s === chosen.stock),
  )}</select><p class="hint fixed" id="${idPrefix}-stock-hint">Blank: we print everything, MICR line too. Pre-printed: only the filled-in fields.</p></div>
<div><label for="${idPrefix}-layout">Layout</label><select id="${idPrefix}-layout" name="layout">${PAGE_LAYOUTS.map(
    (l) => option(l, LAYOUT_LABELS[l], l === chosen.layout),
  )}</select></div>`;
}

/**
 * Opens the list's print form: the checkboxes of the table that follows belong to it. The action
 * keeps the list's query, so a refused print shows the same list again with the message.
 */
export function listPrintFormStart(
  request: FastifyRequest,
  listQuery: string,
  chosen: PrintOptions,
  problem: string | undefined,
): Html {
  const action = `/panel/checks/print${listQuery === '' ? '' : `?${listQuery}`}`;
  return html`<form method="post" action="${action}" aria-label="Print checks">${csrfField(request)}
<section class="card" aria-labelledby="print-h"><h2 id="print-h">Print</h2>
<p class="hint">Tick the checks below, choose the paper and layout, and print: one PDF of all of them (at most ${MAX_PRINT}), in check-number order, and each moves to printed. A check printed before is reprinted with the same number. Test checks print marked VOID — TEST.</p>
${problem === undefined ? '' : html`<div class="problem" role="alert" id="print-problem">${problem}</div>`}
<div class="row">${printOptionFields('print', chosen)}<div><button type="submit">Print selected</button></div></div></section>`;
}

export function listPrintFormEnd(): Html {
  return html`</form>`;
}

/** The checkbox of one row of the list. */
export function printCheckbox(check: Check, checked: boolean): Html {
  return html`<input type="checkbox" name="checkIds" value="${check.id}" aria-label="Select check ${check.serialNumber}"${checked ? html` checked` : ''}>`;
}

/** The Print (or Reprint) form of a check's page, or why it cannot be printed. */
export function checkPrintForm(request: FastifyRequest, check: Check, env: Environment): Html {
  if (!canPrint(check.status)) {
    return html`<section class="card" aria-labelledby="print-h"><h2 id="print-h">Print</h2>
<p>This check is ${statusName(check.status)}: it cannot be printed. Only new and printed checks print.</p></section>`;
  }
  const reprint = statusName(check.status) === 'printed';
  return html`<form method="post" action="${withEnv(`/panel/checks/${check.id}/print`, env)}" class="card" aria-labelledby="print-h">${csrfField(request)}
<h2 id="print-h">${reprint ? 'Reprint' : 'Print'}</h2>
<p class="hint">${
    reprint
      ? 'This check was printed before. Reprinting gives the same check with the same number, and is recorded as a statement.'
      : 'Downloads the check as a PDF and moves it to printed.'
  }</p>
<div class="row">${printOptionFields('one')}<div><button type="submit">${reprint ? 'Reprint' : 'Print'}</button></div></div></form>`;
}
