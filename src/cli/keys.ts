// `checkwriter keys create|list|revoke|rotate-encryption`: API keys
// (an account made for a new email, with a one-time link to set its panel password) and the keys
// every sealed value is under (`secret rotate` is cli/main.ts's: it replaces the secret file).
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { checkCompany } from '../domain/account.ts';
import { Vault } from '../domain/sealed.ts';
import { isEmailAddress, passwordLink } from '../services/account.service.ts';
import { ApiKeys, ensureAccount } from '../services/api-key.service.ts';
import { accountByEmail, setCompanyName } from '../services/operator.service.ts';
import type { ServiceContext } from '../services/context.ts';
import { AppError } from '../errors.ts';
import { envOf, noMoreArguments, readInputFile, required, UsageError } from './command-helpers.ts';

/** The replaced server secret, from --previous-secret-file: a file that is missing, a folder or empty is refused. */
function previousSecret(path: string): Buffer {
  const secret = readInputFile(path).trim();
  if (secret === '')
    throw new AppError(
      'bad_request',
      `--previous-secret-file ${path} is empty: it must hold the replaced server secret`,
    );
  return Buffer.from(secret, 'utf8');
}

export async function keysCommand(
  db: ServiceContext['db'],
  config: Config,
  sub: string | undefined,
  rest: string[],
): Promise<number> {
  const args = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      env: { type: 'string' },
      name: { type: 'string' },
      company: { type: 'string' },
      phone: { type: 'string' },
      unverified: { type: 'boolean', default: false },
      'previous-secret-file': { type: 'string' },
    },
  });
  {
    if (sub === undefined || !['create', 'list', 'revoke', 'rotate-encryption'].includes(sub))
      throw new UsageError(`unknown keys command "${sub ?? ''}"`);
    // Only revoke takes an argument (KEY_ID): anything more is a mistake, not ignored.
    noMoreArguments(args.positionals.slice(sub === 'revoke' ? 1 : 0), `keys ${sub}`);
    const keys = await ApiKeys.open(db, config);
    if (sub === 'create') {
      const email = required(args.values.email, '--email');
      if (!isEmailAddress(email)) throw new UsageError(`--email must be an email address, got "${email}"`);
      const env = envOf(args.values.env);
      const company = args.values.company;
      const companyProblem = company === undefined ? null : checkCompany(company);
      if (companyProblem !== null) throw new UsageError(`--company: ${companyProblem}`);
      // A phone is kept as sign-up keeps it (E.164), and one that cannot be a number is refused.
      let phone: string | undefined;
      if (args.values.phone !== undefined && args.values.phone.trim() !== '') {
        const { normalisePhone } = await import('../services/payee.service.ts');
        phone = normalisePhone(args.values.phone.trim()) ?? undefined;
        if (phone === undefined)
          throw new UsageError(
            `--phone must be a phone number (with its country code unless it is in the US), got "${args.values.phone}"`,
          );
      }
      const { account, created } = await ensureAccount(db, {
        email,
        verified: !args.values.unverified,
        ...(args.values.company === undefined ? {} : { company: args.values.company }),
        ...(phone === undefined ? {} : { phone }),
      });
      // --company names the sender payees see, on a new account or an existing one.
      if (!created && company !== undefined) await setCompanyName(db, account.id, company.trim());
      const { key, record } = await keys.create(account.id, env, args.values.name ?? `${env} key`);
      process.stderr.write(
        `${created ? 'Created' : 'Using'} account ${account.id} (${account.email}, ${account.emailVerified && account.phoneVerified ? 'verified' : 'unverified'}).\n` +
          (company !== undefined
            ? `Company name: ${company.trim()}.\n`
            : created
              ? `No company name: payees see ${account.email} as the sender until you set one (--company NAME, or /panel/settings).\n`
              : ''),
      );
      // A new account's owner has no password: without this link (or SMTP for the emailed
      // reset) the panel would stay closed to them. Printed before the key's announcement, so
      // that the key follows the line that says it is shown only once.
      if (created) {
        const link = await passwordLink(db, config.publicUrl, account.email);
        if (link !== undefined)
          process.stderr.write(`Set a password for the panel (one use, within 1 hour):\n  ${link}\n`);
      }
      process.stderr.write(`Created ${env} key ${record.id}. Keep it secret; it is shown only once:\n`);
      process.stdout.write(`${key}\n`);
      return 0;
    }
    if (sub === 'list') {
      const account = args.values.email === undefined ? null : await accountByEmail(db, args.values.email);
      if (args.values.email !== undefined && (account === null || account === undefined))
        throw new AppError('not_found', `no account with email ${args.values.email}`);
      const list = await keys.list(account?.id ?? null);
      for (const k of list) {
        const state = k.revokedAt === null ? 'active' : `revoked ${new Date(k.revokedAt).toISOString()}`;
        process.stdout.write(
          `${k.id}\t${k.env}\t${k.displayPrefix}\t${k.name}\tcreated ${new Date(k.createdAt).toISOString()}\t${state}\n`,
        );
      }
      if (list.length === 0) process.stdout.write('no keys\n');
      return 0;
    }
    if (sub === 'revoke') {
      const keyId = required(args.positionals[0], 'KEY_ID');
      await keys.revoke(keyId);
      process.stdout.write(`revoked ${keyId}\n`);
      return 0;
    }
    if (sub === 'rotate-encryption') {
      const previousFile = args.values['previous-secret-file'];
      const previous = previousFile === undefined ? null : new Vault(previousSecret(previousFile));
      const { rotateDataKey } = await import('../services/data-keys.service.ts');
      const rotation = await rotateDataKey(db, keys.vault, previous);
      process.stdout.write(
        `data key ${rotation.keyId} is current (was ${rotation.previousKeyId}); ${rotation.resealed} bank account numbers re-encrypted\n`,
      );
      return 0;
    }
    throw new UsageError(`unknown keys command "${sub ?? ''}"`);
  }
}
