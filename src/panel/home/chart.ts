// The home page's chart of one bank account: checks written and cleared in each
// of the last weeks, as bars drawn on the server in SVG — no script, no style attribute (the CSP
// allows neither inline), colours from the stylesheet's classes. A screen reader gets the chart's
// name and a summary of it, and the table under it holds every number the bars show.
import type { WeekActivity } from '../../services/home.service.ts';
import { type Html, html } from '../shell/html.ts';
import { money } from '../shell/layout.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** "Nov 23" for 2026-11-23. */
export function shortDate(date: string): string {
  return `${MONTHS[Number(date.slice(5, 7)) - 1] ?? date.slice(5, 7)} ${Number(date.slice(8, 10))}`;
}

const plural = (count: number, one: string): string => `${count} ${one}${count === 1 ? '' : 's'}`;

// The drawing's own units (the viewBox); the SVG scales to the card's width.
const WIDTH = 360;
const HEIGHT = 172;
const LEFT = 30;
const RIGHT = 6;
const TOP = 10;
const BASE = 138;
const BAR = 9;

/**
 * The top of the scale: up to 10 checks the largest count made even (at least 2), so the middle
 * line is a whole number too; above, rounded up to 2, 5 or 10 times a power of ten.
 */
export function scaleTop(largest: number): number {
  if (largest <= 10) return Math.max(2, largest + (largest % 2));
  let step = 10;
  for (;;) {
    for (const m of [1, 2, 5]) if (m * step >= largest) return m * step;
    step *= 10;
  }
}

/** The chart and its table, for the weeks of one bank account; `id` makes its element ids unique. */
export function weeksChart(id: string, bankAccountName: string, weeks: readonly WeekActivity[]): Html {
  const top = scaleTop(Math.max(0, ...weeks.flatMap((w) => [w.written.count, w.cleared.count])));
  const slot = (WIDTH - LEFT - RIGHT) / Math.max(1, weeks.length);
  const y = (count: number): number => BASE - ((BASE - TOP) * count) / top;
  const fmt = (n: number): string => String(Math.round(n * 10) / 10);
  const first = weeks[0];
  const last = weeks[weeks.length - 1];
  const written = weeks.reduce((s, w) => ({ n: s.n + w.written.count, c: s.c + w.written.totalCents }), { n: 0, c: 0 });
  const cleared = weeks.reduce((s, w) => ({ n: s.n + w.cleared.count, c: s.c + w.cleared.totalCents }), { n: 0, c: 0 });
  const range =
    first === undefined || last === undefined ? '' : `${shortDate(first.week.start)} to ${shortDate(last.week.end)}`;
  const summary = `${weeks.length} weeks, ${range}: ${plural(written.n, 'check')} written (${money(written.c)}), ${plural(cleared.n, 'check')} cleared (${money(cleared.c)}). Each week's numbers are in the table below the chart.`;
  const bars = weeks.map((w, i) => {
    const x = LEFT + i * slot + (slot - 2 * BAR - 2) / 2;
    const label = `Week of ${shortDate(w.week.start)}`;
    const bar = (kind: 'written' | 'cleared', count: number, cents: number, at: number): Html =>
      html`<rect class="bar-${kind}" x="${fmt(at)}" y="${fmt(y(count))}" width="${BAR}" height="${fmt(BASE - y(count))}" data-count="${count}"><title>${label}: ${plural(count, 'check')} ${kind}, ${money(cents)}</title></rect>`;
    // Every other week is named under the axis, ending with this week's.
    const named = (weeks.length - 1 - i) % 2 === 0;
    return html`<g>${bar('written', w.written.count, w.written.totalCents, x)}${bar('cleared', w.cleared.count, w.cleared.totalCents, x + BAR + 2)}${
      named
        ? html`<text class="axis" x="${fmt(LEFT + i * slot + slot / 2)}" y="${BASE + 16}" text-anchor="middle">${shortDate(w.week.start)}</text>`
        : ''
    }</g>`;
  });
  const gridlines = [0, top / 2, top]
    .filter((v) => Number.isInteger(v))
    .map(
      (v) =>
        html`<line class="grid" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${fmt(y(v))}" y2="${fmt(y(v))}"></line><text class="axis" x="${LEFT - 5}" y="${fmt(y(v) + 4)}" text-anchor="end">${v}</text>`,
    );
  const rows = weeks.map(
    (w) =>
      html`<tr><th scope="row">${shortDate(w.week.start)} – ${shortDate(w.week.end)}</th><td class="num">${w.written.count}</td><td class="num">${money(w.written.totalCents)}</td><td class="num">${w.cleared.count}</td><td class="num">${money(w.cleared.totalCents)}</td></tr>`,
  );
  return html`<figure class="weeks" aria-labelledby="${id}-caption">
<figcaption id="${id}-caption">Checks per week, last ${weeks.length} weeks <span class="legend"><span class="swatch written"></span>Written <span class="swatch cleared"></span>Cleared</span></figcaption>
<svg class="weeks-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}-title ${id}-desc" focusable="false">
<title id="${id}-title">Checks written and cleared per week, ${bankAccountName}</title>
<desc id="${id}-desc">${summary}</desc>
${gridlines}${bars}
<text class="axis" x="${LEFT}" y="${HEIGHT - 2}">Weeks start on Monday</text>
</svg>
<details><summary>Every week's numbers</summary>
<div class="table"><table id="${id}-table"><caption class="hint">${summary.replace(/ Each week's.*$/, '')} Written: checks dated in the week, whatever their status now. Cleared: paid by the bank in the week.</caption>
<thead><tr><th scope="col">Week</th><th scope="col" class="num">Written</th><th scope="col" class="num">Amount</th><th scope="col" class="num">Cleared</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>${rows}</tbody></table></div></details>
</figure>`;
}
