// The failure scenarios (a planned switchover, the primary killed, an app server killed, a rolling
// restart, the primary's machine lost), each run under the keyed load: what it does, and what it
// measured. The verdicts (lost, duplicate) need the read-back at the end (report.ts).
import type { AppServer, Exit } from './app-servers.ts';
import { leader, patronictl, postmasterPid, startPatroni, waitHealthy, type Cluster } from './cluster.ts';
import type { HaproxyWatch, Routing } from './haproxy-watch.ts';
import { type Load, longestGap, type ScenarioLoad } from './load.ts';
import { sleep, waitFor } from './processes.ts';

/** Load before the event, so the servers are busy when it happens. */
const WARM_MS = 4_000;
/** Load after writes came back, so a second dip would show. */
const HOLD_MS = 6_000;
/** No scenario waits longer than this for writes to come back. */
const RECOVERY_LIMIT_MS = 75_000;
const DRAIN_MS = 20_000;
/** systemd's TimeoutStopSec in deploy/systemd/checkwriter@.service. */
export const STOP_TIMEOUT_MS = 40_000;

export interface ScenarioResult {
  name: string;
  title: string;
  load: ScenarioLoad;
  eventAt: number;
  /** When HAProxy began routing PostgreSQL to the new primary (database scenarios). */
  routedAt: number | null;
  /** First 201 after routedAt, minus routedAt. */
  writesBackAfterRoutingMs: number | null;
  gap: { ms: number; at: number };
  /** Exits of servers the scenario did not cause. */
  unexpectedExits: Exit[];
  pgRouting: Routing[];
  notes: string[];
}

export interface World {
  cluster: Cluster;
  servers: AppServer[];
  load: Load;
  watch: HaproxyWatch;
}

interface Action {
  /** Does the scenario's thing; answers notes for the report (and what to undo once the load ended). */
  act(world: World): Promise<{ notes: string[]; newPrimary?: string; afterwards?: () => void }>;
}

async function runScenario(world: World, name: string, title: string, action: Action): Promise<ScenarioResult> {
  process.stdout.write(`\n— ${title}\n`);
  const exitsBefore = world.servers.map((s) => s.exits.length);
  const load = world.load.begin(name);
  await sleep(WARM_MS);
  const eventAt = Date.now();
  const { notes, newPrimary, afterwards } = await action.act(world);
  // Writes must come back — after HAProxy routes to the new primary, for the database scenarios;
  // after the action, for the others — then the load runs a while longer.
  const actedAt = Date.now();
  let since = actedAt;
  if (newPrimary !== undefined) {
    const routed = await waitFor(
      async () => world.watch.routedTo('postgres', newPrimary, eventAt) !== null,
      RECOVERY_LIMIT_MS,
      100,
    );
    if (!routed) notes.push(`HAProxy did not route to ${newPrimary} within ${RECOVERY_LIMIT_MS / 1000} s`);
    since = world.watch.routedTo('postgres', newPrimary, eventAt) ?? actedAt;
  }
  const recovered = await waitFor(async () => load.successes.some((t) => t > since), RECOVERY_LIMIT_MS, 100);
  if (!recovered) notes.push(`no write succeeded within ${RECOVERY_LIMIT_MS / 1000} s of the event`);
  await sleep(HOLD_MS);
  await world.load.end(DRAIN_MS);
  afterwards?.();
  const routedAt = newPrimary === undefined ? null : world.watch.routedTo('postgres', newPrimary, eventAt);
  const firstAfter =
    routedAt === null ? undefined : load.successes.filter((t) => t >= routedAt).sort((a, b) => a - b)[0];
  const unexpectedExits = world.servers.flatMap((s, i) =>
    s.exits.slice(exitsBefore[i] ?? 0).filter((e) => e.cause === 'own'),
  );
  const result: ScenarioResult = {
    name,
    title,
    load,
    eventAt,
    routedAt,
    writesBackAfterRoutingMs: routedAt === null || firstAfter === undefined ? null : firstAfter - routedAt,
    // From the first write of the load (the first batch's own latency is no gap) to its end.
    gap: longestGap(load.successes, Math.min(...load.successes, eventAt), load.endedAt),
    unexpectedExits,
    pgRouting: world.watch.changes('postgres', eventAt - 1_000, load.endedAt),
    notes,
  };
  process.stdout.write(
    `  ${load.successes.length} batches acknowledged, longest gap ${(result.gap.ms / 1000).toFixed(2)} s, ` +
      `${unexpectedExits.length} server exits${routedAt === null ? '' : `, HAProxy routed to ${newPrimary} ${((routedAt - eventAt) / 1000).toFixed(1)} s after the event`}\n`,
  );
  return result;
}

async function currentLeader(world: World): Promise<string> {
  const node = await leader(world.cluster);
  if (node === null) throw new Error('no primary before the scenario');
  return node.name;
}

const switchover: Action = {
  async act(world) {
    const from = await currentLeader(world);
    const to = world.cluster.nodes.find((n) => n.name !== from)?.name ?? '';
    const began = Date.now();
    const result = await patronictl(world.cluster, [
      'switchover',
      '--leader',
      from,
      '--candidate',
      to,
      '--force',
      'checkwriter',
    ]);
    if (result.code !== 0) throw new Error(`patronictl switchover failed:\n${result.output}`);
    return {
      notes: [`patronictl switchover ${from} → ${to} returned after ${((Date.now() - began) / 1000).toFixed(1)} s`],
      newPrimary: to,
    };
  },
};

const killPrimary: Action = {
  async act(world) {
    const from = await currentLeader(world);
    const node = world.cluster.nodes.find((n) => n.name === from);
    const pid = node === undefined ? null : postmasterPid(node);
    if (node === undefined || pid === null) throw new Error('no postmaster pid for the primary');
    process.kill(pid, 'SIGKILL');
    const to = world.cluster.nodes.find((n) => n.name !== from)?.name ?? '';
    return { notes: [`kill -9 ${pid} (postmaster of ${from}, the primary)`], newPrimary: to };
  },
};

/**
 * The primary's machine lost: Patroni and PostgreSQL killed together, so nothing releases the
 * leader key and the standby must wait for it to expire (ttl, 30 s by default). Not in the default
 * run (`--only lose-primary-node`): it shows what `ttl` costs; no target of the issue is about it.
 * Patroni is started again on that node afterwards, and rejoins as the standby.
 */
const losePrimaryNode: Action = {
  async act(world) {
    const from = await currentLeader(world);
    const node = world.cluster.nodes.find((n) => n.name === from);
    const pid = node === undefined ? null : postmasterPid(node);
    if (node === undefined || pid === null || node.patroni === null) throw new Error('no primary to lose');
    node.patroni.child.kill('SIGKILL');
    process.kill(pid, 'SIGKILL');
    const to = world.cluster.nodes.find((n) => n.name !== from)?.name ?? '';
    return {
      notes: [`kill -9 of Patroni and of the postmaster (${pid}) on ${from}, the primary`],
      newPrimary: to,
      afterwards: () => startPatroni(world.cluster, node),
    };
  },
};

const killAppServer: Action = {
  async act(world) {
    const [victim] = world.servers;
    if (victim === undefined) throw new Error('no server');
    const pid = victim.pid;
    victim.kill9();
    const back = await victim.waitReady(30_000);
    return {
      notes: [
        `kill -9 ${pid} (${victim.name}); restarted by the supervisor (RestartSec=1): ${back ? 'ready again' : 'NOT ready within 30 s'}`,
      ],
    };
  },
};

const rollingRestart: Action = {
  async act(world) {
    const notes: string[] = [];
    for (const server of world.servers) {
      const stopped = await server.stopGracefully(STOP_TIMEOUT_MS);
      notes.push(
        `${server.name}: SIGTERM → exited ${stopped.signal ?? `code ${stopped.code}`} after ${(stopped.ms / 1000).toFixed(2)} s`,
      );
      const began = Date.now();
      server.start();
      const ready = await server.waitReady(60_000);
      notes.push(
        `${server.name}: started, ${ready ? `ready after ${((Date.now() - began) / 1000).toFixed(1)} s` : 'NOT ready within 60 s'}`,
      );
      // HAProxy must see it up again (rise 1, inter 1 s) before the next one goes.
      await waitFor(async () => world.watch.current('checkwriter').includes(server.name), 10_000, 100);
    }
    return { notes };
  },
};

export async function runAll(world: World, only: readonly string[] | null): Promise<ScenarioResult[]> {
  const plan: [string, string, Action, boolean][] = [
    ['switchover', 'planned switchover (patronictl switchover)', switchover, true],
    ['kill-primary', 'kill -9 of the primary’s postmaster (unplanned failover)', killPrimary, true],
    ['kill-app', 'kill -9 of one app server', killAppServer, false],
    ['rolling-restart', 'rolling restart of the app servers (SIGTERM, wait, start)', rollingRestart, false],
    ['lose-primary-node', 'the primary’s machine lost (kill -9 of Patroni and PostgreSQL)', losePrimaryNode, true],
  ];
  const results: ScenarioResult[] = [];
  for (const [name, title, action, touchesDatabase] of plan) {
    if (only === null ? name === 'lose-primary-node' : !only.includes(name)) continue;
    results.push(await runScenario(world, name, title, action));
    if (touchesDatabase) {
      // The old primary rejoins as the synchronous standby (pg_rewind) before the next scenario.
      const began = Date.now();
      const healthy = await waitHealthy(world.cluster, 180_000);
      const last = results.at(-1);
      last?.notes.push(
        healthy
          ? `cluster whole again (old primary back as synchronous standby) ${((Date.now() - began) / 1000).toFixed(0)} s after the load ended`
          : 'the old primary did NOT rejoin within 180 s',
      );
      if (!healthy) break;
    }
    // Every server back before the next scenario (a supervisor may still be restarting one).
    await Promise.all(world.servers.map((s) => s.waitReady(60_000)));
  }
  return results;
}
