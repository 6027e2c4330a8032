// CSV files from the outside world (imports, the bank's cleared-items file) read by csv-parse, a
// maintained parser, with bounds stated by the caller: columns per record, characters per cell and
// per record, records per file. Each bound is checked as the parser goes — the column and cell
// bounds per field, the record bound per byte, the record count per record — so a hostile file is
// refused at the first record past a bound, after work linear in what was read up to there.
// Accepted as today: a UTF-8 byte-order mark, CRLF, LF or a lone CR between records (mixed too),
// fields in double quotes holding commas, line breaks and doubled quotes, blank lines (skipped).
//
// Pure: text in, plain data out (no exceptions for bad input, no class instances in the result), so
// a worker thread can run it and post its answer back as is.
import { CsvError as ParserError, parse } from 'csv-parse/sync';

export interface CsvLimits {
  /** Fields in one record, at most. */
  readonly maxColumns: number;
  /** Characters in one field, at most. */
  readonly maxCellChars: number;
  /** Characters in one record (its fields together), at most: bounds what one record buffers. */
  readonly maxRecordChars: number;
  /** Non-blank records in the file (a header included), at most. */
  readonly maxRecords: number;
}

export type CsvProblemKind = 'syntax' | 'too_many_columns' | 'cell_too_long' | 'record_too_long' | 'too_many_records';

/** Why a file was refused: where (1-based line, and column when one is to blame) and in words. */
export interface CsvProblem {
  readonly kind: CsvProblemKind;
  readonly line: number;
  readonly column: number | null;
  /** "Line 3, column 2: ..." — a sentence without a final full stop. */
  readonly message: string;
}

export interface CsvRecords {
  /** The non-blank records, each with its own number of fields. */
  readonly records: string[][];
  /** The line each record starts on (1-based): what messages cite. */
  readonly lines: number[];
}

export type CsvReadResult = ({ readonly ok: true } & CsvRecords) | { readonly ok: false; readonly problem: CsvProblem };

export interface CsvReadOptions {
  /**
   * Banks' exports: a quote inside an unquoted field is kept as a character (`12" pipe`) and
   * spaces around a field are dropped, so `  "x"` is the quoted field x. Imports are strict.
   */
  readonly lenient?: boolean;
}

const count = (n: number): string => n.toLocaleString('en-US');

/** Thrown inside the parser's callbacks to stop it at a bound; turned into a CsvProblem below. */
interface Stop {
  readonly stop: CsvProblem;
}

function problem(kind: CsvProblemKind, line: number, column: number | null, text: string): CsvProblem {
  const where = column === null ? `Line ${line}` : `Line ${line}, column ${column}`;
  return { kind, line, column, message: `${where}: ${text}` };
}

function syntaxText(error: ParserError): string {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is not closed (a " is missing)';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'a quoted field must end at a comma or the end of the line';
    case 'INVALID_OPENING_QUOTE':
      return 'a " inside a field that does not start with one (quote the field and double the ")';
    default:
      return 'the line cannot be read as CSV';
  }
}

/** Reads `text` into records within `limits`, or the first bound or syntax rule it breaks. */
export function readCsv(text: string, limits: CsvLimits, options: CsvReadOptions = {}): CsvReadResult {
  const records: string[][] = [];
  const lines: number[] = [];
  // The line after the last record read: where the record being read starts.
  let nextLine = 1;
  // csv-parse counts a CRLF inside a quoted field as two lines; these are taken off its count.
  let crlfInQuotes = 0;
  const stop = (p: CsvProblem): Stop => ({ stop: p });
  try {
    parse(text, {
      bom: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      relax_quotes: options.lenient === true,
      trim: options.lenient === true,
      // Bounds what one record buffers; the column and cell bounds are checked per record below
      // (csv-parse's per-field hook, `cast`, costs seven times the parse on an ordinary file).
      max_record_size: limits.maxRecordChars,
      // `context.lines` is the line the record ends on (a quoted line break makes it span lines).
      on_record: (record: string[], context: { lines: number }) => {
        const startLine = nextLine;
        for (const field of record) if (field.includes('\r\n')) crlfInQuotes += field.split('\r\n').length - 1;
        nextLine = context.lines - crlfInQuotes + 1;
        // A blank line (one empty field) is no record: spreadsheets end files with one.
        if (record.length === 1 && record[0] === '') return null;
        if (record.length > limits.maxColumns)
          throw stop(
            problem(
              'too_many_columns',
              startLine,
              limits.maxColumns + 1,
              `the line has ${count(record.length)} columns; at most ${count(limits.maxColumns)} are taken`,
            ),
          );
        for (let i = 0; i < record.length; i++) {
          if ((record[i] ?? '').length > limits.maxCellChars)
            throw stop(
              problem(
                'cell_too_long',
                startLine,
                i + 1,
                `a cell is longer than ${count(limits.maxCellChars)} characters`,
              ),
            );
        }
        if (records.length >= limits.maxRecords)
          throw stop(
            problem('too_many_records', startLine, null, `the file has more than ${count(limits.maxRecords)} records`),
          );
        records.push(record);
        lines.push(startLine);
        return null;
      },
    });
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'stop' in error)
      return { ok: false, problem: (error as Stop).stop };
    if (!(error instanceof ParserError)) throw error;
    if (error.code === 'CSV_MAX_RECORD_SIZE')
      return {
        ok: false,
        problem: problem(
          'record_too_long',
          nextLine,
          null,
          `a line is longer than ${count(limits.maxRecordChars)} characters`,
        ),
      };
    // An unclosed quote runs to the end of the file: the line it opened on is the one to fix.
    const line =
      error.code !== 'CSV_QUOTE_NOT_CLOSED' && typeof error.lines === 'number' ? error.lines - crlfInQuotes : nextLine;
    return { ok: false, problem: problem('syntax', line, null, syntaxText(error)) };
  }
  return { ok: true, records, lines };
}
