// Every legal and illegal move of a check, driven through the API on each database.
// The expected outcome of each (status, operation) pair comes from the transition table
// (TRANSITIONS, isEditable in src/domain/check-status.ts), so this test follows the table; a few
// hard-coded facts below keep a broken table from making it vacuous. Each pair gets a fresh check,
// brought to its status through the real paths: POST /checks/print, POST /emailchecks, the payee
// download (/c/<token>/pdf), POST /mailchecks then the operator's dispatch, POST /checks/{id}/void,
// and POST /mailchecks/{id}/cancel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHECK_STATUSES,
  EVENT_STATEMENT,
  TRANSITIONS,
  canHappen,
  isEditable,
  statusCode,
  type CheckEvent,
  type CheckStatusName,
} from '../../src/domain/check-status.ts';
import { payeeLinkToken } from '../support/links.ts';
import { operatorSettle } from '../../src/services/mailing.service.ts';
import { seedBasics, startTestApp, type Client, type Reply, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const OPERATIONS = ['print', 'email', 'mail', 'void', 'edit', 'delete'] as const;
type Operation = (typeof OPERATIONS)[number];

/** The table event behind each operation; edit and delete follow isEditable instead. */
const EVENT_OF: Readonly<Record<Operation, CheckEvent | null>> = {
  print: 'print',
  email: 'email',
  mail: 'mail',
  void: 'void',
  edit: null,
  delete: null,
};

function allowed(operation: Operation, status: CheckStatusName): boolean {
  const event = EVENT_OF[operation];
  return event === null ? isEditable(statusCode(status)) : canHappen(event, statusCode(status));
}

/** The 422 each operation answers when the table refuses it. */
const REFUSAL: Readonly<Record<Operation, (status: CheckStatusName) => string>> = {
  print: (s) => `The checkIds.0 field names a check that cannot be printed: its status is ${s}.`,
  email: (s) => `The emailChecks.0.checkId field names a check that cannot be emailed: its status is ${s}.`,
  mail: (s) => `The mailChecks.0.checkId field names a check that cannot be mailed: its status is ${s}.`,
  void: (s) => `The check cannot be voided: its status is ${s}.`,
  edit: (s) => `The check cannot be edited: its status is ${s}.`,
  delete: (s) => `The check cannot be deleted: its status is ${s}.`,
};

/** Statements a check shows once brought to each status by the paths below. */
const REACHED_WITH: Readonly<Record<CheckStatusName, readonly string[]>> = {
  new: ['created'],
  printed: ['created', 'printed'],
  mailed: ['created', 'queued for mailing', 'mailed'],
  emailed: ['created', 'emailed'],
  eprinted: ['created', 'emailed', 'eprinted'],
  void: ['created', 'void'],
  refunded: ['created', 'queued for mailing', 'refunded'],
};

interface Snapshot {
  status: number;
  statements: string[];
  memo: string | null;
  mailings: string[];
  deliveries: number;
}

describe('the transition table as this test reads it', () => {
  it('agrees with known facts (so a broken table cannot make the HTTP matrix vacuous)', () => {
    const facts: [Operation, CheckStatusName, boolean][] = [
      ['print', 'new', true],
      ['print', 'printed', true],
      ['print', 'emailed', false],
      ['print', 'void', false],
      ['email', 'new', true],
      ['email', 'eprinted', true],
      ['email', 'printed', false],
      ['mail', 'new', true],
      ['mail', 'printed', false],
      ['mail', 'mailed', false],
      ['void', 'mailed', true],
      ['void', 'refunded', false],
      ['void', 'void', false],
      ['edit', 'new', true],
      ['edit', 'printed', false],
      ['delete', 'new', true],
      ['delete', 'emailed', false],
    ];
    for (const [operation, status, expected] of facts)
      expect(allowed(operation, status), `${status} -> ${operation}`).toBe(expected);
    // Nothing leaves a final status; every status but those has at least one way on.
    for (const operation of OPERATIONS) {
      expect(allowed(operation, 'void'), `void -> ${operation}`).toBe(false);
      expect(allowed(operation, 'refunded'), `refunded -> ${operation}`).toBe(false);
    }
    for (const status of CHECK_STATUSES.filter((s) => s !== 'void' && s !== 'refunded')) {
      expect(
        OPERATIONS.some((operation) => allowed(operation, status)),
        status,
      ).toBe(true);
    }
  });

  it('has no event this file does not drive (print, email, mail, void here; eprint and refund below)', () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual(['email', 'eprint', 'mail', 'print', 'refund', 'void']);
  });
});

describe.each(dialects())('every transition over HTTP (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let ids: { bankAccountId: string; payeeId: string };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('transitions@example.com', { verified: true });
    ids = await seedBasics(api, { address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' });
  });
  afterAll(() => t.close());

  const must = (what: string, reply: Reply, status = 200): Reply => {
    if (reply.status !== status)
      throw new Error(`${what}: expected ${status}, got ${reply.status} ${reply.raw.slice(0, 300)}`);
    return reply;
  };

  const create = async (): Promise<string> =>
    must('create', await api.post('/checks', { checks: [{ ...ids, amount: 50, memo: 'original' }] }), 201).body.data
      .checks[0].checkId;
  const print = (id: string) => api.post('/checks/print', { checkIds: [id] });
  const email = (id: string) => api.post('/emailchecks', { emailChecks: [{ checkId: id }] });
  const mail = (id: string) => api.post('/mailchecks', { mailChecks: [{ checkId: id, shippingTypeId: 1 }] });
  const voidIt = (id: string) => api.post(`/checks/${id}/void`);
  /** Each operation as the API is asked for it. */
  const perform = (operation: Operation, id: string) =>
    ({
      print: () => print(id),
      email: () => email(id),
      mail: () => mail(id),
      void: () => voidIt(id),
      edit: () => api.put(`/checks/${id}`, { memo: 'edited' }),
      delete: () => api.delete(`/checks/${id}`),
    })[operation]();

  /** The payee's download behind the emailed link (the newest email delivery of the check). */
  const payeeDownload = async (id: string) => {
    const rows = await t.database.db.all<{ id: string }>(
      "SELECT id FROM deliveries WHERE check_id = ? AND channel = 'email' ORDER BY created_at, id",
      [id],
    );
    const delivery = rows.at(-1);
    if (delivery === undefined) throw new Error(`check ${id} has no emailed link`);
    return t.app.inject({ method: 'POST', url: `/c/${await payeeLinkToken(t, delivery.id)}/pdf` });
  };

  const snapshot = async (id: string): Promise<Snapshot> => {
    const data = must(`GET /checks/${id}`, await api.get(`/checks/${id}`)).body.data;
    expect(data.checkStatus.status).toBe(data.status);
    const mailings = await t.database.db.all<{ status: string }>(
      'SELECT status FROM mailings WHERE check_id = ? ORDER BY created_at, id',
      [id],
    );
    const deliveries = await t.database.db.all<{ id: string }>('SELECT id FROM deliveries WHERE check_id = ?', [id]);
    return {
      status: data.status,
      statements: data.checkStatements.map((s: { status: string }) => s.status),
      memo: data.memo,
      mailings: mailings.map((m) => m.status),
      deliveries: deliveries.length,
    };
  };

  /** A fresh check brought to `status` through the API (and the operator's queue for mailed). */
  const reach = async (status: CheckStatusName): Promise<string> => {
    const id = await create();
    switch (status) {
      case 'new':
        break;
      case 'printed':
        must('print', await print(id));
        break;
      case 'emailed':
        must('email', await email(id));
        break;
      case 'eprinted': {
        must('email', await email(id));
        const download = await payeeDownload(id);
        if (download.statusCode !== 200)
          throw new Error(`payee download: ${download.statusCode} ${download.body.slice(0, 300)}`);
        break;
      }
      case 'mailed':
        await operatorSettle(t.database.db, must('mail', await mail(id)).body.data.mailings[0].mailingId, 'dispatched');
        break;
      case 'void':
        must('void', await voidIt(id));
        break;
      case 'refunded':
        must(
          'cancel mailing',
          await api.post(`/mailchecks/${must('mail', await mail(id)).body.data.mailings[0].mailingId}/cancel`),
        );
        break;
    }
    const reached = await snapshot(id);
    expect({ status: reached.status, statements: reached.statements }, `reaching ${status}`).toEqual({
      status: statusCode(status),
      statements: REACHED_WITH[status],
    });
    return id;
  };

  /**
   * Asserts what an allowed event did: the table's target status and the event's statement (a
   * print of a printed check is recorded as `reprinted`, docs/printing.md), nothing else.
   */
  const expectMoved = async (id: string, before: Snapshot, event: CheckEvent) => {
    const after = await snapshot(id);
    expect(after.status).toBe(statusCode(TRANSITIONS[event].to));
    const reprint = event === 'print' && before.status === statusCode('printed');
    const queued = event === 'mail' ? ['queued for mailing'] : [];
    expect(after.statements).toEqual([...before.statements, ...queued, reprint ? 'reprinted' : EVENT_STATEMENT[event]]);
    expect(after.memo).toBe(before.memo);
    return after;
  };

  for (const status of CHECK_STATUSES) {
    for (const operation of OPERATIONS) {
      const ok = allowed(operation, status);
      it(`${status} -> ${operation}: ${ok ? 'allowed' : 'refused (422)'}`, async () => {
        const id = await reach(status);
        const before = await snapshot(id);

        if (!ok) {
          const reply = await perform(operation, id);
          expect(reply.status).toBe(422);
          expect(reply.body.errorMsg).toBe(REFUSAL[operation](status));
          // Unchanged: status, statements, fields, no mailing or message queued, still there.
          expect(await snapshot(id)).toEqual(before);
          return;
        }

        switch (operation) {
          case 'print': {
            const reply = must('print', await print(id));
            expect(reply.headers['content-type']).toBe('application/pdf');
            await expectMoved(id, before, 'print');
            break;
          }
          case 'email': {
            expect(must('email', await email(id)).body.message).toBe('Check emailed successfully.');
            const after = await expectMoved(id, before, 'email');
            expect(after.deliveries).toBe(before.deliveries + 1);
            break;
          }
          case 'mail': {
            // Queued: the check stays as it was (and locked) until the operator dispatches it.
            const queued = must('mail', await mail(id)).body.data.mailings[0];
            expect(queued).toMatchObject({ checkId: id, status: 'queued' });
            // The check says it is queued (a statement), its status unchanged.
            expect(await snapshot(id)).toEqual({
              ...before,
              statements: [...before.statements, 'queued for mailing'],
              mailings: [...before.mailings, 'queued'],
            });
            await operatorSettle(t.database.db, queued.mailingId, 'dispatched');
            const after = await expectMoved(id, before, 'mail');
            expect(after.mailings).toEqual([...before.mailings, 'dispatched']);
            break;
          }
          case 'void': {
            const reply = must('void', await voidIt(id));
            expect(reply.body.data.checkStatus).toEqual({ status: statusCode('void'), description: 'Void' });
            await expectMoved(id, before, 'void');
            break;
          }
          case 'edit': {
            const reply = must('edit', await api.put(`/checks/${id}`, { memo: 'edited' }));
            expect(reply.body.data.memo).toBe('edited');
            expect(await snapshot(id)).toEqual({ ...before, memo: 'edited' });
            break;
          }
          case 'delete':
            must('delete', await api.delete(`/checks/${id}`));
            expect((await api.get(`/checks/${id}`)).status).toBe(404);
            break;
        }
      });
    }
  }

  // eprint: the payee downloading an emailed check. Only a check that was emailed has a payee
  // link, so the download can be tried from emailed, eprinted, and a check voided after emailing;
  // from new, printed, mailed and refunded there is no link to follow.
  describe('eprint (payee download from /c/<token>/pdf)', () => {
    it('emailed -> eprint: allowed per the table; eprinted with its statement', async () => {
      expect(canHappen('eprint', statusCode('emailed'))).toBe(true);
      const id = await reach('emailed');
      const before = await snapshot(id);
      const download = await payeeDownload(id);
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('application/pdf');
      await expectMoved(id, before, 'eprint');
    });

    it('eprinted -> download again: not a move (the table agrees); the PDF is served and the check stays eprinted with one statement', async () => {
      expect(canHappen('eprint', statusCode('eprinted'))).toBe(false);
      const id = await reach('eprinted');
      const before = await snapshot(id);
      const download = await payeeDownload(id);
      expect(download.statusCode).toBe(200);
      const after = await snapshot(id);
      expect(after.status).toBe(statusCode(TRANSITIONS.eprint.to));
      // One 'eprinted' statement per email: re-downloading records nothing (docs/lifecycle.md).
      expect(after.statements).toEqual(before.statements);
    });

    it('emailed -> void -> eprint: refused (the link answers 410), the check stays void', async () => {
      expect(canHappen('eprint', statusCode('void'))).toBe(false);
      const id = await reach('emailed');
      must('void', await voidIt(id));
      const before = await snapshot(id);
      expect(before).toMatchObject({ status: statusCode('void'), statements: ['created', 'emailed', 'void'] });
      const download = await payeeDownload(id);
      expect(download.statusCode).toBe(410);
      expect(download.body).toContain('Check cancelled');
      expect(await snapshot(id)).toEqual(before);
    });

    it('eprinted -> email -> eprint: emailing again and downloading again each move the check', async () => {
      const id = await reach('eprinted');
      must('email', await email(id));
      expect((await payeeDownload(id)).statusCode).toBe(200);
      expect(await snapshot(id)).toMatchObject({
        status: statusCode('eprinted'),
        statements: ['created', 'emailed', 'eprinted', 'emailed', 'eprinted'],
        deliveries: 2,
      });
    });
  });

  // refund: a mailing cancelled before dispatch. The queue only takes new checks, so refund is
  // only ever tried from new (reached above as `refunded`); what a queued check may still do:
  describe('a new check queued for mailing (the mail lock)', () => {
    const queue = async (): Promise<{ id: string; mailingId: string }> => {
      const id = await reach('new');
      return { id, mailingId: must('mail', await mail(id)).body.data.mailings[0].mailingId };
    };

    it('refuses print, email, mail, edit and delete with the queue message; the check is unchanged', async () => {
      for (const [operation, message] of [
        ['print', 'The checkIds.0 field names a check that is queued for mailing.'],
        ['email', 'The check cannot be emailed: it is queued for mailing; cancel the mailing first.'],
        ['mail', 'The mailChecks.0.checkId field names a check that is already queued for mailing.'],
        ['edit', 'The check cannot be edited: it is queued for mailing; cancel the mailing first.'],
        ['delete', 'The check cannot be deleted: it is queued for mailing; cancel the mailing first.'],
      ] as const) {
        const { id } = await queue();
        const before = await snapshot(id);
        expect(before).toMatchObject({ status: statusCode('new'), mailings: ['queued'] });
        const reply = await perform(operation, id);
        expect(reply.status, operation).toBe(422);
        expect(reply.body.errorMsg, operation).toBe(message);
        expect(await snapshot(id), operation).toEqual(before);
      }
    });

    it('void is allowed and cancels the mailing; it can then be neither refunded nor mailed', async () => {
      const { id, mailingId } = await queue();
      must('void', await voidIt(id));
      expect(await snapshot(id)).toMatchObject({
        status: statusCode('void'),
        statements: ['created', 'queued for mailing', 'void'],
        mailings: ['cancelled'],
      });
      const cancel = await api.post(`/mailchecks/${mailingId}/cancel`);
      expect(cancel.status).toBe(422);
      expect(cancel.body.errorMsg).toBe('The mailing cannot be cancelled: it is already cancelled.');
      await expect(operatorSettle(t.database.db, mailingId, 'dispatched')).rejects.toThrow(
        'The mailing cannot be dispatched: it is already cancelled.',
      );
      expect(await snapshot(id)).toMatchObject({
        status: statusCode('void'),
        statements: ['created', 'queued for mailing', 'void'],
        mailings: ['cancelled'],
      });
    });

    it('refund happens only from new: cancelling the queued mailing refunds the check (final)', async () => {
      expect(TRANSITIONS.refund.from).toEqual(['new']);
      const { id, mailingId } = await queue();
      must('cancel mailing', await api.post(`/mailchecks/${mailingId}/cancel`));
      expect(await snapshot(id)).toMatchObject({
        status: statusCode(TRANSITIONS.refund.to),
        statements: ['created', 'queued for mailing', EVENT_STATEMENT.refund],
        mailings: ['cancelled'],
      });
    });
  });
});
