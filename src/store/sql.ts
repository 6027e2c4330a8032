// SQL text and its parameters built together, so they cannot drift apart.
//
//   const s = sql`SELECT ${raw(COLUMNS)} FROM payees WHERE id = ${id} AND ${owned(owner, { live: true })}`;
//   const row = await q.get<PayeeRow>(s.text, s.params);
//
// A plain value becomes one `?` and its parameter in place; a `Sql` fragment (the owner filter, an
// IN list, a column list made with `raw`) is spliced in with its own parameters. Nothing else is
// accepted, so a value can never end up in the text.
//
// The prepared-statement caches (db.ts) are keyed by the text, so the text of one query shape
// must be the same string every call. Each call site's text is kept with its template and reused
// while the fragments spliced into it are the same (compared by identity first: `owned` and `raw`
// fragments made at module load hand out the same string each time), so a hot query builds no
// string per call and hands the cache a string whose hash is already known.
import type { SqlValue } from './db.ts';

export class Sql {
  constructor(
    readonly text: string,
    readonly params: readonly SqlValue[],
  ) {}
}

/** Text with no parameters: a column list, a table name, a constant condition. Never user input. */
export function raw(text: string): Sql {
  return new Sql(text, []);
}

/** `(?, ?, ?)` with one parameter per value: the right-hand side of `IN`. Never empty. */
export function inList(values: readonly SqlValue[]): Sql {
  return new Sql(`(${values.map(() => '?').join(', ')})`, values);
}

/** Fragments joined by `separator` (`, ` for SET lists, ` AND ` for conditions). */
export function joinSql(parts: readonly Sql[], separator: string): Sql {
  return new Sql(
    parts.map((p) => p.text).join(separator),
    parts.flatMap((p) => p.params),
  );
}

interface Compiled {
  /** What each interpolation put in the text: '?' for a value, else the fragment's text. */
  readonly pieces: readonly string[];
  readonly text: string;
}

const compiled = new WeakMap<TemplateStringsArray, Compiled>();

export function sql(strings: TemplateStringsArray, ...parts: readonly (SqlValue | Sql)[]): Sql {
  const params: SqlValue[] = [];
  const known = compiled.get(strings);
  let same = known !== undefined;
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i];
    if (part instanceof Sql) {
      if (same && known?.pieces[i] !== part.text) same = false;
      for (let j = 0; j < part.params.length; j += 1) params.push(part.params[j] as SqlValue);
    } else {
      if (same && known?.pieces[i] !== '?') same = false;
      params.push(part as SqlValue);
    }
  }
  if (same && known !== undefined) return new Sql(known.text, params);
  const pieces = parts.map((part) => (part instanceof Sql ? part.text : '?'));
  let text = strings[0] ?? '';
  for (let i = 0; i < pieces.length; i += 1) text += pieces[i] + (strings[i + 1] ?? '');
  compiled.set(strings, { pieces, text });
  return new Sql(text, params);
}
