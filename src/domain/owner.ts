// Every record belongs to one account and one environment; test and live data never mix.
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
}
