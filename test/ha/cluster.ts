// The reference deployment (deploy/) brought up on loopback ports under a temporary folder: one
// etcd member, two Patroni nodes (PostgreSQL 15, synchronous replication) and HAProxy. The files
// are used as they are; only what the environment cannot say is substituted (the socket folder
// in patroni.yml, the paths in pgbackrest.conf). Patroni refuses to run as root, so when this runs
// as root the database side runs as the `postgres` OS user.
import { execFileSync } from 'node:child_process';
import { chownSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePorts, type Launched, launch, type RunAs, run, stop, tail, waitFor } from './processes.ts';

export const PG_BIN = '/usr/lib/postgresql/15/bin';

export interface Node {
  name: string;
  pgPort: number;
  apiPort: number;
  dataDir: string;
  env: Record<string, string>;
  patroni: Launched | null;
}

export interface Cluster {
  root: string;
  deployDir: string;
  runAs: RunAs | null;
  etcdPort: number;
  etcdPeerPort: number;
  nodes: Node[];
  haproxySocket: string;
  pgFrontendPort: number;
  httpFrontendPort: number;
  appPorts: number[];
  superPassword: string;
  appPassword: string;
  patroniConfig: string;
  pgbackrestConfig: string;
  baseEnv: Record<string, string>;
  etcd: Launched | null;
  haproxy: Launched | null;
}

function databaseUser(): RunAs | null {
  if (userInfo().uid !== 0) return null;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined)
    throw new Error('running as root: needs a `postgres` OS user to run Patroni as');
  return { uid: Number(uid), gid: Number(gid) };
}

function own(path: string, runAs: RunAs | null): void {
  if (runAs !== null) chownSync(path, runAs.uid, runAs.gid);
}

function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match?.[1] !== undefined && match[2] !== undefined) env[match[1]] = match[2];
  }
  return env;
}

export async function prepareCluster(root: string, deployDir: string): Promise<Cluster> {
  const runAs = databaseUser();
  own(root, runAs);
  const [etcdPort, etcdPeer, pg1, api1, pg2, api2, pgFront, httpFront, app1, app2] = await freePorts(10);
  if (app2 === undefined || etcdPort === undefined || etcdPeer === undefined) throw new Error('no ports');
  for (const dir of ['run', 'logs', 'pgbackrest', 'pgbackrest/log', 'pgbackrest/lock']) {
    mkdirSync(join(root, dir), { recursive: true });
    own(join(root, dir), runAs);
  }
  const patroniConfig = join(root, 'patroni.yml');
  writeFileSync(
    patroniConfig,
    readFileSync(join(deployDir, 'patroni', 'patroni.yml'), 'utf8').replaceAll(
      '/var/run/postgresql',
      join(root, 'run'),
    ),
  );
  const pgbackrestConfig = join(root, 'pgbackrest.conf');
  writeFileSync(
    pgbackrestConfig,
    readFileSync(join(deployDir, 'pgbackrest', 'pgbackrest.conf'), 'utf8')
      .replace('repo1-path=/var/lib/pgbackrest', `repo1-path=${join(root, 'pgbackrest', 'repo')}`)
      .replace('log-path=/var/log/pgbackrest', `log-path=${join(root, 'pgbackrest', 'log')}`)
      .replace('lock-path=/tmp/pgbackrest', `lock-path=${join(root, 'pgbackrest', 'lock')}`)
      .replace('pg1-socket-path=/var/run/postgresql', `pg1-socket-path=${join(root, 'run')}`),
  );
  own(patroniConfig, runAs);
  own(pgbackrestConfig, runAs);
  const superPassword = `super-${Math.random().toString(36).slice(2)}`;
  const baseEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: root,
    PGBACKREST_CONFIG: pgbackrestConfig,
  };
  const nodes: Node[] = [
    { name: 'node1', pgPort: pg1 ?? 0, apiPort: api1 ?? 0 },
    { name: 'node2', pgPort: pg2 ?? 0, apiPort: api2 ?? 0 },
  ].map((n) => {
    const dataDir = join(root, n.name, 'data');
    mkdirSync(join(root, n.name), { recursive: true });
    own(join(root, n.name), runAs);
    return {
      ...n,
      dataDir,
      patroni: null,
      env: {
        ...baseEnv,
        PATRONI_NAME: n.name,
        PATRONI_RESTAPI_LISTEN: `127.0.0.1:${n.apiPort}`,
        PATRONI_RESTAPI_CONNECT_ADDRESS: `127.0.0.1:${n.apiPort}`,
        PATRONI_POSTGRESQL_LISTEN: `127.0.0.1:${n.pgPort}`,
        PATRONI_POSTGRESQL_CONNECT_ADDRESS: `127.0.0.1:${n.pgPort}`,
        PATRONI_POSTGRESQL_DATA_DIR: dataDir,
        PATRONI_POSTGRESQL_PGPASS: join(root, n.name, 'pgpass'),
        PATRONI_ETCD3_HOSTS: `127.0.0.1:${etcdPort}`,
        PATRONI_SUPERUSER_PASSWORD: superPassword,
        PATRONI_REPLICATION_PASSWORD: `repl-${Math.random().toString(36).slice(2)}`,
        PATRONI_REWIND_PASSWORD: `rewind-${Math.random().toString(36).slice(2)}`,
        PGBACKREST_PG1_PATH: dataDir,
        PGBACKREST_PG1_PORT: String(n.pgPort),
      },
    };
  });
  // Both nodes need the same replication and rewind passwords.
  const [first, second] = nodes;
  if (first === undefined || second === undefined) throw new Error('two nodes');
  for (const k of ['PATRONI_REPLICATION_PASSWORD', 'PATRONI_REWIND_PASSWORD']) second.env[k] = first.env[k] ?? '';
  return {
    root,
    deployDir,
    runAs,
    etcdPort,
    etcdPeerPort: etcdPeer,
    nodes,
    haproxySocket: join(root, 'run', 'haproxy.sock'),
    pgFrontendPort: pgFront ?? 0,
    httpFrontendPort: httpFront ?? 0,
    appPorts: [app1 ?? 0, app2],
    superPassword,
    appPassword: `app-${Math.random().toString(36).slice(2)}`,
    patroniConfig,
    pgbackrestConfig,
    baseEnv,
    etcd: null,
    haproxy: null,
  };
}

function logFile(cluster: Cluster, name: string): string {
  return join(cluster.root, 'logs', `${name}.log`);
}

export async function startEtcd(cluster: Cluster): Promise<void> {
  const file = readEnvFile(join(cluster.deployDir, 'etcd', 'etcd.env'));
  const client = `http://127.0.0.1:${cluster.etcdPort}`;
  const peer = `http://127.0.0.1:${cluster.etcdPeerPort}`;
  const env = {
    ...cluster.baseEnv,
    ...file,
    ETCD_DATA_DIR: join(cluster.root, 'etcd'),
    ETCD_LISTEN_CLIENT_URLS: client,
    ETCD_ADVERTISE_CLIENT_URLS: client,
    ETCD_LISTEN_PEER_URLS: peer,
    ETCD_INITIAL_ADVERTISE_PEER_URLS: peer,
    ETCD_INITIAL_CLUSTER: `${file.ETCD_NAME ?? 'etcd1'}=${peer}`,
  };
  cluster.etcd = launch('etcd', 'etcd', [], { env, logFile: logFile(cluster, 'etcd') });
  const up = await waitFor(async () => (await fetch(`${client}/health`)).ok, 20_000);
  if (!up) throw new Error(`etcd did not start:\n${tail(logFile(cluster, 'etcd'), 20)}`);
}

export function startPatroni(cluster: Cluster, node: Node): void {
  node.patroni = launch(`patroni ${node.name}`, 'patroni', [cluster.patroniConfig], {
    env: node.env,
    logFile: logFile(cluster, `patroni-${node.name}`),
    runAs: cluster.runAs,
    cwd: cluster.root,
  });
}

/** Patroni's REST API: the node's role as Patroni sees it (null: not answering). */
export async function patroniStatus(
  node: Node,
): Promise<{ role: string; state: string; timeline?: number; replication?: unknown[] } | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${node.apiPort}/patroni`, { signal: AbortSignal.timeout(2_000) });
    return (await response.json()) as { role: string; state: string };
  } catch {
    return null;
  }
}

async function answers(node: Node, path: string): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${node.apiPort}${path}`, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

export async function leader(cluster: Cluster): Promise<Node | null> {
  for (const node of cluster.nodes) if (await answers(node, '/primary')) return node;
  return null;
}

/** One primary, and a synchronous standby streaming from it: the state every scenario starts from. */
export async function waitHealthy(cluster: Cluster, timeoutMs: number): Promise<boolean> {
  return waitFor(
    async () => {
      const primary = await leader(cluster);
      if (primary === null) return false;
      for (const node of cluster.nodes) if (node !== primary && !(await answers(node, '/sync'))) return false;
      return true;
    },
    timeoutMs,
    500,
  );
}

export async function startHaproxy(cluster: Cluster): Promise<void> {
  const [n1, n2] = cluster.nodes;
  const [a1, a2] = cluster.appPorts;
  if (n1 === undefined || n2 === undefined) throw new Error('two nodes');
  const env = {
    ...cluster.baseEnv,
    CW_HAPROXY_SOCKET: cluster.haproxySocket,
    CW_PG_BIND: `127.0.0.1:${cluster.pgFrontendPort}`,
    CW_PG_NODE1: `127.0.0.1:${n1.pgPort}`,
    CW_PG_NODE1_API_PORT: String(n1.apiPort),
    CW_PG_NODE2: `127.0.0.1:${n2.pgPort}`,
    CW_PG_NODE2_API_PORT: String(n2.apiPort),
    CW_HTTP_BIND: `127.0.0.1:${cluster.httpFrontendPort}`,
    CW_APP1: `127.0.0.1:${a1}`,
    CW_APP2: `127.0.0.1:${a2}`,
  };
  cluster.haproxy = launch('haproxy', 'haproxy', ['-db', '-f', join(cluster.deployDir, 'haproxy', 'haproxy.cfg')], {
    env,
    logFile: logFile(cluster, 'haproxy'),
  });
  const up = await waitFor(async () => {
    const { existsSync } = await import('node:fs');
    return existsSync(cluster.haproxySocket);
  }, 10_000);
  if (!up) throw new Error(`haproxy did not start:\n${tail(logFile(cluster, 'haproxy'), 20)}`);
}

export function superuserUrl(cluster: Cluster): string {
  return `postgres://postgres:${encodeURIComponent(cluster.superPassword)}@127.0.0.1:${cluster.pgFrontendPort}/postgres`;
}

export function appDatabaseUrl(cluster: Cluster, port = cluster.pgFrontendPort): string {
  return `postgres://checkwriter:${encodeURIComponent(cluster.appPassword)}@127.0.0.1:${port}/checkwriter`;
}

/** The role and database checkwriter uses, made through HAProxy as an operator would with psql. */
export async function createAppDatabase(cluster: Cluster): Promise<void> {
  const client = new pg.Client({ connectionString: superuserUrl(cluster) });
  await client.connect();
  try {
    await client.query(`CREATE ROLE checkwriter LOGIN PASSWORD '${cluster.appPassword.replaceAll("'", "''")}'`);
    await client.query('CREATE DATABASE checkwriter OWNER checkwriter');
  } finally {
    await client.end();
  }
}

export async function bringUp(cluster: Cluster): Promise<void> {
  await startEtcd(cluster);
  const [first, second] = cluster.nodes;
  if (first === undefined || second === undefined) throw new Error('two nodes');
  startPatroni(cluster, first);
  const led = await waitFor(async () => (await leader(cluster)) !== null, 90_000, 500);
  if (!led) throw new Error(`no Patroni leader:\n${tail(logFile(cluster, 'patroni-node1'), 30)}`);
  startPatroni(cluster, second);
  await startHaproxy(cluster);
  if (!(await waitHealthy(cluster, 120_000)))
    throw new Error(`the standby did not become synchronous:\n${tail(logFile(cluster, 'patroni-node2'), 30)}`);
  const routed = await waitFor(async () => {
    const client = new pg.Client({ connectionString: superuserUrl(cluster), connectionTimeoutMillis: 2_000 });
    await client.connect();
    await client.end();
    return true;
  }, 20_000);
  if (!routed) throw new Error('HAProxy does not route to the primary');
  await createAppDatabase(cluster);
}

export function patronictl(cluster: Cluster, args: string[]): Promise<{ code: number | null; output: string }> {
  const node = cluster.nodes[0];
  return run('patronictl', ['-c', cluster.patroniConfig, ...args], {
    env: node?.env ?? cluster.baseEnv,
    logFile: logFile(cluster, 'patronictl'),
    runAs: cluster.runAs,
    cwd: cluster.root,
    timeoutMs: 90_000,
  });
}

/** The postmaster's process id, from its postmaster.pid (first line). */
export function postmasterPid(node: Node): number | null {
  try {
    const pid = Number(readFileSync(join(node.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Stops everything of the cluster: Patroni stops its PostgreSQL; what outlives it is killed. */
export async function tearDown(cluster: Cluster): Promise<void> {
  if (cluster.haproxy !== null) await stop(cluster.haproxy, 5_000);
  await Promise.all(cluster.nodes.map((n) => (n.patroni === null ? undefined : stop(n.patroni, 30_000))));
  for (const node of cluster.nodes) {
    const pid = postmasterPid(node);
    if (pid === null) continue;
    try {
      process.kill(pid, 0);
      execFileSync(`${PG_BIN}/pg_ctl`, ['-D', node.dataDir, '-m', 'immediate', 'stop'], {
        stdio: 'ignore',
        ...(cluster.runAs ?? {}),
      });
    } catch {
      // not running
    }
  }
  if (cluster.etcd !== null) await stop(cluster.etcd, 5_000);
}
