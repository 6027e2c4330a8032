// What every command shares: its usage errors and the flags most take. The database is opened by
// cli/main.ts (the entry point) and handed to each command.
import { ENVIRONMENTS, type Environment } from '../domain/owner.ts';

/** A command used wrongly: its message, then the usage (exit code 2). */
export class UsageError extends Error {}

export function envOf(value: string | undefined): Environment {
  const env = (value ?? 'test') as Environment;
  if (!ENVIRONMENTS.includes(env)) throw new UsageError(`--env must be test or live, got "${value}"`);
  return env;
}

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`${flag} is required`);
  return value;
}
