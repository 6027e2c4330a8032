// The panel's home page on both databases: per bank account the outstanding
// count and total and the checks written and cleared in each of the last 12 weeks (chart and
// table), the latest imports and positive pay exports. Checks are seeded over 14 weeks on two bank
// accounts, some printed, voided or cleared; another account's checks and the live environment's
// must not count. Every expected figure is worked out here from what was seeded, with this file's
// own calendar arithmetic (Intl for "today" in the account's zone, Monday-start weeks by hand).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, clientFor, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { Visitor } from '../support/panel-visitor.ts';

const PASSWORD = 'correct horse battery';
// Fourteen hours ahead of UTC: most hours of the day its date is not UTC's.
const ZONE = 'Pacific/Kiritimati';
const DAY = 86_400_000;

const todayIn = (zone: string): string => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY;
const dateOf = (day: number): string => new Date(day * DAY).toISOString().slice(0, 10);
const plusDays = (date: string, n: number): string => dateOf(dayNumber(date) + n);
/** Monday of the week of `date`: getUTCDay is 0 on Sunday. */
const mondayOf = (date: string): string => plusDays(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));
const label = (date: string): string =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dollars = (cents: number): string =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const checks = (n: number): string => `${n} ${n === 1 ? 'check' : 'checks'}`;

interface Seeded {
  bankAccountId: string;
  checkId: string;
  serial: string;
  cents: number;
  issueDate: string;
  printed: boolean;
  voided: boolean;
  clearedDate: string | null;
}

const text = (s: string): string =>
  s
    .replace(/<[^>]*>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .trim();

/** The home page's section of one bank account. */
function sectionOf(page: string, bankAccountId: string): string {
  const at = page.indexOf(`data-bank-account="${bankAccountId}"`);
  if (at < 0) throw new Error(`no section for ${bankAccountId}`);
  const end = page.indexOf('</section>', at);
  return page.slice(at, end);
}

const classText = (section: string, name: string): string =>
  text(new RegExp(`class="${name}"[^>]*>([^<]*)<`).exec(section)?.[1] ?? '');

describe.each(dialects())('the panel home (%s)', { timeout: 120_000 }, (dialect) => {
  let t: TestApp;
  let owner: Visitor;
  let api: Client;
  let live: Client;
  const seeded: Seeded[] = [];
  let today: string;
  let banks: { operating: string; payroll: string };
  let importId: string;

  const inject = (client: Client, method: 'POST', url: string, payload: string, type: string) =>
    t.app.inject({
      method,
      url: `${BASE}${url}`,
      headers: { authorization: `Bearer ${client.key}`, 'content-type': type },
      payload,
    });

  /** Writes checks of `amounts` dated `daysAgo` on a bank account, prints the ones asked, and records them. */
  async function write(
    client: Client,
    bankAccountId: string,
    payeeId: string,
    rows: { daysAgo: number; cents: number; print: boolean }[],
    into: Seeded[] | null,
  ): Promise<Seeded[]> {
    const made = await client.post('/checks', {
      checks: rows.map((r) => ({
        bankAccountId,
        payeeId,
        amount: (r.cents / 100).toFixed(2),
        issueDate: plusDays(today, -r.daysAgo),
      })),
    });
    expect(made.status, made.raw.slice(0, 300)).toBe(201);
    const out: Seeded[] = made.body.data.checks.map((c: { checkId: string; serialNumber: string }, i: number) => ({
      bankAccountId,
      checkId: c.checkId,
      serial: c.serialNumber,
      cents: rows[i]?.cents ?? 0,
      issueDate: plusDays(today, -(rows[i]?.daysAgo ?? 0)),
      printed: rows[i]?.print ?? false,
      voided: false,
      clearedDate: null,
    }));
    const toPrint = out.filter((c) => c.printed).map((c) => c.checkId);
    if (toPrint.length > 0) {
      const printed = await inject(
        client,
        'POST',
        '/checks/print',
        JSON.stringify({ checkIds: toPrint }),
        'application/json',
      );
      expect(printed.statusCode).toBe(200);
    }
    into?.push(...out);
    return out;
  }

  /** Clears checks through the bank's cleared-items file, each with its own paid date. */
  async function clear(client: Client, list: { check: Seeded; on: string }[]): Promise<void> {
    const byBank = new Map<string, { check: Seeded; on: string }[]>();
    for (const item of list)
      byBank.set(item.check.bankAccountId, [...(byBank.get(item.check.bankAccountId) ?? []), item]);
    for (const [bankAccountId, items] of byBank) {
      const csv = [
        'Check Number,Amount,Paid Date',
        ...items.map((i) => `${i.check.serial},${(i.check.cents / 100).toFixed(2)},${i.on}`),
      ].join('\n');
      const answer = await inject(client, 'POST', `/bankAccounts/${bankAccountId}/clearedItems`, csv, 'text/csv');
      expect(answer.statusCode, answer.body.slice(0, 300)).toBe(200);
      for (const i of items) i.check.clearedDate = i.on;
    }
  }

  beforeAll(async () => {
    t = await startTestApp(dialect, { PUBLIC_URL: 'https://checks.example' });
    owner = new Visitor(t.app);
    expect(
      (
        await owner.signUp({
          company: 'Acme Payables',
          email: 'home@acme.test',
          phone: '+14155552671',
          password: PASSWORD,
        })
      ).status,
    ).toBe(303);
    const saved = await owner.submit('/panel/settings', '/panel/settings', {
      company: 'Acme Payables',
      companyAddress: '',
      companyPhone: '',
      timeZone: ZONE,
    });
    expect(saved.status).toBe(303);
    today = todayIn(ZONE);
    api = clientFor(t.app, await owner.createKey('home test'));
    live = clientFor(t.app, await owner.createKey('home live', 'live'));

    const made = await api.post('/bankAccounts', {
      bankAccounts: [
        { name: 'Operating', bankName: 'First Test Bank', routingNumber: '011000015', accountNumber: '123456789' },
        { name: 'Payroll', routingNumber: '021000021', accountNumber: '12347766' },
      ],
    });
    expect(made.status, made.raw).toBe(201);
    banks = {
      operating: made.body.data.bankAccounts[0].bankAccountId,
      payroll: made.body.data.bankAccounts[1].bankAccountId,
    };
    const payeeId = (await api.post('/payees', { payees: [{ name: 'Globex' }] })).body.data.payees[0].payeeId;
    // Operating: one or two checks most weeks back to 13 weeks ago (the oldest fall before the
    // chart), printed except every fourth; a post-dated one next week (after the chart).
    const rows = Array.from({ length: 30 }, (_, i) => ({
      daysAgo: i * 3,
      cents: 1000 + i * 2537,
      print: i % 4 !== 3,
    }));
    const operating = await write(
      api,
      banks.operating,
      payeeId,
      [...rows, { daysAgo: -8, cents: 4200, print: true }],
      seeded,
    );
    // Payroll: a check each week, all printed.
    const payroll = await write(
      api,
      banks.payroll,
      payeeId,
      Array.from({ length: 14 }, (_, i) => ({ daysAgo: i * 7 + 1, cents: 250_000 + i * 100, print: true })),
      seeded,
    );
    // A printed check voided: written, not outstanding.
    const voided = operating[1];
    if (voided === undefined) throw new Error('no check to void');
    expect((await api.post(`/checks/${voided.checkId}/void`)).status).toBe(200);
    voided.voided = true;
    // Cleared: some in the chart's weeks, one paid before them (an old check).
    const printedOf = (list: Seeded[]) => list.filter((c) => c.printed && !c.voided);
    const old = printedOf(operating).filter((c) => dayNumber(c.issueDate) <= dayNumber(today) - 86);
    const recent = printedOf(operating).filter((c) => dayNumber(c.issueDate) > dayNumber(today) - 60);
    await clear(api, [
      ...(old[0] === undefined ? [] : [{ check: old[0], on: plusDays(old[0].issueDate, 1) }]),
      ...recent.slice(2, 8).map((c, i) => ({ check: c, on: plusDays(c.issueDate, Math.min(i, 3)) })),
      ...printedOf(payroll)
        .slice(1, 10)
        .map((c) => ({ check: c, on: plusDays(c.issueDate, 2) })),
    ]);

    // Another account's checks and this account's live checks, in the same weeks: not counted.
    const other = await t.client('other@acme.test');
    const otherBasics = await seedBasics(other);
    await write(other, otherBasics.bankAccountId, otherBasics.payeeId, rows.slice(0, 10), null);
    const liveBasics = await seedBasics(live);
    await write(live, liveBasics.bankAccountId, liveBasics.payeeId, rows.slice(0, 5), null);
    // An import and a positive pay export of this account, and one of the other account.
    const imported = await api.post('/imports', { type: 'payees', csv: 'Name\nInitech\n', fileName: 'vendors.csv' });
    expect(imported.status, imported.raw).toBe(202);
    importId = imported.body.data.importId;
    for (const [client, bankAccountId] of [
      [api, banks.payroll],
      [other, otherBasics.bankAccountId],
    ] as const) {
      const exported = await client.post('/positive-pay-exports', {
        bankAccountId,
        from: plusDays(today, -30),
        to: today,
        format: 'csv',
      });
      expect(exported.status, exported.raw.slice(0, 300)).toBe(201);
    }
  }, 120_000);
  afterAll(() => t.close());

  it('shows each bank account’s outstanding figures and 12 weeks of checks written and cleared', async () => {
    const home = await owner.get('/panel');
    expect(home.status).toBe(200);
    const weeks = Array.from({ length: 12 }, (_, i) => {
      const start = plusDays(mondayOf(today), (i - 11) * 7);
      return { start, end: plusDays(start, 6) };
    });
    const within = (date: string | null, w: { start: string; end: string }) =>
      date !== null && date >= w.start && date <= w.end;
    for (const [name, bankAccountId] of Object.entries(banks)) {
      const mine = seeded.filter((c) => c.bankAccountId === bankAccountId);
      const section = sectionOf(home.body, bankAccountId);
      // Outstanding: printed (issued), not void, not cleared.
      const outstanding = mine.filter((c) => c.printed && !c.voided && c.clearedDate === null);
      expect(classText(section, 'outstanding-count'), name).toBe(checks(outstanding.length));
      expect(classText(section, 'outstanding-total'), name).toBe(dollars(outstanding.reduce((s, c) => s + c.cents, 0)));
      expect(outstanding.length, name).toBeGreaterThan(0);

      const rows = [
        ...section.matchAll(/<tr><th scope="row">([^<]*)<\/th>((?:<td class="num">[^<]*<\/td>){4})<\/tr>/g),
      ];
      expect(rows.length, name).toBe(12);
      const bars = [
        ...section.matchAll(
          /<rect class="bar-(written|cleared)"[^>]*height="([\d.]+)" data-count="(\d+)"><title>([^<]*)<\/title>/g,
        ),
      ];
      expect(bars.length, name).toBe(24);
      let shownWritten = 0;
      let shownCleared = 0;
      weeks.forEach((w, i) => {
        const written = mine.filter((c) => within(c.issueDate, w));
        const cleared = mine.filter((c) => within(c.clearedDate, w));
        shownWritten += written.length;
        shownCleared += cleared.length;
        const cells = [...(rows[i]?.[2] ?? '').matchAll(/<td class="num">([^<]*)<\/td>/g)].map((m) => text(m[1] ?? ''));
        expect(text(rows[i]?.[1] ?? ''), `${name} week ${i}`).toBe(`${label(w.start)} – ${label(w.end)}`);
        expect(cells, `${name} week of ${w.start}`).toEqual([
          String(written.length),
          dollars(written.reduce((s, c) => s + c.cents, 0)),
          String(cleared.length),
          dollars(cleared.reduce((s, c) => s + c.cents, 0)),
        ]);
        // The chart's bars: the same counts, named by their week.
        const [writtenBar, clearedBar] = [bars[2 * i], bars[2 * i + 1]];
        expect(writtenBar?.[1]).toBe('written');
        expect(Number(writtenBar?.[3]), `${name} written bar ${w.start}`).toBe(written.length);
        expect(text(writtenBar?.[4] ?? '')).toBe(
          `Week of ${label(w.start)}: ${checks(written.length)} written, ${dollars(written.reduce((s, c) => s + c.cents, 0))}`,
        );
        expect(clearedBar?.[1]).toBe('cleared');
        expect(Number(clearedBar?.[3]), `${name} cleared bar ${w.start}`).toBe(cleared.length);
      });
      // Taller bars for more checks, zero height for none.
      const heights = bars.map((b) => ({ height: Number(b[2]), count: Number(b[3]) }));
      for (const a of heights)
        for (const b of heights) if (a.count > b.count) expect(a.height).toBeGreaterThan(b.height);
      for (const h of heights) if (h.count === 0) expect(h.height).toBe(0);
      // The seed reaches before the chart and after it: some checks were rightly left out.
      expect(shownWritten, name).toBeLessThan(mine.length);
      expect(shownCleared, name).toBeGreaterThan(0);
    }
    // The label without a bank name has no dangling separator.
    expect(home.body).toContain('>Payroll · ****7766<');
    expect(home.body).toContain('>Operating · First Test Bank ****6789<');
    expect(home.body).not.toMatch(/·\s+·|·\s{2}/);
  });

  it('lists the latest import and positive pay export of this account and environment only', async () => {
    const home = await owner.get('/panel');
    expect(home.body).toContain(`href="/panel/imports/${importId}">vendors.csv</a>`);
    const from = home.body.indexOf('id="exports-h"');
    const exports = home.body.slice(from, home.body.indexOf('</section>', from));
    const payrollPrinted = seeded.filter(
      (c) =>
        c.bankAccountId === banks.payroll && c.printed && c.issueDate >= plusDays(today, -30) && c.issueDate <= today,
    );
    expect(text(exports)).toContain(
      `Payroll, ${plusDays(today, -30)} to ${today}: ${checks(payrollPrinted.length)} issued (${dollars(payrollPrinted.reduce((s, c) => s + c.cents, 0))})`,
    );
    // One export of this account and environment: the other account's is not listed.
    expect(exports.match(/<li>/g)?.length).toBe(1);
  });

  it('shows the live environment’s own figures with ?env=live', async () => {
    const home = await owner.get('/panel?env=live');
    expect(home.status).toBe(200);
    for (const id of Object.values(banks)) expect(home.body).not.toContain(id);
    // The live bank account: five checks, all outstanding but the fourth (rows 0..4, print i % 4 !== 3).
    const liveRows = Array.from({ length: 5 }, (_, i) => ({ cents: 1000 + i * 2537, print: i % 4 !== 3 }));
    const issued = liveRows.filter((r) => r.print);
    expect(classText(home.body, 'outstanding-count')).toBe(checks(issued.length));
    expect(classText(home.body, 'outstanding-total')).toBe(dollars(issued.reduce((s, r) => s + r.cents, 0)));
    expect(home.body).toContain('No imports yet.');
  });

  it('tells a brand-new account what to do first, and ignores a nonsense environment', async () => {
    const newcomer = new Visitor(t.app);
    await newcomer.signUp({ company: 'New Co', email: 'new@acme.test', phone: '+14155552671', password: PASSWORD });
    for (const url of ['/panel', '/panel?env=nope', '/panel?env=live']) {
      const home = await newcomer.get(url);
      expect(home.status, url).toBe(200);
      expect(home.body, url).toContain('No bank account yet');
      expect(home.body, url).toMatch(
        /<a class="button" href="\/panel\/bank-accounts\/new(\?env=live)?">Add a bank account<\/a>/,
      );
      expect(home.body, url).toContain('No imports yet.');
      expect(home.body, url).toContain('No positive pay file yet.');
      expect(home.body, url).not.toContain('<svg');
    }
    // The check form sends them to the same place, not to the API.
    const form = await newcomer.get('/panel/checks/new?env=live');
    expect(form.status).toBe(200);
    expect(form.body).toContain('href="/panel/bank-accounts/new?env=live">add your bank account</a>');
    expect(form.body).not.toContain('through the API');
  });
});
