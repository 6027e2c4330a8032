// What a refusal's log line may say: the rule and the field, never the value a client sent.
import { describe, expect, it } from 'vitest';
import { loggableReason } from '../../src/domain/redact.ts';

describe('loggableReason', () => {
  it('keeps the field and the rule of a validation message', () => {
    expect(loggableReason('The checks.0.amount field must be a number.')).toBe(
      'The checks.0.amount field must be a number.',
    );
    expect(loggableReason('The from field must be a valid date: February 2026 has 28 days.')).toBe(
      'The from field must be a valid date: February 2026 has 28 days.',
    );
  });

  it('takes out quoted cells, long digit runs and secrets, and keeps the first sentence only', () => {
    expect(
      loggableReason(
        'Line 4: the amount "($1,275.00)" of check 100234 is not an amount. The file was read as a Bank of America statement.',
      ),
    ).toBe('Line 4: the amount "…" of check … is not an amount.');
    expect(loggableReason('The account “Jane Doe 4111111111111111” is not yours.')).toBe(
      'The account "…" is not yours.',
    );
    expect(loggableReason('The accountNumber field 000123456789 must be 4 to 17 digits.')).toBe(
      'The accountNumber field … must be 4 to 17 digits.',
    );
    expect(loggableReason('Open https://x.test/reset?token=abc123secret to go on.')).not.toContain('abc123secret');
    expect(loggableReason('x'.repeat(400)).length).toBeLessThanOrEqual(160);
  });
});
