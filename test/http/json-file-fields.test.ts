// The file-field size read off the raw JSON text (src/http/plugins/json-file-fields.ts), against
// Buffer.byteLength of what JSON.parse makes of the same text: the two must agree on every string,
// however it is escaped, or a file at the limit would be refused (or one past it let through).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodedStringBytes, oversizeFileField } from '../../src/http/plugins/json-file-fields.ts';

/** Every UTF-16 code unit as a \uXXXX escape: what Python's json.dumps writes for non-ASCII text. */
const escapeAll = (s: string): string =>
  `"${Array.from({ length: s.length }, (_, i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')}"`;

const bytesOfParsed = (json: string): number => Buffer.byteLength(JSON.parse(json) as string, 'utf8');

describe('decodedStringBytes', () => {
  it('equals Buffer.byteLength of the parsed string, as JSON.stringify writes it and with every unit escaped', () => {
    // Full Unicode (astral pairs), lone surrogates, control characters, quotes and backslashes.
    const anyText = fc.string({ unit: 'binary', maxLength: 200 });
    fc.assert(
      fc.property(anyText, (s) => {
        for (const json of [JSON.stringify(s), escapeAll(s)])
          expect(decodedStringBytes(json, 1), json).toBe(bytesOfParsed(json));
      }),
      { numRuns: 500 },
    );
  });

  it('counts by hand-checked cases: escapes shrink, pairs are 4 bytes, halves 3', () => {
    expect(decodedStringBytes('"a\\nb\\"c\\\\"', 1)).toBe(6);
    expect(decodedStringBytes('"é€😀"', 1)).toBe(2 + 3 + 4);
    expect(decodedStringBytes('"\\ud83d\\ude00"', 1)).toBe(4);
    expect(decodedStringBytes('"\\ud83d😀"', 1)).toBe(3 + 4);
    expect(decodedStringBytes('"\\ude00\\ud83d"', 1)).toBe(6);
  });

  it('stops counting once past its bound', () => {
    expect(decodedStringBytes(`"${'x'.repeat(1_000)}"`, 1, 10)).toBe(11);
  });
});

describe('oversizeFileField', () => {
  const limit = 100;
  const body = (csv: string): string => JSON.stringify({ type: 'payees', csv });

  it('names the file field whose decoded bytes pass the limit, at the limit and one past it', () => {
    // Quotes and line breaks: the raw text is near twice the file, the file exactly at the limit.
    const atLimit = '"\n'.repeat(limit / 2);
    expect(Buffer.byteLength(atLimit)).toBe(limit);
    expect(body(atLimit).length).toBeGreaterThan(2 * limit);
    expect(oversizeFileField(body(atLimit), ['csv'], limit)).toBeNull();
    expect(oversizeFileField(body(`${atLimit}x`), ['csv'], limit)).toBe('csv');
    expect(oversizeFileField(body(`${atLimit.slice(1)}é`), ['csv'], limit)).toBe('csv');
  });

  it('reads keys as JSON.parse does and only at the top level of an object', () => {
    const big = 'x'.repeat(limit + 1);
    expect(oversizeFileField(`{"c\\u0073v":"${big}"}`, ['csv'], limit)).toBe('csv');
    expect(oversizeFileField(`{"nested":{"csv":"${big}"},"csv":"small"}`, ['csv'], limit)).toBeNull();
    expect(oversizeFileField(`[{"csv":"${big}"}]`, ['csv'], limit)).toBeNull();
    // A value that reads like a member, and a key that is the value of another key.
    expect(oversizeFileField(`{"fileName":"\\",\\"csv\\":\\"","other":"${big}"}`, ['csv'], limit)).toBeNull();
    expect(oversizeFileField(`{"fileName":"csv","x":"${big}"}`, ['csv'], limit)).toBeNull();
    expect(oversizeFileField(`{"mapping":{"a":"b"},"csv":"${big}"}`, ['csv'], limit)).toBe('csv');
  });
});
