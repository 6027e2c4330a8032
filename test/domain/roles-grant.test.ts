// Who may hand out which role: only an owner makes owners, and an admin never changes an owner.
import { describe, expect, it } from 'vitest';
import { approvesWith, mayGrant, mayManage, ROLES } from '../../src/domain/people/roles.ts';

describe('granting roles', () => {
  it('lets an owner grant every role and an admin every role but owner; nobody else grants', () => {
    for (const role of ROLES) expect(mayGrant('owner', role)).toBe(true);
    for (const role of ROLES) expect(mayGrant('admin', role)).toBe(role !== 'owner');
    for (const granter of ['accountant', 'approver', 'viewer'] as const)
      for (const role of ROLES) expect(mayGrant(granter, role)).toBe(false);
  });

  it('keeps admins off owners, and approving beside a role for accountants and admins only', () => {
    expect(mayManage('admin', 'owner')).toBe(false);
    expect(mayManage('admin', 'accountant')).toBe(true);
    expect(mayManage('owner', 'owner')).toBe(true);
    expect(approvesWith('accountant', true)).toBe(true);
    expect(approvesWith('admin', true)).toBe(true);
    expect(approvesWith('viewer', true)).toBe(false);
    expect(approvesWith('owner', true)).toBe(false);
    expect(approvesWith('accountant', false)).toBe(false);
  });
});
