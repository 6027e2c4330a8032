// Property-based bad input: thousands of generated broken bodies thrown at the write routes.
// Whatever the body, the service must answer with the decided error (400 unparseable, 422
// validation, 404 unknown path id, 403 unverified on /emailchecks), in exactly the shape
// `{ success: false, errorMsg }`, never a 5xx, and must write nothing: a batch with one bad item is
// rejected whole (API decisions, "Wire basics"). No fixed seed: fast-check prints the seed and the
// shrunk counterexample when a property fails, so a failure can be replayed.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type Client, type Reply, type TestApp } from '../support/app.ts';

type Json = Record<string, unknown>;

/** Generated cases per property, per database: 5,550 bad requests per database in all. */
const RUNS = {
  checksMixed: 1000,
  checksShapes: 300,
  checksLiveKey: 100,
  checksNumberLiterals: 150,
  emailMixed: 600,
  emailShapes: 200,
  unverifiedValid: 150,
  unverifiedBroken: 150,
  payeeBad: 700,
  payeeUnknownId: 200,
  jsonValue: 700,
  anything: 400,
  rawText: 700,
  contentType: 200,
} as const;

const PROPERTY_TIMEOUT = 180_000;

const UNVERIFIED_MESSAGE = 'Please verify your phone number and email address to enable mail check.';

// ---------------------------------------------------------------------------------------------
// Generic generators
// ---------------------------------------------------------------------------------------------

/** Characters that trip storage layers: NUL above all (PostgreSQL text cannot hold it), other controls, separators, a BOM, an emoji. */
const TRICKY_CHARS = ['\u0000', '\u0001', '\u0008', '\u001b', '\u007f', '\u2028', '\ufeff', '\ud83d\ude00'] as const;

/** Any text: printable ASCII, any Unicode code point, or text with a tricky character inside. */
const anyText = (constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> => {
  const { minLength = 0, maxLength = 20 } = constraints;
  const tricky = fc
    .tuple(
      fc.string({ maxLength: Math.max(0, maxLength - 1) }),
      fc.constantFrom(...TRICKY_CHARS),
      fc.string({ maxLength: 4 }),
    )
    .map(([a, c, b]) => `${a}${c}${b}`)
    .filter((text) => [...text].length >= minLength && [...text].length <= maxLength);
  return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: 'binary' }), tricky);
};

/** A string strictly longer than `limit` code points. */
const overLong = (limit: number): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ minLength: limit + 1, maxLength: limit + 40 }),
    fc.string({ minLength: limit + 1, maxLength: limit + 10, unit: 'binary' }),
  );

/** JSON values that are not strings (null included). */
const notString: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);
/** JSON values that are neither strings nor null (an optional field sent as null is not given). */
const notStringOrNull: fc.Arbitrary<unknown> = notString.filter((v) => v !== null);
/** JSON values that are not objects. */
const notObject: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 8 }),
  fc.array(fc.integer(), { maxLength: 2 }),
);
/** ... and not null or "" either, for optional fields (both mean not given there). */
const notObjectOrNull: fc.Arbitrary<unknown> = notObject.filter((v) => v !== null && v !== '');

/** An object key that is not in `known` (and not `__proto__`, which the JSON parser refuses with a 400 of its own). */
const unknownKey = (known: readonly string[], typos: readonly string[]): fc.Arbitrary<string> =>
  fc
    .oneof(fc.constantFrom(...typos), anyText({ maxLength: 20 }))
    .filter((k) => !known.includes(k) && k !== '__proto__');

/** Any JSON value, without the `__proto__` / `constructor` keys the JSON parser refuses with a 400 of its own. */
const anyJson: fc.Arbitrary<unknown> = fc
  .jsonValue({ maxDepth: 2 })
  .filter((v) => !/"(__proto__|constructor)"/.test(JSON.stringify(v)));

/** Sets one key (a computed key, so even "constructor" becomes an own property of the body). */
function withKey(item: Json, key: string, value: unknown): Json {
  return { ...item, [key]: value };
}

function without(item: Json, key: string): Json {
  const copy = { ...item };
  delete copy[key];
  return copy;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

// Valid means in the range a check's date takes: 2000 to a year after today (src/domain/dates.ts).
const validDate: fc.Arbitrary<string> = fc
  .record({
    y: fc.integer({ min: 2000, max: new Date().getUTCFullYear() }),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 28 }),
  })
  .map(({ y, m, d }) => `${y}-${pad2(m)}-${pad2(d)}`);

/** Dates that are not real calendar dates, or not YYYY-MM-DD at all. */
const badDate: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '2026-02-30',
    '2025-02-29',
    '2100-02-29',
    '2026-04-31',
    '2026-06-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '2026-01-32',
    '26-01-01',
    '2026/01/01',
    '2026-1-1',
    '20260101',
    '01-02-2026',
    'today',
    'yesterday',
    '2026-01-01T00:00:00Z',
    ' 2026-02-28',
    '2026-02-28 ',
    'YYYY-MM-DD',
  ),
  // Day past the end of its month (29..31 where the month is shorter).
  fc
    .record({
      y: fc.integer({ min: 2000, max: 2099 }),
      m: fc.integer({ min: 1, max: 12 }),
      d: fc.integer({ min: 29, max: 31 }),
    })
    .filter(({ y, m, d }) => d > daysIn(y, m))
    .map(({ y, m, d }) => `${y}-${pad2(m)}-${pad2(d)}`),
  // Month out of range, or day 0 / past 31.
  fc
    .record({
      y: fc.integer({ min: 2000, max: 2099 }),
      m: fc.oneof(fc.constant(0), fc.integer({ min: 13, max: 99 })),
      d: fc.integer({ min: 1, max: 28 }),
    })
    .map(({ y, m, d }) => `${y}-${pad2(m)}-${pad2(d)}`),
  fc
    .record({
      y: fc.integer({ min: 2000, max: 2099 }),
      m: fc.integer({ min: 1, max: 12 }),
      d: fc.oneof(fc.constant(0), fc.integer({ min: 32, max: 99 })),
    })
    .map(({ y, m, d }) => `${y}-${pad2(m)}-${pad2(d)}`),
);

/** Amounts the service must take: > 0, at most 2 decimals, at most 99,999,999.99, as a number or a numeric string. */
const validAmount: fc.Arbitrary<number | string> = fc.oneof(
  fc.integer({ min: 1, max: 9_999_999_999 }).map((cents) => cents / 100),
  fc.integer({ min: 1, max: 9_999_999_999 }).map((cents) => `${Math.floor(cents / 100)}.${pad2(cents % 100)}`),
  fc.integer({ min: 1, max: 99_999_999 }).map(String),
);

/** An independent oracle for a JSON-number amount: positive, at most 2 decimals, within the MICR width. */
function amountNumberIsValid(n: number): boolean {
  return Number.isFinite(n) && n > 0 && n <= 99_999_999.99 && Math.round(n * 100) / 100 === n;
}

/** Amounts the service must refuse (the issue's list, then generated ones). */
const badAmount: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    -1,
    0,
    1.001,
    '12abc',
    1e300,
    -1e300,
    100_000_000,
    100_000_000.01,
    99_999_999.999,
    0.001,
    -0.01,
    12.345,
    Number.MIN_VALUE,
    1e21,
    'NaN',
    'Infinity',
    '-Infinity',
    'null',
    'undefined',
    'true',
    '',
    ' ',
    'abc',
    '1,000.00',
    '$12.00',
    '12 USD',
    '1.2.3',
    '--1',
    '-1',
    '-0.01',
    '0',
    '0.00',
    '000',
    '1.001',
    '100000000',
    '100000000.00',
    '99999999.991',
    '123456789012345678901',
    true,
    false,
    null,
    [],
    [12],
    {},
    { amount: 12 },
  ),
  // Any JSON number the oracle refuses (negative, zero, too many decimals, too large).
  fc.double().filter((n) => !amountNumberIsValid(n)),
  fc.integer({ max: 0 }),
  fc.integer({ min: 100_000_000 }),
  // Numeric-looking text with letters or symbols after the digits.
  fc.tuple(fc.nat(), fc.stringMatching(/^[a-df-zA-DF-Z$#%,;!]{1,4}$/)).map(([n, junk]) => `${n}${junk}`),
  // Too many decimals.
  fc
    .tuple(fc.nat({ max: 99_999_999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 9 }))
    .map(([w, c, extra]) => `${w}.${pad2(c)}${extra}`),
  // Above 99,999,999.99.
  fc.bigInt({ min: 100_000_000n, max: 999_999_999_999_999_999n }).map(String),
  // Negative.
  validAmount.map((a) => `-${String(a)}`),
);

/** Flags take true/false, 0/1 and "0"/"1" only ("" on an optional flag is "not given"). */
const badFlag: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(2, -1, 1.5, 'true', 'false', 'yes', 'no', 'on', ' 1', '01', '2', [], {}, [true]),
  fc.integer().filter((n) => n !== 0 && n !== 1),
  fc.string().filter((s) => s !== '0' && s !== '1' && s !== ''),
);

/** Serial numbers that are not digits only (at most 15). */
const badSerial: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    '12a',
    'abc',
    'A1001',
    '1 2',
    '-5',
    '1.0',
    '1e3',
    '+7',
    ' 12',
    '12 ',
    '0x1F',
    '１２３',
    12345,
    0,
    true,
    [],
    {},
  ),
  anyText({ minLength: 1, maxLength: 20 }).filter((s) => /[^0-9]/.test(s)),
  fc.tuple(fc.nat({ max: 99_999 }), fc.stringMatching(/^[a-zA-Z]{1,3}$/)).map(([n, letters]) => `${n}${letters}`),
  fc.bigInt({ min: 10n ** 15n, max: 10n ** 20n }).map(String),
);

/** Text that can never be an email address (no "@", or nothing on one side of it, or spaces). */
const badEmail: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    'not-an-email',
    'a@',
    '@example.com',
    'a b@example.com',
    'a@@example.com',
    'a@exa mple.com',
    'a@.com',
    'a@example..com',
    ' ',
    12,
    true,
  ),
  anyText({ minLength: 1, maxLength: 30 }).filter((s) => !s.includes('@')),
  anyText({ maxLength: 20 }).map((s) => `${s}@`),
  anyText({ maxLength: 20 }).map((s) => `@${s}`),
);

/**
 * Text no phone library can read as a number: punctuation, or too few digits. (Letters are
 * avoided on purpose: phone keypads map them to digits, so "FLOWERS" can be a valid number.)
 */
const badPhone: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('abc!', '123', '+1', '+', '()', '---', '000', '+0000', '12345', '+1 (000)', '!!!', '#', '*'),
  fc.stringMatching(/^[0-9]{1,4}$/),
  fc.stringMatching(/^[!#$%&*=?^_~()\-. ]{1,12}$/),
);

// ---------------------------------------------------------------------------------------------
// The suite
// ---------------------------------------------------------------------------------------------

interface Snapshot {
  counts: Record<string, number>;
  checks: unknown[];
  payees: unknown[];
  banks: unknown[];
  checkCounts: unknown[];
}

const COUNTED = [
  'checks',
  'check_statements',
  'check_counts',
  'check_links',
  'deliveries',
  'sandbox_messages',
  'events',
  'mailings',
  'attachments',
  'payees',
  'vouchers',
  'categories',
  'bank_accounts',
  'addresses',
  'accounts',
] as const;

describe.each(dialects())('bad input: never a 5xx, always the error shape, never a write (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let other: Client;
  let unverified: Client;
  let ids: { bankAccountId: string; payeeId: string };
  /** A payee with no email and no phone. */
  let noContactPayeeId: string;
  let categoryId: string;
  let voucherId: string;
  /** Checks of `api` the valid email items use, and others the broken ones use (kept apart so a duplicate never involves a valid item). */
  let emailable: string[];
  let brokenPool: string[];
  let noContactCheckId: string;
  let unverifiedCheckIds: string[];
  /** The payee PUT /payees is aimed at, and how it reads before anything. */
  let targetPayeeId: string;
  let targetPayee: unknown;
  let deletedPayeeId: string;
  let deletedBankAccountId: string;
  /** A live-environment key of the same account: test data must be invisible to it. */
  let live: Client;
  let foreign: { bankAccountId: string; payeeId: string; categoryId: string; voucherId: string; checkId: string };
  const TAKEN_REFERENCE = 'seeded-ref-1';
  const TAKEN_SERIAL = '10001';

  async function snapshot(): Promise<Snapshot> {
    const db = t.database.db;
    // Independent reads, issued together (on PostgreSQL they run side by side on the pool).
    const [row, checks, payees, banks, checkCounts] = await Promise.all([
      db.get<Record<string, unknown>>(`SELECT ${COUNTED.map((n) => `(SELECT COUNT(*) FROM ${n}) AS ${n}`).join(', ')}`),
      db.all('SELECT * FROM checks ORDER BY id'),
      db.all('SELECT * FROM payees ORDER BY id'),
      db.all('SELECT id, next_serial, deleted_at FROM bank_accounts ORDER BY id'),
      db.all('SELECT * FROM check_counts ORDER BY account_id, env, status'),
    ]);
    if (row === undefined) throw new Error('no count row');
    const counts = Object.fromEntries(COUNTED.map((n) => [n, Number(row[n])]));
    return { counts, checks, payees, banks, checkCounts };
  }

  /**
   * A PUT whose body gives no field (`{}`, or only nulls): 200 with nothing changed
   * (compat/last-refusals holds it), so not a refusal these properties can expect.
   */
  function changesNothing(method: string, value: unknown): boolean {
    return (
      method === 'PUT' &&
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Object.values(value).every((v) => v === null || v === undefined)
    );
  }

  /** The decided error body: exactly `{ success: false, errorMsg }` with a non-empty message, JSON. */
  function expectError(res: Reply, statuses: readonly number[]): void {
    expect(res.status, `status ${res.status}, body ${res.raw}`).toBeLessThan(500);
    expect(statuses, `status ${res.status}, body ${res.raw}`).toContain(res.status);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    // A duplicate names the existing record beside the message (docs/api-notes.md, "Duplicates").
    const { checkId, bankAccountId, ...rest } = res.body as Record<string, unknown>;
    expect(rest).toEqual({ success: false, errorMsg: expect.any(String) });
    for (const id of [checkId, bankAccountId]) if (id !== undefined) expect(id).toMatch(/^(chk|bank)_/);
    expect((res.body as { errorMsg: string }).errorMsg.trim()).not.toBe('');
  }

  /** Sends, asserts the error, and asserts that nothing at all changed in the database. */
  async function rejectedWithoutWrites(send: () => Promise<Reply>, statuses: readonly number[]): Promise<Reply> {
    const before = await snapshot();
    const res = await send();
    expectError(res, statuses);
    const after = await snapshot();
    expect(after, `rows changed by a rejected request (${res.status} ${res.raw})`).toEqual(before);
    return res;
  }

  function inject(
    method: 'POST' | 'PUT',
    url: string,
    payload: string,
    contentType: string | null,
    key = api.key,
  ): Promise<Reply> {
    return t.app
      .inject({
        method,
        url: `/api/v3${url}`,
        headers: { authorization: `Bearer ${key}`, ...(contentType === null ? {} : { 'content-type': contentType }) },
        payload,
      })
      .then((r) => {
        let body: unknown = null;
        try {
          body = JSON.parse(r.body);
        } catch {
          body = null;
        }
        return { status: r.statusCode, headers: r.headers, body, raw: r.body };
      });
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('bad-input@example.com');
    other = await t.client('bad-input-other@example.com');
    unverified = await t.client('bad-input-unverified@example.com', { verified: false });
    live = await t.client('bad-input@example.com', { env: 'live' });

    ids = await seedBasics(api);
    const more = await api.post('/payees', {
      payees: [
        { name: 'No Contact' },
        {
          name: 'Target Payee',
          nickName: 'Tgt',
          company: 'Target Co',
          email: 'target@example.com',
          phone: '+1 415 555 2671',
          address1: '1 Main St',
          address2: 'Suite 2',
          city: 'Springfield',
          state: 'IL',
          zip: '62701',
          country: 'US',
        },
        { name: 'Deleted Payee' },
      ],
    });
    expect(more.status).toBe(201);
    [noContactPayeeId, targetPayeeId, deletedPayeeId] = more.body.data.payees.map(
      (p: { payeeId: string }) => p.payeeId,
    );
    expect((await api.delete(`/payees/${deletedPayeeId}`)).status).toBe(200);
    const closed = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'Closed', routingNumber: '011000015', accountNumber: '99990000' }],
    });
    expect(closed.status).toBe(201);
    deletedBankAccountId = closed.body.data.bankAccounts[0].bankAccountId;
    expect((await api.delete(`/bankAccounts/${deletedBankAccountId}`)).status).toBe(200);
    const category = await api.post('/categories', { categories: [{ name: 'Rent' }] });
    expect(category.status).toBe(201);
    categoryId = category.body.data.categories[0].categoryId;

    const seeded = await api.post('/checks', {
      checks: [
        { ...ids, amount: 10, referenceId: TAKEN_REFERENCE, serialNumber: TAKEN_SERIAL },
        ...Array.from({ length: 9 }, (_, i) => ({ ...ids, amount: 11 + i })),
        { bankAccountId: ids.bankAccountId, payeeId: noContactPayeeId, amount: 20 },
      ],
    });
    expect(seeded.status, seeded.raw).toBe(201);
    const checkIds: string[] = seeded.body.data.checks.map((c: { checkId: string }) => c.checkId);
    emailable = checkIds.slice(0, 6);
    brokenPool = checkIds.slice(6, 10);
    noContactCheckId = checkIds[10] as string;
    const attached = await api.post(`/checks/${checkIds[0]}/voucher`, {
      voucherNumber: 'V-1',
      voucherItems: [{ name: 'Rent', total: '10.00' }],
    });
    expect(attached.status).toBe(201);
    voucherId = attached.body.data.voucherId;

    const otherIds = await seedBasics(other);
    const otherCategory = await other.post('/categories', { categories: [{ name: 'Theirs' }] });
    const otherCheck = await other.post('/checks', { checks: [{ ...otherIds, amount: 5 }] });
    const otherCheckId = otherCheck.body.data.checks[0].checkId;
    const otherVoucher = await other.post(`/checks/${otherCheckId}/voucher`, { voucherNumber: 'V-9' });
    foreign = {
      ...otherIds,
      categoryId: otherCategory.body.data.categories[0].categoryId,
      voucherId: otherVoucher.body.data.voucherId,
      checkId: otherCheckId,
    };

    const unverifiedIds = await seedBasics(unverified);
    const unverifiedChecks = await unverified.post('/checks', {
      checks: [
        { ...unverifiedIds, amount: 1 },
        { ...unverifiedIds, amount: 2 },
      ],
    });
    expect(unverifiedChecks.status, unverifiedChecks.raw).toBe(201);
    unverifiedCheckIds = unverifiedChecks.body.data.checks.map((c: { checkId: string }) => c.checkId);

    const read = await api.get(`/payees/${targetPayeeId}`);
    expect(read.status).toBe(200);
    targetPayee = read.body;
  }, 120_000);
  afterAll(() => t?.close());

  // -------------------------------------------------------------------------------------------
  // POST /checks
  // -------------------------------------------------------------------------------------------

  const CHECK_FIELDS = [
    'bankAccountId',
    'payeeId',
    'categoryId',
    'serialNumber',
    'issueDate',
    'amount',
    'memo',
    'note',
    'accountNumber',
    'invoiceNumber',
    'referenceId',
    'noSign',
    'noAmount',
    'noDate',
    'noPayee',
    'voucherId',
    'voucher',
    'customElements',
  ] as const;
  const ELEMENT_KEYS = Array.from({ length: 10 }, (_, i) => `element${i + 1}`);

  /** An item the service takes on its own and beside any other such item (no serial, no reference). */
  const validCheckItem = (): fc.Arbitrary<Json> =>
    fc.record(
      {
        bankAccountId: fc.constant(ids.bankAccountId),
        payeeId: fc.constantFrom(ids.payeeId, noContactPayeeId),
        amount: validAmount,
        categoryId: fc.constantFrom<string | null>(categoryId, '', null),
        voucherId: fc.constantFrom<string | null>(voucherId, '', null),
        issueDate: validDate,
        memo: fc.string({ maxLength: 150 }),
        note: fc.string({ maxLength: 150 }),
        accountNumber: fc.string({ maxLength: 50 }),
        invoiceNumber: fc.string({ maxLength: 50 }),
        noSign: fc.constantFrom<unknown>(true, false, 0, 1, '0', '1'),
        noDate: fc.constantFrom<unknown>(true, false, 0, 1, '0', '1'),
        noAmount: fc.constantFrom<unknown>(false, 0, '0'),
        noPayee: fc.constantFrom<unknown>(false, 0, '0'),
        customElements: fc.dictionary(fc.constantFrom(...ELEMENT_KEYS), fc.string({ maxLength: 100 }), { maxKeys: 3 }),
      },
      { requiredKeys: ['bankAccountId', 'payeeId', 'amount'] },
    );

  /** Ids that name nothing of the caller's: another account's, a deleted one, or made up. */
  const unknownId = (foreignId: string, ...alsoUnknown: string[]): fc.Arbitrary<string> =>
    fc.oneof(
      // Includes an id with a NUL in it: PostgreSQL cannot even compare such text (see the pinned cases below).
      fc.constantFrom(foreignId, ...alsoUnknown, 'id_\u0000'),
      fc.string({ minLength: 1, maxLength: 64 }),
      anyText({ minLength: 1, maxLength: 40 }),
      fc.stringMatching(/^(chk|pay|bnk|cat|vch)_[0-9A-Z]{26}$/),
    );

  /** One way to break an item, as a change to a valid one. */
  const checkMutation = (): fc.Arbitrary<(item: Json) => unknown> => {
    const set = (key: string, value: fc.Arbitrary<unknown>) => value.map((v) => (item: Json) => withKey(item, key, v));
    const badVoucher: fc.Arbitrary<unknown> = fc.oneof(
      notObjectOrNull,
      fc.record({ voucherNumber: fc.string({ maxLength: 10 }), date: badDate }),
      fc.record({ voucherNumber: overLong(50) }),
      fc.record({ memo: overLong(150) }),
      fc.record({ voucherItems: notObjectOrNull.filter((v) => !Array.isArray(v)) }),
      fc.record({
        voucherItems: fc.tuple(
          fc.record({
            name: fc.string({ maxLength: 10 }),
            total: badAmount.filter((a) => a !== 0 && a !== '0' && a !== '0.00' && a !== '000'),
          }),
        ),
      }),
      fc.record({
        voucherItems: fc.tuple(
          fc.record({
            name: fc.string({ maxLength: 10 }),
            quantity: fc.oneof(
              fc.integer({ max: -1 }),
              fc.integer({ min: 1_000_001 }),
              fc.constantFrom('two', '1,000', '', '0x10'),
            ),
          }),
        ),
      }),
      fc.record({
        voucherItems: fc.tuple(
          fc.dictionary(
            unknownKey(['invoiceNumber', 'name', 'description', 'quantity', 'unitCost', 'total'], ['qty', 'price']),
            anyJson,
            { minKeys: 1, maxKeys: 1 },
          ),
        ),
      }),
      unknownKey(['voucherNumber', 'date', 'memo', 'voucherItems'], ['items', 'number']).map((k) => ({ [k]: 1 })),
    );
    return fc.oneof(
      // Missing required fields.
      fc.constantFrom('bankAccountId', 'payeeId', 'amount').map((key) => (item: Json) => without(item, key)),
      // Wrong types, field by field.
      set('bankAccountId', fc.oneof(notString, fc.constant(''))),
      set('payeeId', fc.oneof(notStringOrNull, fc.constantFrom(null, ''))),
      set('categoryId', notStringOrNull),
      set('voucherId', notStringOrNull),
      set('referenceId', notStringOrNull),
      set('issueDate', notStringOrNull),
      set('memo', notStringOrNull),
      set('note', notStringOrNull),
      set('accountNumber', notStringOrNull),
      set('invoiceNumber', notStringOrNull),
      fc.constantFrom('noSign', 'noAmount', 'noDate', 'noPayee').chain((key) => set(key, badFlag)),
      // Amounts.
      set('amount', badAmount),
      // Over-long text.
      set('memo', overLong(150)),
      set('note', overLong(150)),
      set('accountNumber', overLong(50)),
      set('invoiceNumber', overLong(50)),
      set('referenceId', overLong(255)),
      fc.constantFrom('bankAccountId', 'payeeId', 'categoryId', 'voucherId').chain((key) => set(key, overLong(64))),
      // Dates and serials.
      set('issueDate', badDate),
      set('serialNumber', badSerial),
      set('serialNumber', fc.constantFrom(TAKEN_SERIAL, `000${TAKEN_SERIAL}`)),
      set('referenceId', fc.constant(TAKEN_REFERENCE)),
      // customElements.
      set('customElements', notObjectOrNull),
      fc
        .tuple(
          unknownKey(ELEMENT_KEYS, [
            'element0',
            'element11',
            'Element1',
            'element01',
            'element 1',
            'elem1',
            '',
            'element1 ',
          ]),
          fc.string({ maxLength: 10 }),
        )
        .map(
          ([k, v]) =>
            (item: Json) =>
              withKey(item, 'customElements', { ...(item.customElements as Json | undefined), [k]: v }),
        ),
      fc.tuple(fc.constantFrom(...ELEMENT_KEYS), fc.oneof(overLong(100), notStringOrNull)).map(
        ([k, v]) =>
          (item: Json) =>
            withKey(item, 'customElements', { [k]: v }),
      ),
      // Ids that are not the caller's.
      set('bankAccountId', unknownId(foreign.bankAccountId, deletedBankAccountId)),
      set('payeeId', unknownId(foreign.payeeId, deletedPayeeId)),
      set(
        'categoryId',
        unknownId(foreign.categoryId).filter((s) => s !== ''),
      ),
      set(
        'voucherId',
        unknownId(foreign.voucherId).filter((s) => s !== ''),
      ),
      // An inline voucher that is broken, or given together with voucherId.
      set('voucher', badVoucher),
      fc.constant((item: Json) => ({ ...item, voucherId, voucher: { voucherNumber: 'V-2' } })),
      // Unknown fields (a typo in a money API must not pass silently).
      fc
        .tuple(
          unknownKey(CHECK_FIELDS, [
            'amout',
            'Amount',
            'payee_id',
            'bankAccount',
            'checkId',
            'status',
            'memo ',
            'date',
            'id',
          ]),
          anyJson,
        )
        .map(
          ([k, v]) =>
            (item: Json) =>
              withKey(item, k, v),
        ),
      // Not an object at all.
      notObject.map((v) => () => v),
    );
  };

  const brokenCheckItem = (): fc.Arbitrary<unknown> =>
    fc
      .tuple(validCheckItem(), fc.array(checkMutation(), { minLength: 1, maxLength: 3 }))
      .map(([item, mutations]) =>
        mutations.reduce<unknown>(
          (acc, mutate) => (acc !== null && typeof acc === 'object' && !Array.isArray(acc) ? mutate(acc as Json) : acc),
          item,
        ),
      );

  /** Valid items with 1..3 broken ones spliced in at random places; the broken indexes are kept. */
  const mixedCheckBatch = (): fc.Arbitrary<{ items: unknown[]; broken: number[] }> =>
    fc
      .tuple(
        fc.array(validCheckItem(), { maxLength: 5 }),
        fc.array(fc.tuple(fc.nat(), brokenCheckItem()), { minLength: 1, maxLength: 3 }),
      )
      .map(([valid, broken]) => {
        const slots: { item: unknown; broken: boolean }[] = valid.map((item) => ({ item, broken: false }));
        for (const [position, item] of broken) slots.splice(position % (slots.length + 1), 0, { item, broken: true });
        return { items: slots.map((s) => s.item), broken: slots.flatMap((s, i) => (s.broken ? [i] : [])) };
      });

  it('the valid-item generator makes batches the service takes (so the rejections below come from the broken items)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(validCheckItem(), { minLength: 1, maxLength: 4 }), async (items) => {
        const res = await api.post('/checks', { checks: items });
        expect(res.status, res.raw).toBe(201);
        expect(res.body.data.checks).toHaveLength(items.length);
      }),
      { numRuns: 25 },
    );
  });

  it(
    'POST /checks: a batch with one or more broken items is a 422 naming a broken item, and writes nothing',
    async () => {
      await fc.assert(
        fc.asyncProperty(mixedCheckBatch(), async ({ items, broken }) => {
          const res = await rejectedWithoutWrites(() => api.post('/checks', { checks: items }), [422]);
          const named = /checks\.(\d+)/.exec(res.body.errorMsg as string);
          expect(named, `errorMsg names no item: ${res.raw}`).not.toBeNull();
          expect(broken, `errorMsg names a valid item: ${res.raw}`).toContain(Number(named?.[1]));
        }),
        { numRuns: RUNS.checksMixed },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'POST /checks: broken batches (empty, over 500, duplicates, wrong shapes) are a 422 and write nothing',
    async () => {
      const batchShapes: fc.Arbitrary<unknown> = fc.oneof(
        fc.constant({ checks: [] }),
        fc
          .integer({ min: 501, max: 520 })
          .map((n) => ({ checks: Array.from({ length: n }, () => ({ ...ids, amount: 1 })) })),
        notObject.filter((v) => !Array.isArray(v)).map((checks) => ({ checks })),
        fc.constant({}),
        validCheckItem().map((item) => [item]),
        fc
          .tuple(
            fc.array(validCheckItem(), { minLength: 1, maxLength: 3 }),
            unknownKey(['checks'], ['check', 'Checks', 'data', 'items']),
            anyJson,
          )
          .map(([items, k, v]) => ({ checks: items, [k]: v })),
        fc.array(validCheckItem(), { minLength: 1, maxLength: 3 }).map((items) => ({ check: items })),
        // The same referenceId twice in one batch.
        fc
          .tuple(
            fc.array(validCheckItem(), { minLength: 2, maxLength: 5 }),
            anyText({ minLength: 1, maxLength: 40 }),
            fc.nat(),
            fc.nat(),
          )
          .map(([items, reference, a, b]) => {
            const first = a % items.length;
            const second = (first + 1 + (b % (items.length - 1))) % items.length;
            return {
              checks: items.map((item, i) =>
                i === first || i === second ? { ...item, referenceId: reference } : item,
              ),
            };
          }),
        // The same serial number twice on one bank account ("0123" and "123" are one check number).
        fc
          .tuple(
            fc.array(validCheckItem(), { minLength: 2, maxLength: 5 }),
            fc.integer({ min: 20_000, max: 999_999_999 }),
            fc.boolean(),
          )
          .map(([items, serial, leadingZero]) => ({
            checks: items.map((item, i) =>
              i === 0
                ? { ...item, serialNumber: String(serial) }
                : i === items.length - 1
                  ? { ...item, serialNumber: `${leadingZero ? '0' : ''}${serial}` }
                  : item,
            ),
          })),
      );
      await fc.assert(
        fc.asyncProperty(batchShapes, async (body) => {
          await rejectedWithoutWrites(() => api.post('/checks', body), [422]);
        }),
        { numRuns: RUNS.checksShapes },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'POST /checks with a live key naming test-environment ids: 422 on the first item, nothing written (test and live never mix)',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(validCheckItem(), { minLength: 1, maxLength: 4 }), async (items) => {
          const res = await rejectedWithoutWrites(() => live.post('/checks', { checks: items }), [422]);
          expect(res.body.errorMsg).toBe('The selected checks.0.bankAccountId is invalid.');
        }),
        { numRuns: RUNS.checksLiveKey },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'POST /checks with amounts written as JSON number literals JSON.stringify never makes (1e400, -0.0, 1e-400...): 422 naming the item',
    async () => {
      const literal = fc.constantFrom(
        '1e400',
        '-1e400',
        '1E400',
        '1e-400',
        '-0.0',
        '-0',
        '0e5',
        '99999999.995',
        '100000000.0',
        '0.005',
        '12345678901234567890123',
        '9007199254740993',
        '1e8',
        '-5e-324',
      );
      const batch = fc.tuple(fc.array(validCheckItem(), { maxLength: 4 }), fc.nat(), literal);
      await fc.assert(
        fc.asyncProperty(batch, async ([valid, position, amount]) => {
          const at = position % (valid.length + 1);
          const items: Json[] = [...valid];
          items.splice(at, 0, { ...ids, amount: '@AMOUNT@' });
          const text = JSON.stringify({ checks: items }).replace('"@AMOUNT@"', amount);
          const res = await rejectedWithoutWrites(() => inject('POST', '/checks', text, 'application/json'), [422]);
          expect(res.body.errorMsg).toMatch(new RegExp(`^The checks\\.${at}\\.amount field `));
        }),
        { numRuns: RUNS.checksNumberLiterals },
      );
    },
    PROPERTY_TIMEOUT,
  );

  // -------------------------------------------------------------------------------------------
  // POST /emailchecks
  // -------------------------------------------------------------------------------------------

  const EMAIL_FIELDS = ['checkId', 'payeeEmail', 'enableSmsInform', 'payeePhone', 'sendAttachment'] as const;
  const validEmail = fc.constantFrom('payee@example.com', 'a.b+c@test.io', 'AP@Acme.Test');

  const validEmailItem = (checkIds: () => string[]): fc.Arbitrary<Json> =>
    fc.record(
      {
        checkId: fc.constantFrom(...checkIds()),
        payeeEmail: validEmail,
        enableSmsInform: fc.boolean(),
        sendAttachment: fc.constantFrom(0, 1),
      },
      { requiredKeys: ['checkId'] },
    );

  const validEmailBatch = (checkIds: () => string[]): fc.Arbitrary<Json[]> =>
    fc.uniqueArray(validEmailItem(checkIds), { selector: (item) => item.checkId, maxLength: 4 });

  const brokenEmailItem = (): fc.Arbitrary<unknown> => {
    const base = validEmailItem(() => brokenPool);
    const set = (key: string, value: fc.Arbitrary<unknown>) =>
      fc.tuple(base, value).map(([item, v]) => withKey(item, key, v));
    return fc.oneof(
      base.map((item) => without(item, 'checkId')),
      set('checkId', fc.oneof(notString, fc.constant(''), overLong(64))),
      set('checkId', unknownId(foreign.checkId)),
      set('payeeEmail', badEmail),
      set(
        'payeeEmail',
        overLong(254).map((s) => `${s}@example.com`),
      ),
      set(
        'sendAttachment',
        fc.oneof(
          // true and false are accepted, as clients send them.
          fc.constantFrom<unknown>(2, -1, '2', '01', 'true', 0.5, []),
          fc.integer().filter((n) => n !== 0 && n !== 1),
        ),
      ),
      set('enableSmsInform', fc.constantFrom<unknown>('yes', 'true', 'false', 2, -1, '01', [], {})),
      fc.tuple(base, badPhone).map(([item, phone]) => ({ ...item, enableSmsInform: true, payeePhone: phone })),
      // "" is "not given": the payee's own phone is used, as without the field.
      set('payeePhone', fc.oneof(overLong(32), notStringOrNull)),
      fc
        .tuple(base, unknownKey(EMAIL_FIELDS, ['checkID', 'check_id', 'email', 'phone', 'sms', 'attachment']))
        .chain(([item, k]) => anyJson.map((v) => withKey(item, k, v))),
      notObject,
      // The payee has no email and none is given; or SMS without any phone.
      fc.constant({ checkId: noContactCheckId }),
      fc
        .constantFrom(0, 1)
        .map((sendAttachment) => ({ checkId: noContactCheckId, sendAttachment, enableSmsInform: false })),
      validEmail.map((payeeEmail) => ({ checkId: noContactCheckId, payeeEmail, enableSmsInform: true })),
      fc.tuple(validEmail, badPhone).map(([payeeEmail, payeePhone]) => ({
        checkId: noContactCheckId,
        payeeEmail,
        enableSmsInform: true,
        payeePhone,
      })),
    );
  };

  it('the valid email-item generator makes batches the service takes', async () => {
    // These checks become "emailed" (3), from which a check can still be emailed again.
    await fc.assert(
      fc.asyncProperty(
        validEmailBatch(() => emailable).filter((b) => b.length > 0),
        async (items) => {
          const res = await api.post('/emailchecks', { emailChecks: items });
          expect(res.status, res.raw).toBe(200);
        },
      ),
      { numRuns: 10 },
    );
  });

  it(
    'POST /emailchecks: a batch with a broken item is a 422 naming it; no check changes status and no delivery is queued',
    async () => {
      const mixed = fc
        .tuple(
          validEmailBatch(() => emailable),
          fc.array(fc.tuple(fc.nat(), brokenEmailItem()), { minLength: 1, maxLength: 2 }),
        )
        .map(([valid, broken]) => {
          const slots: { item: unknown; broken: boolean }[] = valid.map((item) => ({ item, broken: false }));
          for (const [position, item] of broken) slots.splice(position % (slots.length + 1), 0, { item, broken: true });
          return { items: slots.map((s) => s.item), broken: slots.flatMap((s, i) => (s.broken ? [i] : [])) };
        });
      await fc.assert(
        fc.asyncProperty(mixed, async ({ items, broken }) => {
          const res = await rejectedWithoutWrites(() => api.post('/emailchecks', { emailChecks: items }), [422]);
          const named = /emailChecks\.(\d+)/.exec(res.body.errorMsg as string);
          expect(named, `errorMsg names no item: ${res.raw}`).not.toBeNull();
          expect(broken, `errorMsg names a valid item: ${res.raw}`).toContain(Number(named?.[1]));
        }),
        { numRuns: RUNS.emailMixed },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'POST /emailchecks: empty, over 500, duplicate and wrongly shaped batches are a 422 and change nothing',
    async () => {
      const shapes: fc.Arbitrary<unknown> = fc.oneof(
        fc.constant({ emailChecks: [] }),
        fc.integer({ min: 501, max: 520 }).map((n) => ({
          emailChecks: Array.from({ length: n }, (_, i) => ({ checkId: emailable[i % emailable.length] })),
        })),
        notObject.filter((v) => !Array.isArray(v)).map((emailChecks) => ({ emailChecks })),
        fc.constant({}),
        fc
          .tuple(
            validEmailBatch(() => emailable),
            unknownKey(['emailChecks'], ['emailcheck', 'EmailChecks', 'checks']),
          )
          .map(([items, k]) => ({ emailChecks: items, [k]: true })),
        // The same check twice.
        fc
          .tuple(
            validEmailItem(() => emailable),
            validEmailBatch(() => emailable),
            fc.nat(),
          )
          .map(([dup, items, at]) => {
            const list = [dup, ...items];
            list.splice(at % (list.length + 1), 0, { ...dup });
            return { emailChecks: list };
          }),
      );
      await fc.assert(
        fc.asyncProperty(shapes, async (body) => {
          await rejectedWithoutWrites(() => api.post('/emailchecks', body), [422]);
        }),
        { numRuns: RUNS.emailShapes },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'POST /emailchecks from an unverified account: 403 with the decided message, before any item is looked at',
    async () => {
      const unverifiedBody = fc
        .uniqueArray(
          fc.record(
            {
              checkId: fc.oneof(
                fc.constantFrom(...unverifiedCheckIds, foreign.checkId, emailable[0] as string),
                fc.stringMatching(/^chk_[0-9A-Z]{26}$/),
              ),
              payeeEmail: validEmail,
              enableSmsInform: fc.boolean(),
              sendAttachment: fc.constantFrom(0, 1),
            },
            { requiredKeys: ['checkId'] },
          ),
          { selector: (item) => item.checkId, minLength: 1, maxLength: 4 },
        )
        .map((emailChecks) => ({ emailChecks }));
      await fc.assert(
        fc.asyncProperty(unverifiedBody, async (body) => {
          const res = await rejectedWithoutWrites(() => unverified.post('/emailchecks', body), [403]);
          expect(res.body).toEqual({ success: false, errorMsg: UNVERIFIED_MESSAGE });
        }),
        { numRuns: RUNS.unverifiedValid },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'POST /emailchecks from an unverified account with broken items: 403 or 422, never a write',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(brokenEmailItem(), { minLength: 1, maxLength: 3 }), async (items) => {
          const res = await rejectedWithoutWrites(
            () => unverified.post('/emailchecks', { emailChecks: items }),
            [403, 422],
          );
          if (res.status === 403) expect(res.body.errorMsg).toBe(UNVERIFIED_MESSAGE);
        }),
        { numRuns: RUNS.unverifiedBroken },
      );
    },
    PROPERTY_TIMEOUT,
  );

  // -------------------------------------------------------------------------------------------
  // PUT /payees/{payeeId}
  // -------------------------------------------------------------------------------------------

  const PAYEE_LIMITS: Record<string, number> = {
    name: 100,
    nickName: 100,
    company: 100,
    email: 254,
    phone: 32,
    address1: 100,
    address2: 100,
    city: 60,
    state: 60,
    zip: 20,
    country: 60,
  };
  const PAYEE_FIELDS = Object.keys(PAYEE_LIMITS);

  /** A partial update the service takes (never aimed at the target payee with success here). */
  const validPayeeChanges: fc.Arbitrary<Json> = fc.record(
    {
      name: fc.string({ minLength: 1, maxLength: 100 }).filter((s) => s.trim() !== ''),
      nickName: fc.string({ maxLength: 100 }),
      company: fc.string({ maxLength: 100 }),
      email: fc.constantFrom('new@example.com', ''),
      phone: fc.constantFrom('+1 415 555 2671', '(415) 555-0100', ''),
      address1: fc.string({ maxLength: 100 }),
      city: fc.string({ maxLength: 60 }),
      zip: fc.string({ maxLength: 20 }),
      country: fc.string({ maxLength: 60 }),
    },
    { requiredKeys: [] },
  );

  const badPayeeField: fc.Arbitrary<[string, unknown]> = fc.oneof(
    fc.tuple(fc.constantFrom(...PAYEE_FIELDS), notStringOrNull),
    fc
      .constantFrom(...PAYEE_FIELDS)
      .chain((field) => fc.tuple(fc.constant(field), overLong(PAYEE_LIMITS[field] as number))),
    fc.tuple(fc.constant('email'), badEmail),
    fc.tuple(fc.constant('phone'), badPhone),
    fc.tuple(fc.constant('name'), fc.constantFrom('', ' ', '   ', '\t', '\n')),
    fc.tuple(
      unknownKey(PAYEE_FIELDS, [
        'Name',
        'nickname',
        'zipCode',
        'payeeId',
        'id',
        'createdAt',
        'address',
        'phoneNumber',
        'emailAddress',
      ]),
      anyJson,
    ),
  );

  it('the valid payee-change generator makes updates the service takes (on a scratch payee)', async () => {
    const scratch = await api.post('/payees', { payees: [{ name: 'Scratch' }] });
    const scratchId = scratch.body.data.payees[0].payeeId;
    await fc.assert(
      fc.asyncProperty(
        validPayeeChanges.filter((c) => Object.keys(c).length > 0),
        async (changes) => {
          const res = await api.put(`/payees/${scratchId}`, changes);
          expect(res.status, res.raw).toBe(200);
        },
      ),
      { numRuns: 20 },
    );
  });

  it(
    'PUT /payees/{id}: wrong types, over-long fields, bad email or phone, unknown fields: 422 "Validation error…", payee unchanged',
    async () => {
      const body = fc.oneof(
        {
          weight: 8,
          arbitrary: fc
            .tuple(validPayeeChanges, fc.array(badPayeeField, { minLength: 1, maxLength: 2 }))
            .map(([valid, bad]) => bad.reduce((acc, [k, v]) => withKey(acc, k, v), valid)),
        },
        // `{}` changes nothing and answers 200: compat/last-refusals holds it.
        { weight: 1, arbitrary: notObject.filter((v) => v !== null) },
      );
      await fc.assert(
        fc.asyncProperty(body, async (changes) => {
          const res = await rejectedWithoutWrites(
            () => inject('PUT', `/payees/${targetPayeeId}`, JSON.stringify(changes), 'application/json'),
            [422],
          );
          expect(res.body.errorMsg).toMatch(/^Validation error/);
          const read = await api.get(`/payees/${targetPayeeId}`);
          expect(read.body).toEqual(targetPayee);
        }),
        { numRuns: RUNS.payeeBad },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'PUT /payees/{id} with an unknown, deleted or foreign id: 404 "Payee not found." (or 422 for a bad body), nothing changes',
    async () => {
      // "." and ".." are dot segments, not ids: URLs resolve them away (/payees/. is /payees/).
      const id = fc
        .oneof(
          fc.constantFrom(foreign.payeeId, deletedPayeeId, 'pay_\u0000'),
          fc.string({ minLength: 1, maxLength: 64 }),
          anyText({ minLength: 1, maxLength: 30 }),
          fc.stringMatching(/^pay_[0-9A-Z]{26}$/),
        )
        .filter((s) => s !== '.' && s !== '..');
      const good = validPayeeChanges.filter((c) => Object.keys(c).length > 0);
      await fc.assert(
        fc.asyncProperty(id, fc.boolean(), good, badPayeeField, async (payeeId, breakIt, changes, [k, v]) => {
          const body = breakIt ? withKey(changes, k, v) : changes;
          const res = await rejectedWithoutWrites(
            () => api.put(`/payees/${encodeURIComponent(payeeId)}`, body),
            breakIt ? [404, 422] : [404],
          );
          if (res.status === 404) expect(res.body.errorMsg).toBe('Payee not found.');
          else expect(res.body.errorMsg).toMatch(/^Validation error/);
        }),
        { numRuns: RUNS.payeeUnknownId },
      );
    },
    PROPERTY_TIMEOUT,
  );

  // -------------------------------------------------------------------------------------------
  // Whole bodies: arbitrary JSON, arbitrary values, text that is not JSON, other content types
  // -------------------------------------------------------------------------------------------

  type Route = { method: 'POST' | 'PUT'; url: () => string; prefix: string };
  const ROUTES: readonly Route[] = [
    { method: 'POST', url: () => '/checks', prefix: '' },
    { method: 'POST', url: () => '/emailchecks', prefix: '' },
    { method: 'PUT', url: () => `/payees/${targetPayeeId}`, prefix: 'Validation error' },
    { method: 'POST', url: () => '/payees', prefix: '' },
    { method: 'POST', url: () => '/bankAccounts', prefix: '' },
    { method: 'POST', url: () => '/categories', prefix: '' },
  ];
  const route = fc.constantFrom(...ROUTES);

  it(
    'arbitrary JSON values as whole bodies: 400 or 422, never a 5xx, never a write',
    async () => {
      await fc.assert(
        fc.asyncProperty(route, fc.jsonValue(), async (r, value) => {
          fc.pre(!changesNothing(r.method, value));
          const res = await rejectedWithoutWrites(
            () => inject(r.method, r.url(), JSON.stringify(value), 'application/json'),
            [400, 422],
          );
          if (res.status === 422 && r.prefix !== '') expect(res.body.errorMsg).toMatch(/^Validation error/);
        }),
        { numRuns: RUNS.jsonValue },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'arbitrary values (fc.anything) serialised as bodies: 400 or 422, never a 5xx, never a write',
    async () => {
      await fc.assert(
        fc.asyncProperty(route, fc.anything(), async (r, value) => {
          fc.pre(!changesNothing(r.method, value));
          const text = JSON.stringify(value) ?? '';
          await rejectedWithoutWrites(() => inject(r.method, r.url(), text, 'application/json'), [400, 422]);
        }),
        { numRuns: RUNS.anything },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'text that is not JSON, sent as application/json: 400 "could not be parsed", never a write',
    async () => {
      const validBody = JSON.stringify({ checks: [{ bankAccountId: 'b', payeeId: 'p', amount: 1 }] });
      const notJson = fc
        .oneof(
          anyText({ maxLength: 60 }),
          // A valid body cut short.
          fc.nat({ max: validBody.length - 1 }).map((n) => validBody.slice(0, n)),
          // Near-JSON mistakes.
          fc.constantFrom(
            "{'checks': []}",
            '{"checks": [],}',
            '{"checks": [{"amount": NaN}]}',
            '{"checks": [{"amount": 1e}]}',
            '{"checks": [] /* comment */}',
            '{checks: []}',
            '{"checks": []}{"checks": []}',
            '{"checks": []} trailing',
            '[1, 2',
            'undefined',
            'True',
            'nul',
            '\u0000',
            '{"a":"\u0001"}',
          ),
          fc
            .tuple(anyText({ minLength: 1, maxLength: 10 }), fc.jsonValue())
            .map(([junk, value]) => `${JSON.stringify(value)}${junk}`),
        )
        .filter((text) => {
          try {
            JSON.parse(text.replace(/^\uFEFF/, ''));
            return false;
          } catch {
            return true;
          }
        });
      await fc.assert(
        fc.asyncProperty(route, notJson, async (r, text) => {
          const res = await rejectedWithoutWrites(() => inject(r.method, r.url(), text, 'application/json'), [400]);
          expect(res.body.errorMsg).toMatch(/could not be parsed/);
        }),
        { numRuns: RUNS.rawText },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'a JSON body under another content type (or none): 400 (422 read as a form), never a write',
    async () => {
      const contentType = fc.constantFrom<string | null>(
        null,
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'multipart/form-data; boundary=x',
        'text/json',
        'application/octet-stream',
      );
      await fc.assert(
        fc.asyncProperty(route, contentType, fc.jsonValue(), async (r, type, value) => {
          // A form body is read (the hosted service's clients send them): JSON text read as a form
          // is a field the route does not know, so a 422, as a JSON body with that field would be.
          const refusals = type === 'application/x-www-form-urlencoded' ? [400, 422] : [400];
          await rejectedWithoutWrites(() => inject(r.method, r.url(), JSON.stringify(value), type), refusals);
        }),
        { numRuns: RUNS.contentType },
      );
    },
    PROPERTY_TIMEOUT,
  );

  // -------------------------------------------------------------------------------------------
  // Found by the properties above, pinned as plain examples
  // -------------------------------------------------------------------------------------------

  describe('bodies at the edges of the parser', () => {
    const DEPTH = 100_000;
    const deep = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
    it.each([
      ['a 100,000-deep array as the body', () => deep],
      ['a 100,000-deep array as the batch', () => `{"checks":${deep},"emailChecks":${deep}}`],
      [
        'a 100,000-deep array inside an item',
        () =>
          `{"checks":[{"bankAccountId":"${ids.bankAccountId}","payeeId":"${ids.payeeId}","amount":1,"memo":${deep}}],"emailChecks":[{"checkId":"${emailable[0]}","payeeEmail":${deep}}]}`,
      ],
      ['a 100,000-deep object as the body', () => `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`],
    ])('%s: 400 or 422 on every route, never a 5xx, never a write', async (_label, body) => {
      for (const r of ROUTES)
        await rejectedWithoutWrites(() => inject(r.method, r.url(), body(), 'application/json'), [400, 422]);
    });

    it('a body over the size limit: 413 in the error shape, nothing written', async () => {
      const huge = JSON.stringify({ checks: [{ ...ids, amount: 1, memo: 'x'.repeat(t.config.bodyLimitBytes) }] });
      const res = await rejectedWithoutWrites(() => inject('POST', '/checks', huge, 'application/json'), [413]);
      expect(res.body.errorMsg).toMatch(/too large/);
    });
  });

  // No field of this API needs U+0000 and PostgreSQL text cannot hold it: bodies holding one are
  // refused up front, naming the field; a path id holding one matches nothing (404).
  describe('a NUL character (U+0000) in text is never a 5xx', () => {
    it('as a bankAccountId in POST /checks: 422 naming the field, nothing written', async () => {
      const res = await rejectedWithoutWrites(
        () => api.post('/checks', { checks: [{ ...ids, bankAccountId: 'bnk_\u0000', amount: 1 }] }),
        [422],
      );
      expect(res.body.errorMsg).toBe('The checks.0.bankAccountId field must not contain NUL characters.');
    });

    it('as a payeeId in POST /checks: 422 naming the field, nothing written', async () => {
      const res = await rejectedWithoutWrites(
        () => api.post('/checks', { checks: [{ ...ids, payeeId: '\u0000', amount: 1 }] }),
        [422],
      );
      expect(res.body.errorMsg).toBe('The checks.0.payeeId field must not contain NUL characters.');
    });

    it('as a checkId in POST /emailchecks: 422 naming the field, nothing written', async () => {
      const res = await rejectedWithoutWrites(
        () => api.post('/emailchecks', { emailChecks: [{ checkId: 'chk_\u0000' }] }),
        [422],
      );
      expect(res.body.errorMsg).toBe('The emailChecks.0.checkId field must not contain NUL characters.');
    });

    it('in a list filter: 422', async () => {
      const res = await rejectedWithoutWrites(() => api.get('/checks?term=a%00b'), [422]);
      expect(res.body.errorMsg).toBe('The term field must not contain NUL characters.');
    });

    it('as an unknown payee id in the path of PUT /payees/{id}: 404, nothing written', async () => {
      const res = await rejectedWithoutWrites(() => api.put('/payees/pay_%00', { name: 'Someone' }), [404]);
      expect(res.body.errorMsg).toBe('Payee not found.');
    });

    it('in the memo of an otherwise valid check: 422, nothing written', async () => {
      const res = await rejectedWithoutWrites(
        () => api.post('/checks', { checks: [{ ...ids, amount: 1, memo: 'a\u0000b' }] }),
        [422],
      );
      expect(res.body.errorMsg).toBe('The checks.0.memo field must not contain NUL characters.');
    });

    it('in a payee name on PUT /payees/{id}: 422 with the payee prefix, nothing written', async () => {
      const scratch = await api.post('/payees', { payees: [{ name: 'Scratch NUL' }] });
      const res = await rejectedWithoutWrites(
        () => api.put(`/payees/${scratch.body.data.payees[0].payeeId}`, { name: 'a\u0000b' }),
        [422],
      );
      expect(res.body.errorMsg).toBe('Validation error: The name field must not contain NUL characters.');
    });
  });

  describe('money is exact even in number literals JSON.parse would round', () => {
    it('refuses amounts with more than two significant decimals, naming the item', async () => {
      for (const literal of ['1.0000000000000000001', '100.00000000000000001', '12.345', '1e-400']) {
        const raw = `{"checks":[{"bankAccountId":"${ids.bankAccountId}","payeeId":"${ids.payeeId}","amount":1},{"bankAccountId":"${ids.bankAccountId}","payeeId":"${ids.payeeId}","amount":${literal}}]}`;
        const res = await rejectedWithoutWrites(() => inject('POST', '/checks', raw, 'application/json'), [422]);
        expect(res.body.errorMsg, literal).toMatch(
          /^The checks\.1\.amount field must (have at most 2 decimal places|be greater than 0)\.$/,
        );
      }
    });

    it('accepts trailing zeros and keeps the exact value', async () => {
      const raw = `{"checks":[{"bankAccountId":"${ids.bankAccountId}","payeeId":"${ids.payeeId}","amount":1234.5600000}]}`;
      const res = await inject('POST', '/checks', raw, 'application/json');
      expect(res.status).toBe(201);
      expect(res.body.data.checks[0].amount).toBe('1234.56');
    });
  });
});
