// docs/team.md prints the roles table; this test makes the table from ACTIONS (domain/people/roles.ts)
// and compares, so the page and the rules can't drift apart.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACTIONS, type Action, ROLE_NAMES, ROLES } from '../../src/domain/people/roles.ts';

function rolesTable(): string {
  const header = `| action | ${ROLES.map((r) => ROLE_NAMES[r]).join(' | ')} |`;
  const rule = `|---|${ROLES.map(() => '---').join('|')}|`;
  const rows = (Object.keys(ACTIONS) as Action[]).map((action) => {
    const row = ACTIONS[action];
    const cells = ROLES.map((role) =>
      (row.roles as readonly string[]).includes(role)
        ? 'yes'
        : action === 'checks.approve' && (role === 'accountant' || role === 'admin')
          ? 'if approves'
          : '',
    );
    return `| \`${action}\`: ${row.words} | ${cells.join(' | ')} |`;
  });
  return [header, rule, ...rows].join('\n');
}

describe('docs/team.md', () => {
  it('prints the roles table as ACTIONS has it', () => {
    const doc = readFileSync(new URL('../../docs/team.md', import.meta.url), 'utf8');
    expect(doc).toContain(rolesTable());
  });
});
