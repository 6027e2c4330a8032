// Every message a panel user can see speaks the form's labels and the file's own
// column headers and values, never an API field name. The crawl opens every panel page with a
// form, reads its fields from the HTML, posts each kind of bad input, and reads every message
// back (under a field, above the form, or the error page); then the import preview, with a checks
// file and a payees file full of bad cells. No message may hold a camelCase word: the API's names
// are camelCase (issueDate, payeeId, routingNumber…), people's words are not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { csrfOf, type PanelResponse, Visitor } from '../support/panel-visitor.ts';

const PASSWORD = 'correct horse battery';
/** A camelCase word: how the API names a field. */
const CAMEL = /\b[a-z]+[A-Z][A-Za-z0-9]*\b/g;
/** camelCase words that are not API names and may appear in a message. None is needed yet. */
const ALLOWED = new Set<string>();

const decode = (text: string): string =>
  text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** Every message a person sees on a page: under fields, above the form, an error page's text. */
function messagesOf(answer: PanelResponse): string[] {
  const found: string[] = [];
  for (const m of answer.body.matchAll(/<p class="(?:field-error|problem)"[^>]*>([\s\S]*?)<\/p>/g))
    found.push(decode(m[1] ?? ''));
  for (const m of answer.body.matchAll(/<div class="problem"[^>]*>([\s\S]*?)<\/div>/g)) found.push(decode(m[1] ?? ''));
  if (answer.status >= 400 && found.length === 0) {
    const main = /<main[^>]*>([\s\S]*?)<\/main>/.exec(answer.body)?.[1] ?? answer.body;
    const text = /<h1>[\s\S]*?<\/h1>\s*<p>([\s\S]*?)<\/p>/.exec(main)?.[1];
    if (text !== undefined) found.push(decode(text));
  }
  return found.filter((m) => m !== '');
}

const apiNames = (message: string): string[] => (message.match(CAMEL) ?? []).filter((w) => !ALLOWED.has(w));

interface FoundForm {
  action: string;
  hidden: Record<string, string>;
  text: string[];
  /** Each select with the value it shows (its selected or first option). */
  selects: { name: string; value: string }[];
}

/** The urlencoded POST forms of a page (file forms and forms that delete or send are left out). */
function formsOf(body: string): FoundForm[] {
  const forms: FoundForm[] = [];
  for (const m of body.matchAll(/<form([^>]*)>([\s\S]*?)<\/form>/g)) {
    const attrs = m[1] ?? '';
    const inner = m[2] ?? '';
    const action = /action="([^"]+)"/.exec(attrs)?.[1]?.replace(/&amp;/g, '&');
    if (!/method="post"/.test(attrs) || action === undefined || /multipart/.test(attrs)) continue;
    if (/(delete|revoke|sign-out|print|redeliver|resend|unclear|void|verify)/.test(action)) continue;
    const form: FoundForm = { action, hidden: {}, text: [], selects: [] };
    for (const c of inner.matchAll(/<(input|select|textarea)\b([^>]*)>/g)) {
      const tag = c[1];
      const a = c[2] ?? '';
      const rest = inner.slice((c.index ?? 0) + c[0].length);
      const name = /name="([^"]+)"/.exec(a)?.[1];
      if (name === undefined) continue;
      const type = /type="([^"]+)"/.exec(a)?.[1] ?? 'text';
      if (type === 'hidden') form.hidden[name] = /value="([^"]*)"/.exec(a)?.[1] ?? '';
      else if (tag === 'select') {
        const options = rest.slice(0, rest.indexOf('</select>'));
        const value =
          /<option value="([^"]*)" selected>/.exec(options)?.[1] ?? /<option value="([^"]*)"/.exec(options)?.[1] ?? '';
        form.selects.push({ name, value });
      } else if (!['checkbox', 'radio', 'submit', 'file', 'password'].includes(type)) form.text.push(name);
    }
    forms.push(form);
  }
  return forms;
}

/** The kinds of bad input each form is sent. */
const BAD_INPUTS: readonly { kind: string; text: string; select: string | null }[] = [
  { kind: 'empty', text: '', select: '' },
  { kind: 'too long', text: 'x'.repeat(300), select: null },
  { kind: 'not a number or a date', text: 'abc', select: null },
  { kind: 'a day that does not exist', text: '2026-02-30', select: null },
  { kind: 'negative', text: '-5', select: null },
  { kind: 'a choice not offered', text: '1', select: 'nope' },
];

function multipart(fields: Record<string, string>, file: { name: string; text: string }) {
  const boundary = '----cwWordsBoundary41';
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n${file.text}\r\n`,
  );
  return {
    body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

describe.each(dialects())('the panel speaks people’s words (%s)', { timeout: 120_000 }, (dialect) => {
  let t: TestApp;
  let visitor: Visitor;
  let api: Client;
  let bankAccountId: string;
  let checkId: string;
  let payeeId: string;

  beforeAll(async () => {
    t = await startTestApp(dialect, { PUBLIC_URL: 'https://checks.example' });
    visitor = new Visitor(t.app);
    expect(
      (
        await visitor.signUp({
          company: 'Words Co',
          email: 'words@panel.test',
          phone: '+14155552671',
          password: PASSWORD,
        })
      ).status,
    ).toBe(303);
    api = clientFor(t.app, await visitor.createKey('crawl'));
    const bank = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'Operating', routingNumber: '021000021', accountNumber: '12345678' }],
    });
    bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    payeeId = (await api.post('/payees', { payees: [{ name: 'Acme Paper Co.' }] })).body.data.payees[0].payeeId;
    const check = await api.post('/checks', { checks: [{ bankAccountId, payeeId, amount: '12.00' }] });
    checkId = check.body.data.checks[0].checkId;
  });
  afterAll(() => t.close());

  it('every form, sent every kind of bad input, answers with labels, never an API field name', async () => {
    const category = await api.post('/categories', { categories: [{ name: 'Rent' }] });
    const categoryId = category.body.data.categories?.[0]?.categoryId ?? '';
    const pages = [
      '/panel/checks/new',
      `/panel/checks/${checkId}/edit`,
      '/panel/payees/new',
      `/panel/payees/${payeeId}`,
      '/panel/categories/new',
      ...(categoryId === '' ? [] : [`/panel/categories/${categoryId}`]),
      '/panel/from-addresses/new',
      '/panel/to-addresses/new',
      '/panel/bank-accounts/new',
      `/panel/bank-accounts/${bankAccountId}`,
      `/panel/bank-accounts/${bankAccountId}/register`,
      '/panel/settings',
      '/panel/settings/approvals',
      '/panel/keys',
      '/panel/webhooks',
      '/panel/positive-pay',
      '/panel/positive-pay/layouts',
      '/panel/security',
      '/panel/people',
    ];
    const seen: { where: string; message: string }[] = [];
    let sent = 0;
    for (const url of pages) {
      const shown = await visitor.get(url);
      expect(shown.status, url).toBe(200);
      const forms = formsOf(shown.body);
      expect(forms.length, `a form on ${url}`).toBeGreaterThan(0);
      for (const form of forms) {
        for (const bad of BAD_INPUTS) {
          const body: Record<string, string> = { ...form.hidden, _csrf: csrfOf(shown.body) };
          for (const name of form.text) body[name] = bad.text;
          for (const { name, value } of form.selects) body[name] = bad.select ?? value;
          const answer = await visitor.post(form.action, body);
          sent++;
          for (const message of messagesOf(answer))
            seen.push({ where: `${form.action} (${bad.kind}, ${answer.status})`, message });
        }
      }
    }
    // The crawl reached the forms and read real refusals (not pages that said nothing).
    expect(sent).toBeGreaterThan(80);
    expect(seen.length).toBeGreaterThan(40);
    const messages = seen.map((s) => s.message).join('\n');
    expect(messages).toContain('The routing number field');
    const offending = seen.filter((s) => apiNames(s.message).length > 0);
    expect(offending.map((o) => `${o.where}: ${o.message}`)).toEqual([]);
  });

  it('the home page, with a bank account’s weeks and figures, speaks people’s words', async () => {
    // The check is issued and paid, so the home has an outstanding figure, a chart and its table.
    const printed = await t.app.inject({
      method: 'POST',
      url: '/api/v3/checks/print',
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ checkIds: [checkId] }),
    });
    expect(printed.statusCode).toBe(200);
    for (const url of ['/panel', '/panel?env=live', '/panel?env=nope']) {
      const home = await visitor.get(url);
      expect(home.status, url).toBe(200);
      // What a person reads: the page's main text, without the code samples meant for developers.
      const main = /<main[^>]*>([\s\S]*?)<\/main>/.exec(home.body)?.[1] ?? '';
      const words = decode(main.replace(/<(code|pre)>[\s\S]*?<\/\1>/g, ' '));
      // (A nonsense environment is the test one.)
      if (url === '/panel?env=live') expect(words).toContain('No bank account yet');
      else {
        expect(words).toContain('Operating');
        expect(words).toContain('Checks written and cleared per week');
        expect(words).toContain("Every week's numbers");
      }
      expect(apiNames(words), url).toEqual([]);
    }
  });

  it('the import preview names the file’s columns and cells, for checks and payees', async () => {
    const upload = async (kind: string, name: string, text: string): Promise<PanelResponse> => {
      const form = await visitor.get('/panel/imports');
      const { body, type } = multipart({ _csrf: csrfOf(form.body), kind, env: 'test' }, { name, text });
      const res = await t.app.inject({
        method: 'POST',
        url: '/panel/imports/upload',
        remoteAddress: visitor.address,
        headers: { cookie: [...visitor.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': type },
        payload: body,
      });
      expect(res.statusCode).toBe(303);
      return visitor.get(String(res.headers.location));
    };
    const checks = await upload(
      'checks',
      'bad-checks.csv',
      [
        'Date,Num,Name,Account,Amount,Ref,No Signature,Payee Id,Bank',
        '02/30/2026,12a,Acme Paper Co.,Nowhere,"1,23.45",R1,maybe,,',
        '1/2/26,,,,-4,R1,,,bnk_nope',
        '13/13/2026,1001,Unknown Vendor,,12.345,,,pay_nope,',
        `tomorrow,1002,Acme Paper Co.,,${'9'.repeat(12)},${'r'.repeat(300)},,,`,
        '2026-01-05,1002,Acme Paper Co.,,0,,,,',
      ].join('\r\n'),
    );
    const payees = await upload(
      'payees',
      'bad-payees.csv',
      ['Vendor,Email,Phone,Zip Code', ',not-an-email,12,', `${'n'.repeat(101)},a@b,+1 555,${'9'.repeat(30)}`].join(
        '\r\n',
      ),
    );
    for (const preview of [checks, payees]) {
      expect(preview.status).toBe(200);
      const cells = [...preview.body.matchAll(/<tr><td>\d+<\/td><td>\d+<\/td><td>([\s\S]*?)<\/td><\/tr>/g)].map((m) =>
        decode(m[1] ?? ''),
      );
      expect(cells.length).toBeGreaterThan(1);
      for (const text of cells) expect(apiNames(text), text).toEqual([]);
      // The column menus offer labels, not field names.
      const options = [...preview.body.matchAll(/<option value="[^"]*"[^>]*>([^<]*)<\/option>/g)].map(
        (m) => m[1] ?? '',
      );
      for (const option of options) expect(apiNames(decode(option)), option).toEqual([]);
    }
    const text = decode(checks.body);
    expect(text).toContain('Column “Date”, "02/30/2026", is not a date: February 2026 has 28 days.');
    expect(text).toContain('Column “Amount”, "1,23.45", is ambiguous');
    expect(text).toContain('Column “Name” is empty: it is required.');
  });
});
