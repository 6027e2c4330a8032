// QuickBooks Desktop's IIF export: tab-separated TRNS/SPL/ENDTRNS blocks whose fields are named by
// the !TRNS and !SPL lines above them. PURE: text in, records out.

/** QuickBooks Desktop's IIF: tab-separated; `!TRNS`/`!SPL` lines name the fields of TRNS/SPL lines. */
export function isIif(text: string): boolean {
  return /^\uFEFF?!(TRNS|HDR|ACCNT|VEND)\b/.test(text) && text.includes('\t');
}

/** An IIF file as one header (the !TRNS line's) and its TRNS/SPL/ENDTRNS lines under it. */
export function iifRecords(text: string): { records: string[][]; lines: number[] } | { problem: string } {
  const all = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  let trns: string[] | null = null;
  let spl: string[] | null = null;
  const records: string[][] = [];
  const lines: number[] = [];
  all.forEach((raw, i) => {
    const cells = raw.split('\t');
    const kind = cells[0] ?? '';
    if (kind === '!TRNS') trns = cells;
    else if (kind === '!SPL') spl = cells;
    else if (kind === 'TRNS' || kind === 'SPL' || kind === 'ENDTRNS') {
      const names: string[] | null = kind === 'SPL' ? spl : trns;
      if (names === null) return;
      // Each line in the !TRNS header's columns, so one header serves TRNS and SPL alike.
      const byName = new Map(names.map((n, j) => [n.replace(/^!/, ''), cells[j] ?? ''] as const));
      records.push((trns ?? []).map((n, j) => (j === 0 ? kind : (byName.get(n) ?? ''))));
      lines.push(i + 1);
    }
  });
  if (trns === null) return { problem: 'Line 1: an IIF file without a !TRNS line naming its fields' };
  return { records: [trns, ...records], lines: [1, ...lines] };
}
