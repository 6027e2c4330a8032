// Every record belongs to one account and one environment; test and live data never mix.
import type { Actor } from './actor.ts';
import type { Origin } from './audit.ts';
export type Environment = 'test' | 'live';

export const ENVIRONMENTS: readonly Environment[] = ['test', 'live'];

export interface Owner {
  readonly accountId: string;
  readonly env: Environment;
}

/** Who is calling: the owner of the data plus what the request needs about the account. */
export interface Principal extends Owner {
  readonly keyId: string;
  readonly timeZone: string;
  /** Who acts: the person signed in, the API key, or the service itself (the audit trail names it). */
  readonly actor: Actor;
  /** Where the request came from (IP, user agent, request id), for the audit trail; absent off a request. */
  readonly origin?: Origin;
}
