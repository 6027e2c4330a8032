// People in a test company: a person with a role (and the approving flag) added to an account
// straight through the tables migration 026 made, signed in to the panel, and the principal the
// services take for them.
import type { Principal } from '../../src/domain/owner.ts';
import type { Role } from '../../src/domain/people/roles.ts';
import { hashPassword } from '../../src/services/password.ts';
import type { TestApp } from './app.ts';
import { Visitor } from './panel-visitor.ts';

export const PERSON_PASSWORD = 'correct horse battery';

export interface TestPerson {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  /** Signed in to the panel. */
  readonly visitor: Visitor;
  /** The person acting on test data, as the services take a caller. */
  readonly principal: Principal;
}

let people = 0;

export async function addPerson(
  t: TestApp,
  accountId: string,
  options: { email: string; name: string; role: Role; approves?: boolean },
): Promise<TestPerson> {
  const id = `per_test${++people}${Date.now().toString(36)}`;
  await t.database.db.run('INSERT INTO people (id, email, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)', [
    id,
    options.email,
    options.name,
    await hashPassword(PERSON_PASSWORD),
    Date.now(),
  ]);
  await t.database.db.run(
    'INSERT INTO memberships (account_id, person_id, role, approves, created_at) VALUES (?, ?, ?, ?, ?)',
    [accountId, id, options.role, options.approves === true ? 1 : 0, Date.now()],
  );
  const visitor = new Visitor(t.app);
  const signedIn = await visitor.signIn(options.email, PERSON_PASSWORD);
  if (signedIn.status !== 303) throw new Error(`sign-in of ${options.email}: ${signedIn.status}`);
  return {
    id,
    email: options.email,
    name: options.name,
    role: options.role,
    visitor,
    principal: personPrincipal(accountId, { id, email: options.email, name: options.name, role: options.role }),
  };
}

export function personPrincipal(
  accountId: string,
  person: { id: string; email: string; name: string; role: Role; approves?: boolean },
): Principal {
  return {
    accountId,
    env: 'test',
    keyId: '',
    timeZone: 'UTC',
    actor: {
      kind: 'person',
      personId: person.id,
      name: person.name,
      email: person.email,
      role: person.role,
      approves: person.approves === true,
    },
  };
}
