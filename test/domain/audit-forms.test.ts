// The chain's canonical text is written out by hand (canonicalForm, signRecord); it must be byte
// for byte the chain's definition, JSON.stringify of the fields in their order, and the stored
// changes JSON.stringify of the changes, or `audit verify` would call a record tampered with (and
// the chains already stored, hashed when canonicalForm was that JSON.stringify, would no longer
// verify). The reference below is JSON.stringify and node:crypto, not our code.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type AuditRecord,
  canonicalForm,
  GENESIS_HASH,
  recordHash,
  signRecord,
  type WrittenRecord,
} from '../../src/domain/audit.ts';

const AWKWARD = [
  '',
  'plain',
  'a "quoted" word',
  'back\\slash',
  'tab\tnew\nline\rreturn',
  '\u0000\u0001\u001f\u007f',
  'line\u2028separator\u2029',
  'API key ‹bench›',
  'émigré café',
  'emoji 😀 pair',
  'lone \ud800 high',
  'lone \udfff low',
  'reversed \udc00\ud800',
  '</script>',
];

function record(
  i: number,
  over: Partial<AuditRecord> = {},
): { -readonly [K in keyof WrittenRecord]: WrittenRecord[K] } {
  const text = (k: number) => AWKWARD[(i + k) % AWKWARD.length] as string;
  return {
    id: `aud_${i}`,
    accountId: 'acct_1',
    seq: i + 1,
    at: 1_795_967_244_689,
    env: 'test',
    actorKind: 'api-key',
    actorId: 'key_1',
    actorLabel: 'API key ‹bench›',
    role: '',
    ip: '127.0.0.1',
    userAgent: text(1),
    requestId: 'req-1',
    action: 'check.create',
    objectType: 'check',
    objectId: `chk_${i}`,
    changes: [
      { field: 'memo', old: null, new: text(2) },
      { field: text(3), old: text(4), new: null },
      { field: 'amountCents', old: '100', new: '200' },
    ],
    prevHash: GENESIS_HASH,
    hash: '',
    changesJson: '',
    ...over,
  };
}

/** The definition: JSON.stringify of every field but the hash, in the chain's order. */
function definedForm(r: Omit<AuditRecord, 'hash'>): string {
  return JSON.stringify([
    r.id,
    r.accountId,
    r.seq,
    r.at,
    r.env,
    r.actorKind,
    r.actorId,
    r.actorLabel,
    r.role,
    r.ip,
    r.userAgent,
    r.requestId,
    r.action,
    r.objectType,
    r.objectId,
    r.changes.map((c) => [c.field, c.old, c.new]),
    r.prevHash,
  ]);
}

function expectSameAsDefinition(r: { -readonly [K in keyof WrittenRecord]: WrittenRecord[K] }): void {
  const { hash: _hash, changesJson: _json, ...unsigned } = r;
  signRecord(r);
  expect(canonicalForm(unsigned)).toBe(definedForm(unsigned));
  expect(r.hash).toBe(createHash('sha256').update(definedForm(unsigned), 'utf8').digest('hex'));
  expect(r.hash).toBe(recordHash(unsigned));
  expect(r.changesJson).toBe(JSON.stringify(r.changes));
  expect(JSON.parse(r.changesJson)).toEqual(r.changes);
  expect(canonicalForm(unsigned)).toContain(JSON.stringify(r.changes.map((c) => [c.field, c.old, c.new])));
}

describe('canonicalForm and signRecord', () => {
  it('gives the hash of the canonical form and the JSON of the changes, for awkward strings', () => {
    for (let i = 0; i < AWKWARD.length * 3; i++) expectSameAsDefinition(record(i));
  });

  it('follows every field that changes from one record to the next', () => {
    const changes: Partial<AuditRecord>[] = [
      {},
      { at: 1 },
      { env: '' },
      { actorKind: 'person' },
      { actorId: 'per_2' },
      { actorLabel: 'Ann "the owner"' },
      { role: 'owner' },
      { ip: '::1' },
      { userAgent: 'curl/8' },
      { requestId: 'req-2' },
      { action: 'check.void' },
      { objectType: 'payee' },
      { accountId: 'acct_2', seq: 9_007_199_254_740_991 },
      { changes: [] },
      {},
    ];
    for (const [i, over] of changes.entries()) expectSameAsDefinition(record(i, over));
  });
});
