// What every command shares: its usage errors, the flags most take, and reading the files it is
// given. The database is opened by cli/main.ts (the entry point) and handed to each command.
import { readFileSync, statSync } from 'node:fs';
import { ENVIRONMENTS, type Environment } from '../domain/owner.ts';
import { AppError } from '../errors.ts';

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

/** Arguments as a refusal quotes them: "a" "b". */
export function quoted(args: readonly string[]): string {
  return args.map((a) => `"${a}"`).join(' ');
}

/** Arguments past the ones a command takes are a mistake (a second file, a stray word), not ignored. */
export function noMoreArguments(extra: readonly string[], command: string): void {
  if (extra.length > 0)
    throw new UsageError(`${command}: unexpected argument${extra.length === 1 ? '' : 's'} ${quoted(extra)}`);
}

/** Why a file cannot be read or written, in the operator's words. */
export function fileProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

/** The size of a file a command was given to read: one that is missing or a folder is refused (exit 2). */
export function inputFileSize(path: string): number {
  let size: number;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    size = stat.size;
  } catch (error) {
    throw new AppError('bad_request', `cannot read ${path}: ${fileProblem(error)}`);
  }
  return size;
}

/** The text of a file a command was given (after inputFileSize); one that cannot be read is refused (exit 2). */
export function readInputFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new AppError('bad_request', `cannot read ${path}: ${fileProblem(error)}`);
  }
}
