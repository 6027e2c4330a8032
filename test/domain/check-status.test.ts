import { describe, expect, it } from 'vitest';
import {
  CHECK_STATUSES,
  TRANSITIONS,
  canHappen,
  statusCode,
  statusDescription,
  type CheckEvent,
} from '../../src/domain/check-status.ts';
import { backoffMs } from '../../src/services/delivery-worker.service.ts';

describe('the transition table', () => {
  it('numbers the statuses as decided, New being 0', () => {
    expect(CHECK_STATUSES.map((s) => [s, statusCode(s), statusDescription(statusCode(s))])).toEqual([
      ['new', 0, 'New'],
      ['printed', 1, 'Printed'],
      ['mailed', 2, 'Mailed'],
      ['emailed', 3, 'Emailed'],
      ['eprinted', 4, 'E-Printed'],
      ['void', 5, 'Void'],
      ['refunded', 6, 'Refunded'],
    ]);
  });

  it('lets nothing leave void or refunded', () => {
    for (const event of Object.keys(TRANSITIONS) as CheckEvent[]) {
      expect(canHappen(event, statusCode('void')), event).toBe(false);
      expect(canHappen(event, statusCode('refunded')), event).toBe(false);
    }
  });

  it('sends a check out by one channel only', () => {
    expect(canHappen('email', statusCode('printed'))).toBe(false);
    expect(canHappen('print', statusCode('emailed'))).toBe(false);
    expect(canHappen('mail', statusCode('printed'))).toBe(false);
    expect(canHappen('mail', statusCode('emailed'))).toBe(false);
    expect(canHappen('print', statusCode('printed'))).toBe(true);
    expect(canHappen('email', statusCode('eprinted'))).toBe(true);
  });
});

describe('retry backoff', () => {
  it('doubles per attempt with half of it random, capped at an hour', () => {
    expect(backoffMs(1, 1000, () => 0)).toBe(500);
    expect(backoffMs(1, 1000, () => 1)).toBe(1000);
    expect(backoffMs(4, 1000, () => 0)).toBe(4000);
    expect(backoffMs(4, 1000, () => 1)).toBe(8000);
    expect(backoffMs(40, 30_000, () => 1)).toBe(3_600_000);
    expect(backoffMs(40, 30_000, () => 0)).toBe(1_800_000);
  });
});
