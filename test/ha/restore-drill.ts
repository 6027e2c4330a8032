// The PostgreSQL restore drill on the HA cluster, with deploy/pgbackrest as it
// is: a full backup taken while the eight clients write, a restore point chosen after it, the WAL
// archived past that point, then a point-in-time restore into a new folder, a PostgreSQL of its
// own on it and a new checkwriter server with the same server secret. On that server, through its
// API and with the API key made before the backup: every check acknowledged before the restore
// point is there under the id it was answered with, no batch first sent after the point is, and
// the bank account number opens (a positive pay file carries it in full).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AppServer } from './app-servers.ts';
import { appDatabaseUrl, type Cluster, leader, PG_BIN } from './cluster.ts';
import type { Fixture, Load, ScenarioLoad } from './load.ts';
import { freePorts, run, sleep, tail, waitFor } from './processes.ts';
import { readBack } from './report.ts';

export interface DrillResult {
  pass: boolean;
  lines: string[];
  load: ScenarioLoad;
}

interface DrillInput {
  cluster: Cluster;
  load: Load;
  fixture: Fixture & { accountNumber: string };
  env: Record<string, string>;
  root: string;
}

async function pgbackrest(cluster: Cluster, nodeEnv: Record<string, string>, args: string[]) {
  const result = await run('pgbackrest', ['--stanza=checkwriter', ...args], {
    env: nodeEnv,
    logFile: join(cluster.root, 'logs', 'pgbackrest.log'),
    runAs: cluster.runAs,
    cwd: cluster.root,
    timeoutMs: 300_000,
  });
  if (result.code !== 0) throw new Error(`pgbackrest ${args.join(' ')} failed:\n${result.output.slice(-2000)}`);
  return result.output;
}

function asPostgres(cluster: Cluster, command: string, args: string[], logName: string, dataDir: string) {
  return run(command, args, {
    // restore_command runs pgBackRest's archive-get, which needs the restored folder as pg1-path.
    env: { ...cluster.baseEnv, PGBACKREST_PG1_PATH: dataDir },
    logFile: join(cluster.root, 'logs', `${logName}.log`),
    runAs: cluster.runAs,
    cwd: cluster.root,
    timeoutMs: 180_000,
  });
}

/** A check printed before the backup, so that a positive pay file lists it with the full account number. */
async function printedCheck(base: string, fixture: Fixture): Promise<void> {
  const headers = { authorization: `Bearer ${fixture.apiKey}`, 'content-type': 'application/json' };
  const created = await fetch(`${base}/api/v3/checks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      checks: [
        {
          bankAccountId: fixture.bankAccountId,
          payeeId: fixture.payeeId,
          amount: '12.34',
          referenceId: 'drill-printed',
        },
      ],
    }),
  });
  const json = (await created.json()) as { data: { checks: { checkId: string }[] } };
  const checkId = json.data.checks[0]?.checkId;
  const printed = await fetch(`${base}/api/v3/checks/print`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ checkIds: [checkId] }),
  });
  await printed.arrayBuffer();
  if (created.status !== 201 || printed.status !== 200)
    throw new Error(`drill set-up: creating and printing a check answered ${created.status}, ${printed.status}`);
}

async function accountNumberReadable(api: string, fixture: Fixture & { accountNumber: string }): Promise<string> {
  const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const response = await fetch(`${api}/api/v3/positive-pay-exports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fixture.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ bankAccountId: fixture.bankAccountId, from: day(-1), to: day(1), format: 'csv' }),
  });
  const json = (await response.json()) as { data?: { file?: { content?: string } } };
  const row = json.data?.file?.content?.split('\r\n')[1] ?? '';
  return `${response.status} ${row}`;
}

export async function restoreDrill(input: DrillInput): Promise<DrillResult> {
  const { cluster, load, fixture } = input;
  const lines: string[] = [];
  process.stdout.write('\n— pgBackRest restore drill\n');
  const primary = await leader(cluster);
  if (primary === null) throw new Error('no primary for the backup');
  const base = `http://127.0.0.1:${cluster.httpFrontendPort}`;
  await printedCheck(base, fixture);

  await pgbackrest(cluster, primary.env, ['stanza-create']);
  await pgbackrest(cluster, primary.env, ['check']);
  const running = load.begin('drill');
  await sleep(3_000);
  const backupBegan = Date.now();
  await pgbackrest(cluster, primary.env, ['--type=full', 'backup']);
  const backupEnded = Date.now();
  lines.push(`full backup under load: ${((backupEnded - backupBegan) / 1000).toFixed(1)} s`);
  await sleep(2_000);
  const restorePoint = Date.now();
  await sleep(2_000);
  // `check` switches to a new WAL segment and waits for it to be archived: the archive now reaches
  // past the restore point (and commits after it, where recovery stops).
  await pgbackrest(cluster, primary.env, ['check']);
  await load.end(20_000);
  const before = running.batches.filter((b) => b.acknowledged !== null && (b.ackAt ?? 0) <= restorePoint);
  const after = running.batches.filter((b) => b.firstSentAt > restorePoint);
  lines.push(
    `restore point ${new Date(restorePoint).toISOString()}: ${before.length} batches acknowledged before it, ${after.length} first sent after it`,
  );

  const [pgPort, appPort] = await freePorts(2);
  const dataDir = join(input.root, 'restored', 'data');
  mkdirSync(join(input.root, 'restored'), { recursive: true });
  if (cluster.runAs !== null) {
    const { chownSync } = await import('node:fs');
    chownSync(join(input.root, 'restored'), cluster.runAs.uid, cluster.runAs.gid);
  }
  const restoreBegan = Date.now();
  await pgbackrest(cluster, { ...primary.env, PGBACKREST_PG1_PATH: dataDir }, [
    '--type=time',
    `--target=${new Date(restorePoint).toISOString().replace('T', ' ').replace('Z', '+00')}`,
    '--target-action=promote',
    'restore',
  ]);
  // The files are the primary's: Patroni's postgresql.conf names that node's port, hba file and
  // synchronous standby. The restored server gets its own, and archives nothing.
  const options = [
    `-p ${pgPort}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${join(cluster.root, 'run')}`,
    `-c hba_file=${join(dataDir, 'pg_hba.conf')}`,
    `-c ident_file=${join(dataDir, 'pg_ident.conf')}`,
    "-c synchronous_standby_names=''",
    '-c archive_mode=off',
    "-c cluster_name='restored'",
  ].join(' ');
  const pgLog = join(cluster.root, 'logs', 'restored-postgres.log');
  const started = await asPostgres(
    cluster,
    `${PG_BIN}/pg_ctl`,
    ['-D', dataDir, '-l', pgLog, '-o', options, '-w', '-t', '120', 'start'],
    'restored-pg_ctl',
    dataDir,
  );
  let server: AppServer | null = null;
  try {
    if (started.code !== 0) throw new Error(`the restored PostgreSQL did not start:\n${tail(pgLog, 20)}`);
    const promoted = await waitFor(
      async () => {
        const { default: pg } = await import('pg');
        const client = new pg.Client({ connectionString: appDatabaseUrl(cluster, pgPort) });
        await client.connect();
        const row = await client.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r');
        await client.end();
        return row.rows[0]?.r === false;
      },
      120_000,
      500,
    );
    if (!promoted) throw new Error(`the restored PostgreSQL did not finish recovery:\n${tail(pgLog, 20)}`);
    lines.push(`point-in-time restore and recovery: ${((Date.now() - restoreBegan) / 1000).toFixed(1)} s`);

    server = new AppServer(
      'restored',
      appPort ?? 0,
      { ...input.env, DATABASE_URL: appDatabaseUrl(cluster, pgPort) },
      join(cluster.root, 'logs', 'app-restored.log'),
    );
    server.start();
    if (!(await server.waitReady(60_000)))
      throw new Error(
        `checkwriter on the restored database did not start:\n${tail(join(cluster.root, 'logs', 'app-restored.log'), 20)}`,
      );
    const stored = await readBack(server.url, fixture.apiKey);
    let missing = 0;
    for (const batch of before)
      batch.referenceIds.forEach((referenceId, i) => {
        if (!(stored.byReference.get(referenceId) ?? []).includes(batch.acknowledged?.[i] ?? '')) missing += 1;
      });
    const leaked = after.filter((b) => b.referenceIds.some((r) => stored.byReference.has(r))).length;
    const account = await accountNumberReadable(server.url, fixture);
    const numberOk = account.startsWith('201 ') && account.includes(fixture.accountNumber);
    lines.push(
      `restored server, same API key: ${before.length * 50 - missing} of ${before.length * 50} checks acknowledged before the point present (missing ${missing}); ` +
        `${leaked} batches sent after the point present (PITR stops there); ` +
        `positive pay file ${numberOk ? 'carries the full bank account number' : `WRONG: ${account}`}`,
    );
    return { pass: missing === 0 && leaked === 0 && numberOk && before.length > 0, lines, load: running };
  } finally {
    await server?.shutDown();
    await asPostgres(
      cluster,
      `${PG_BIN}/pg_ctl`,
      ['-D', dataDir, '-m', 'fast', '-w', 'stop'],
      'restored-pg_ctl',
      dataDir,
    );
  }
}
