// The shapes that hurt parsers, given to the BAI2 reader (our own) and the OFX reader (a linear
// scan in front of ofx-js): each is refused with a sentence naming the line and what is wrong, or
// read in time that doubles at most with the input (ratios measured in the same run, as
// test/support/responsiveness.ts does for the server; no fixed time limits).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ClearedItemsFile } from '../../src/domain/cleared-items.ts';
import { readClearedItems } from '../../src/formats/cleared-items-file.ts';
import { DOUBLING_RATIO, doubling, NOISE_FLOOR_MS } from '../support/responsiveness.ts';

const TODAY = '2026-11-28';
const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/bank-files/${name}`, import.meta.url), 'utf8');
const BAI2 = fixture('paid-items.bai');
const OFX = fixture('download.qfx');

const refusal = (text: string): string => {
  const result = readClearedItems(text, TODAY, TODAY);
  if (result.ok) throw new Error('the file was read');
  return result.message;
};
const read = (text: string): ClearedItemsFile => {
  const result = readClearedItems(text, TODAY, TODAY);
  if (!result.ok) throw new Error(result.message);
  return result.file;
};
const lines = (text: string): string[] => text.trimEnd().split('\r\n');

/** A BAI2 file of one account holding these records between its 03 and 49, trailers computed. */
function bai2With(details: string[], amounts: number, physical = details.length): string {
  const total = 6_669_351 + amounts;
  return [
    '01,011000015,SAMPLEOFFICE,261101,0600,1,,,2/',
    '02,SAMPLEOFFICE,011000015,1,261031,2400,USD,2/',
    '03,000000001234,USD,010,2500000,,,015,4169351,,/',
    ...details,
    `49,${total},${physical + 2}/`,
    `98,${total},1,${physical + 4}/`,
    `99,${total},1,${physical + 6}/`,
  ].join('\n');
}

const linear = async (name: string, run: (scale: 1 | 2) => unknown): Promise<void> => {
  const d = await doubling(async (scale) => run(scale));
  expect(d.largeMs, `${name}: t(2N) ${d.largeMs} ms against t(N) ${d.smallMs} ms`).toBeLessThanOrEqual(
    DOUBLING_RATIO * d.smallMs + NOISE_FLOOR_MS,
  );
};

describe('BAI2, hostile and broken', () => {
  it('reads the fixture: its trailers add up, 475s are checks paid, credits with a number apart', () => {
    const file = read(BAI2);
    expect(file.items.map((i) => [i.checkNumber, i.amountCents, i.clearedDate])).toEqual([
      ['363', 15_000, '2026-10-31'],
      ['364', 125_000, '2026-10-31'],
      ['365', 9_899, '2026-10-31'],
    ]);
    expect(file.credits.map((c) => c.checkNumber)).toEqual(['5501', '366']);
  });

  it('reads the funds types that add fields (S, V, D) and a text continued over 88 records', () => {
    const details = [
      '16,475,1000,S,500,300,200,BANKREF1,1001,CHECK PAID',
      '16,475,2000,V,261030,1200,BANKREF2,1002/',
      '16,475,3000,D,2,0,1000,1,2000,BANKREF3,1003,CHECK',
      '88,PAID TO ACME',
      '88,SUPPLIES',
    ];
    const file = read(bai2With(details, 6000));
    expect(file.items.map((i) => [i.checkNumber, i.amountCents])).toEqual([
      ['1001', 1000],
      ['1002', 2000],
      ['1003', 3000],
    ]);
  });

  it.each([
    ['a huge line', `01,${'A'.repeat(5_000)}/`, 'Line 1: a record is longer than 4,096 characters.'],
    [
      'endless 88 continuations',
      bai2With(['16,475,1000,0,REF,1001,X', ...Array(150).fill('88,MORE')], 1000, 151),
      'Line 105: more than 100 continuation records (88) in a row.',
    ],
    [
      'more records than the bound',
      `01,A,B,261101,0600,1,,,2/\n${'88,X\n'.repeat(60_000)}`,
      'The file has more than 60,000 records: split it.',
    ],
    [
      'no file trailer',
      lines(BAI2).slice(0, -1).join('\r\n'),
      'The file ends without its file trailer (99): the file is cut short.',
    ],
    [
      'no account trailer',
      lines(BAI2).slice(0, -3).join('\r\n'),
      'The file ends without its account trailer (49): the file is cut short.',
    ],
    [
      'a wrong record count',
      BAI2.replace('49,8658400,10/', '49,8658400,9/'),
      'Line 12: the account counts "9" records but it has 10.',
    ],
    [
      'a wrong control total',
      BAI2.replace('16,475,9899,', '16,475,9989,'),
      'Line 12: the account control total is "8658400" but its amounts add up to 8658490.',
    ],
    [
      'a wrong group count',
      BAI2.replace('99,8658400,1,14/', '99,8658400,2,14/'),
      'Line 14: the file trailer counts "2" groups but the file has 1.',
    ],
    [
      'binary',
      `01,${String.fromCharCode(0, 159, 146, 150)}\u0007\ufffd/`,
      'Line 1: the record holds a byte that is not text; this is not a BAI2 file.',
    ],
    [
      'groups nested in groups',
      `01,A,B,261101,0600,1,,,2/\n${'02,A,B,1,261031,2400,USD,2/\n'.repeat(1_000)}`,
      'Line 3: a group header (02) where a group trailer (98) closing the group before it was expected.',
    ],
    [
      'an account outside a group',
      '01,A,B,261101,0600,1,,,2/\n03,1234,USD/\n',
      'Line 2: a account identifier (03) where a group header (02) was expected.',
    ],
    [
      'a detail before its account',
      '01,A,B,261101,0600,1,,,2/\n02,A,B,1,261031,2400,USD,2/\n16,475,100,0,R,1/\n',
      'Line 3: a transaction detail (16) where an account identifier (03) was expected.',
    ],
    [
      'records after the trailer',
      `${BAI2}16,475,100,0,R,1/\r\n`,
      'Line 15: a transaction detail (16) after the file trailer (99).',
    ],
    ['a continuation first', '88,X\n', 'The file has no header line naming an amount column'],
    ['an unknown record code', BAI2.replace('16,455,', '17,455,'), 'Line 10: "17" is not a BAI2 record code.'],
    [
      'a funds type of its own',
      bai2With(['16,475,1000,Q,REF,1001/'], 1000),
      'Line 4: the funds type "Q" is not one of 0, 1, 2, S, V, D or Z.',
    ],
    [
      'two accounts',
      BAI2.replace('49,8658400,10/', '49,8658400,10/\r\n03,000000009876,USD/\r\n49,0,2/')
        .replace('98,8658400,1,12/', '98,8658400,2,14/')
        .replace('99,8658400,1,14/', '99,8658400,1,16/'),
      "The file reports 2 accounts: reconcile one bank account's file at a time.",
    ],
  ])('refuses %s', (_name, text, message) => {
    expect(refusal(text)).toContain(message);
  });

  it('reads a file of many continuations in time linear in its size', async () => {
    const file = (scale: 1 | 2): string => {
      const details: string[] = [];
      for (let i = 0; i < 1_000 * scale; i += 1) details.push(`16,475,100,0,REF,${1000 + i},PAID`, '88,TO', '88,ACME');
      return bai2With(details, 100_000 * scale);
    };
    expect(read(file(1)).items).toHaveLength(1_000);
    await linear('BAI2 with continuations', (scale) => readClearedItems(file(scale), TODAY, TODAY));
  });
});

describe('OFX, hostile and broken', () => {
  const body = (inner: string): string => `OFXHEADER:100\nDATA:OFXSGML\n\n<OFX>${inner}</OFX>\n`;

  it('element names of capitals with no dot cost ofx-js twice as long per letter; read here in linear time', async () => {
    // 26 capitals: ofx-js alone spends seconds on each such name (its SGML step's expression).
    const name = 'A'.repeat(26);
    const file = (scale: 1 | 2): string => body(`<BANKMSGSRSV1>${`<${name}>x\n`.repeat(500 * scale)}</BANKMSGSRSV1>`);
    expect(refusal(file(1))).toBe(
      'The OFX file lists no checks paid: none of its 0 transactions has a CHECKNUM or a NAME such as "CHECK 1029".',
    );
    await linear('OFX long names', (scale) => readClearedItems(file(scale), TODAY, TODAY));
  });

  it.each([
    [
      'a name past the bound',
      body(`<${'A'.repeat(40)}>x`),
      'is not an OFX element (a name of letters and digits, at most 32).',
    ],
    [
      'nesting 10,000 deep',
      body(`${'<A>'.repeat(10_000)}x${'</A>'.repeat(10_000)}`),
      'elements are nested more than 32 deep',
    ],
    ['a download cut short', OFX.slice(0, OFX.indexOf('</BANKTRANLIST>')), 'the download is cut short (no </OFX>).'],
    ['a "<" never closed', 'OFXHEADER:100\n\n<OFX><A>1\n<B', 'Line 4: a "<" is never closed by ">".'],
    ['a closing tag of another element', body('<STMTRS><STMTTRN><TRNAMT>1</STMTRS>'), '</STMTRS> closes <STMTTRN>.'],
    ['text after the document', `${OFX}<STMTTRN>`, 'the file goes on after </OFX>.'],
    ['a comment or a declaration inside', body('<!-- x --><A>1'), 'is not an OFX element'],
    ['text outside any element', 'OFXHEADER:100\n\n<OFX>loose</OFX>', 'text outside an element ("loose")'],
    [
      'a check with no amount',
      OFX.replace('<TRNAMT>-150.00', '<TRNAMT>abc'),
      'Line 52: the TRNAMT "abc" of check 363 is not an amount.',
    ],
  ])('refuses %s', (_name, text, message) => {
    expect(refusal(text)).toContain(message);
  });

  it('whitespace of 1 MB between elements is read in linear time', async () => {
    const file = (scale: 1 | 2): string => body(`<A>${' \n'.repeat(200_000 * scale)}<B>1</A>`);
    await linear('OFX whitespace', (scale) => readClearedItems(file(scale), TODAY, TODAY));
  });
});
