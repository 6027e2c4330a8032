// What cli/main.ts, which opens the database and wires the concrete parts, hands a command that
// needs the database: the database (migrated), and the ServiceContext built on it when the command
// first asks — after its own checks, so a refused command opens no keys.
import type { ServiceContext } from '../services/context.ts';
import type { Account } from '../domain/account.ts';
import { systemActor } from '../domain/actor.ts';
import type { Environment, Principal } from '../domain/owner.ts';

export interface CommandSession {
  readonly db: ServiceContext['db'];
  context(): Promise<ServiceContext>;
}

/** Opens a session for `run` and closes its database after, however `run` ends. */
export type OpenSession = <T>(run: (session: CommandSession) => Promise<T>) => Promise<T>;

/** An account's data as a command acts on it: attributed to the command line, not to a person or key. */
export function commandLinePrincipal(account: Account, env: Environment): Principal {
  return { accountId: account.id, env, keyId: '', timeZone: account.timeZone, actor: systemActor('command line') };
}
