// Prometheus metrics (`/metrics`): request counts and latency per route and status,
// outbox depth and age per channel, delivery outcomes, database pool use, and Node's own figures
// (event-loop lag among them). One registry per process; off unless METRICS_TOKEN or METRICS_PORT
// is set (docs/operations.md). Labels come from fixed sets (route templates, not URLs), so the
// number of series is bounded whatever clients send.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export interface OutboxDepth {
  channel: string;
  waiting: number;
  /** Milliseconds since the oldest waiting row was queued; 0 when none waits. */
  oldestAgeMs: number;
}

export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route' | 'status'>;
  private readonly deliveries: Counter<'channel' | 'outcome'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'checkwriter_' });
    this.requests = new Counter({
      name: 'checkwriter_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status code.',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.durations = new Histogram({
      name: 'checkwriter_http_request_duration_seconds',
      help: 'Time from the request arriving to its answer being sent, by method, route template and status code.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.deliveries = new Counter({
      name: 'checkwriter_deliveries_total',
      help: 'Delivery attempts finished by this process, by channel and outcome (sent, retry, failed).',
      labelNames: ['channel', 'outcome'],
      registers: [this.registry],
    });
  }

  /** `route` is the matched route's template (or "unmatched"), never the raw URL. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.durations.observe(labels, seconds);
  }

  deliveryFinished(channel: string, outcome: 'sent' | 'retry' | 'failed'): void {
    this.deliveries.inc({ channel, outcome });
  }

  /** Outbox figures read at each scrape (one grouped query over the waiting rows only). */
  watchOutbox(read: () => Promise<OutboxDepth[]>): void {
    // The registry collects its metrics concurrently: both gauges share one query per scrape.
    let reading: Promise<OutboxDepth[]> | null = null;
    const once = (): Promise<OutboxDepth[]> => {
      reading ??= read().finally(() => {
        reading = null;
      });
      return reading;
    };
    const depth: Gauge<'channel'> = new Gauge({
      name: 'checkwriter_outbox_waiting',
      help: 'Deliveries queued or being sent, by channel.',
      labelNames: ['channel'],
      registers: [this.registry],
      collect: async () => {
        depth.reset();
        for (const row of await once()) depth.set({ channel: row.channel }, row.waiting);
      },
    });
    const age: Gauge<'channel'> = new Gauge({
      name: 'checkwriter_outbox_oldest_age_seconds',
      help: 'Age of the oldest delivery still waiting, by channel.',
      labelNames: ['channel'],
      registers: [this.registry],
      collect: async () => {
        age.reset();
        for (const row of await once()) age.set({ channel: row.channel }, row.oldestAgeMs / 1000);
      },
    });
  }

  /** PostgreSQL pool use, read at each scrape. */
  watchPool(read: () => PoolUse): void {
    const gauge = new Gauge({
      name: 'checkwriter_db_pool_connections',
      help: 'Database pool connections by state (total, idle) and requests waiting for one.',
      labelNames: ['state'],
      registers: [this.registry],
      collect: () => {
        const use = read();
        gauge.set({ state: 'total' }, use.total);
        gauge.set({ state: 'idle' }, use.idle);
        gauge.set({ state: 'waiting' }, use.waiting);
      },
    });
  }

  /** Writes refused for lack of disk space (store/storage-room.ts), read at each scrape. */
  watchStorage(read: () => { full: boolean; refusals: number }): void {
    new Gauge({
      name: 'checkwriter_db_disk_full',
      help: '1 while the database refuses writes for lack of disk space (cleared by the next write that commits), else 0.',
      registers: [this.registry],
      collect() {
        this.set(read().full ? 1 : 0);
      },
    });
    new Counter({
      name: 'checkwriter_db_disk_full_refusals_total',
      help: 'Database writes refused for lack of disk space since the process started (each answered 503).',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(read().refusals);
      },
    });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
