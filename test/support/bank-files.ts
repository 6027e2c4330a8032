// The bank files of test/fixtures/bank-files (their README says where each layout comes from),
// what each holds, and the real-world mutations a file goes through between the bank and us (a
// spreadsheet saving it again, another operating system, an export setting).

export interface BankFile {
  name: string;
  contentType: string;
  layout: string;
  /** The day each paid check cleared, as the file says. */
  paid: { '363': string; '364': string };
  /** Money in with a number, as "number amount", sorted. */
  credits: string[];
  mutations: string[];
}

const ALL_CSV = [
  'a byte-order mark',
  'the other line endings',
  'trailing commas',
  'quoted amounts with thousands separators',
  'parentheses for negatives',
  'an extra title line',
];
const TEXT_ONLY = ['a byte-order mark', 'the other line endings'];
const OCTOBER = { '363': '2026-10-05', '364': '2026-10-07' };

export const BANK_FILES: BankFile[] = [
  {
    name: 'chase-activity.csv',
    contentType: 'text/csv',
    layout: 'csv',
    paid: OCTOBER,
    credits: ['366 42', '5501 18250'],
    mutations: ALL_CSV,
  },
  {
    name: 'boa-stmt.csv',
    contentType: 'text/csv',
    layout: 'csv',
    paid: OCTOBER,
    credits: ['366 42'],
    // Its amounts are quoted with thousands separators as downloaded.
    mutations: ALL_CSV.filter((m) => m !== 'quoted amounts with thousands separators'),
  },
  {
    name: 'wells-fargo-checking1.csv',
    contentType: 'text/csv',
    layout: 'csv-headerless',
    paid: OCTOBER,
    credits: ['366 42', '5501 18250'],
    mutations: ALL_CSV,
  },
  {
    name: 'credit-union-export.csv',
    contentType: 'text/csv',
    layout: 'csv-debit-credit',
    paid: OCTOBER,
    credits: ['366 42', '5501 18250'],
    mutations: ALL_CSV,
  },
  {
    name: 'download.qfx',
    contentType: 'application/vnd.intu.qfx',
    layout: 'ofx',
    paid: OCTOBER,
    credits: ['366 42', '5501 18250'],
    mutations: TEXT_ONLY,
  },
  {
    name: 'paid-items.bai',
    contentType: 'text/plain',
    layout: 'bai2',
    paid: { '363': '2026-10-31', '364': '2026-10-31' },
    credits: ['366 42', '5501 18250'],
    mutations: TEXT_ONLY,
  },
];

const eol = (text: string): string => (text.includes('\r\n') ? '\r\n' : '\n');

export interface Mutation {
  name: string;
  apply: (text: string) => string;
}

export const MUTATIONS: Mutation[] = [
  { name: 'a byte-order mark', apply: (text) => `\uFEFF${text}` },
  {
    name: 'the other line endings',
    apply: (text) => (text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text.replace(/\n/g, '\r\n')),
  },
  {
    name: 'trailing commas',
    apply: (text) =>
      text
        .split(eol(text))
        .map((line) => (line === '' ? line : `${line},`))
        .join(eol(text)),
  },
  {
    // 1250.00 → "1,250.00", quoted as a spreadsheet writes it.
    name: 'quoted amounts with thousands separators',
    apply: (text) => text.replace(/(^|,)"?(-?)(\d{1,3})(\d{3})\.(\d\d)"?(?=,|\r?$)/gm, '$1"$2$3,$4.$5"'),
  },
  {
    // -150.00 → (150.00), as accountants' spreadsheets write money out.
    name: 'parentheses for negatives',
    apply: (text) => text.replace(/(^|,)("?)-(\d[\d,]*\.\d\d)\2(?=,|\r?$)/gm, '$1$2($3)$2'),
  },
  { name: 'an extra title line', apply: (text) => `Account activity export${eol(text)}${text}` },
];
