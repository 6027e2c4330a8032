// The verdicts: every acknowledged check read back through the API (all checks listed, counted
// by referenceId), and each scenario held against the targets.
import type { Batch } from './load.ts';
import { CHECKS_PER_BATCH } from './load.ts';
import type { ScenarioResult } from './scenarios.ts';
import { sleep } from './processes.ts';

export interface Stored {
  /** referenceId → the ids of the checks stored with it (more than one would be a batch run twice). */
  byReference: Map<string, string[]>;
  pages: number;
}

async function page(
  baseUrl: string,
  apiKey: string,
  n: number,
): Promise<{ referenceId: string | null; checkId: string }[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const response = await fetch(`${baseUrl}/api/v3/checks?perPage=500&page=${n}`, {
        headers: { authorization: `Bearer ${apiKey}` },
        signal: AbortSignal.timeout(30_000),
      });
      if (response.status === 200) {
        const json = (await response.json()) as { data: { checks: { referenceId: string | null; checkId: string }[] } };
        return json.data.checks;
      }
      await response.arrayBuffer();
      if (Date.now() > deadline) throw new Error(`listing checks answered ${response.status}`);
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await sleep(500);
  }
}

/** Every check of the account, through the API. */
export async function readBack(baseUrl: string, apiKey: string): Promise<Stored> {
  const byReference = new Map<string, string[]>();
  let n = 1;
  for (; ; n += 1) {
    const checks = await page(baseUrl, apiKey, n);
    for (const c of checks) {
      if (c.referenceId === null) continue;
      const list = byReference.get(c.referenceId) ?? [];
      list.push(c.checkId);
      byReference.set(c.referenceId, list);
    }
    if (checks.length < 500) break;
  }
  return { byReference, pages: n };
}

export interface Tally {
  batches: number;
  acknowledgedBatches: number;
  acknowledgedChecks: number;
  /** Acknowledged checks not stored, or stored under another id than the one answered. */
  lost: number;
  /** referenceIds stored more than once. */
  duplicates: number;
  /** Batches given up (never answered 201): how many of their checks are stored anyway. */
  unanswered: number;
  unansweredButStored: number;
  refused: Batch['refused'][];
}

export function tally(batches: readonly Batch[], stored: Stored): Tally {
  const t: Tally = {
    batches: batches.length,
    acknowledgedBatches: 0,
    acknowledgedChecks: 0,
    lost: 0,
    duplicates: 0,
    unanswered: 0,
    unansweredButStored: 0,
    refused: [],
  };
  for (const batch of batches) {
    for (const referenceId of batch.referenceIds)
      if ((stored.byReference.get(referenceId)?.length ?? 0) > 1) t.duplicates += 1;
    if (batch.acknowledged !== null) {
      t.acknowledgedBatches += 1;
      batch.referenceIds.forEach((referenceId, i) => {
        t.acknowledgedChecks += 1;
        const ids = stored.byReference.get(referenceId) ?? [];
        if (!ids.includes(batch.acknowledged?.[i] ?? '')) t.lost += 1;
      });
    } else {
      if (batch.refused !== null) t.refused.push(batch.refused);
      else t.unanswered += 1;
      t.unansweredButStored += batch.referenceIds.filter((r) => stored.byReference.has(r)).length;
    }
  }
  return t;
}

export interface Verdict {
  target: string;
  pass: boolean;
  measured: string;
}

function count5xx(result: ScenarioResult, status: number): number {
  let n = 0;
  for (const [label, times] of result.load.failures) if (label.startsWith(`${status} `)) n += times;
  return n;
}

export function verdicts(result: ScenarioResult, t: Tally): Verdict[] {
  const v: Verdict[] = [
    { target: 'nothing acknowledged lost', pass: t.lost === 0, measured: `${t.lost} of ${t.acknowledgedChecks} lost` },
    { target: 'no duplicate', pass: t.duplicates === 0, measured: `${t.duplicates} referenceIds stored twice` },
  ];
  if (result.name === 'kill-primary') {
    v.push({
      target: 'no server exits',
      pass: result.unexpectedExits.length === 0,
      measured: `${result.unexpectedExits.length} exits`,
    });
    v.push({
      target: 'writes again within 2 s of HAProxy routing to the new primary',
      pass: result.writesBackAfterRoutingMs !== null && result.writesBackAfterRoutingMs <= 2_000,
      measured:
        result.writesBackAfterRoutingMs === null
          ? 'no write after the routing change'
          : `${(result.writesBackAfterRoutingMs / 1000).toFixed(2)} s`,
    });
  }
  if (result.name === 'switchover' || result.name === 'rolling-restart') {
    const fiveHundreds = count5xx(result, 500);
    v.push({ target: 'zero 500s', pass: fiveHundreds === 0, measured: `${fiveHundreds} answered 500` });
  }
  return v;
}

export function describeFailures(result: ScenarioResult): string {
  const entries = [...result.load.failures.entries()].sort();
  return entries.length === 0 ? 'none' : entries.map(([label, n]) => `${label}: ${n}`).join(', ');
}

export const checksPerBatch = CHECKS_PER_BATCH;
