// A CSV reader (RFC 4180) for imports: fields separated by commas, records by CRLF or LF (a lone
// CR too, as old spreadsheet exports write), a field in double quotes may hold commas, line breaks
// and doubled quotes (""), a UTF-8 byte-order mark is skipped, a blank trailing line is no record.
// One pass over the text; it stops at the first malformed record or past `maxRecords`, so the work
// is bounded by the caller's limits however large the text.

export class CsvError extends Error {
  override name = 'CsvError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`Line ${line}: ${message}`);
  }
}

export interface CsvLimits {
  /** Records after the header; one more is refused with a CsvError. */
  readonly maxRecords: number;
}

export interface CsvTable {
  readonly header: string[];
  /** Every record after the header, each as long as the header (short records padded with ''). */
  readonly rows: string[][];
  /** The line each row starts on (1-based, the header is line 1): what error messages cite. */
  readonly lines: number[];
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

/** Splits `text` into records of fields. Throws CsvError for a stray quote or an unclosed field. */
export function readRecords(text: string, maxRecords: number): { records: string[][]; lines: number[] } {
  const records: string[][] = [];
  const lines: number[] = [];
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const end = text.length;
  while (at < end) {
    const startLine = line;
    const record: string[] = [];
    // One record: fields until an unquoted line break or the end of the text.
    for (;;) {
      let value = '';
      if (text.charCodeAt(at) === QUOTE) {
        at++;
        let from = at;
        for (;;) {
          const close = text.indexOf('"', at);
          if (close < 0) throw new CsvError(startLine, 'a quoted field is never closed (a " is missing)');
          for (let i = at; i < close; i++) if (text.charCodeAt(i) === LF) line++;
          if (text.charCodeAt(close + 1) === QUOTE) {
            value += text.slice(from, close + 1);
            at = close + 2;
            from = at;
            continue;
          }
          value += text.slice(from, close);
          at = close + 1;
          break;
        }
        const next = text.charCodeAt(at);
        if (at < end && next !== COMMA && next !== CR && next !== LF)
          throw new CsvError(line, 'a quoted field must end at a comma or the end of the line');
      } else {
        const from = at;
        while (at < end) {
          const c = text.charCodeAt(at);
          if (c === COMMA || c === CR || c === LF) break;
          if (c === QUOTE)
            throw new CsvError(
              line,
              'a " inside a field that does not start with one (quote the field and double the ")',
            );
          at++;
        }
        value = text.slice(from, at);
      }
      record.push(value);
      if (at < end && text.charCodeAt(at) === COMMA) {
        at++;
        continue;
      }
      break;
    }
    // The line break that ends the record: CRLF, LF or CR.
    if (text.charCodeAt(at) === CR) at++;
    if (text.charCodeAt(at) === LF) at++;
    line++;
    // A blank line (a lone empty field) is no record: spreadsheets end files with one.
    if (record.length === 1 && record[0] === '') continue;
    if (records.length >= maxRecords) throw new CsvError(startLine, `the file has more than ${maxRecords - 1} rows`);
    records.push(record);
    lines.push(startLine);
  }
  return { records, lines };
}

/** The header and the rows of a CSV file, each row padded to the header's width. */
export function parseCsv(text: string, limits: CsvLimits): CsvTable {
  const { records, lines } = readRecords(text, limits.maxRecords + 1);
  const header = (records[0] ?? []).map((name) => name.trim());
  if (header.length === 0 || header.every((name) => name === ''))
    throw new CsvError(1, 'the file is empty: the first line must name the columns');
  const rows = records.slice(1);
  rows.forEach((row, i) => {
    if (row.length > header.length)
      throw new CsvError(lines[i + 1] ?? 0, `the row has ${row.length} fields but the header names ${header.length}`);
    while (row.length < header.length) row.push('');
  });
  return { header, rows, lines: lines.slice(1) };
}
