// Every Prometheus metric the API exposes at /metrics (http/metrics.ts), in one registry per app: tests build several
// apps in one process, and prom-client's global registry would mix (and refuse to re-register) their metrics.
// Counters are incremented by tiny hooks where the thing happens (requests, uploads, webhook deliveries, failed
// jobs); gauges of state elsewhere (database pools, queue depth) are read only when scraped.
import client from 'prom-client';
import type pg from 'pg';

/** Label of a request that matched no route (404s of any URL): one label, never the raw URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Request latency buckets (seconds): the API answers most requests in milliseconds, CSV exports in seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export type WebhookOutcomeLabel = 'delivered' | 'retry' | 'failed';
export type UploadOutcomeLabel = 'created' | 'existing' | 'replayed' | 'refused' | 'failed';

/** What the scrape-time gauges read: the pools (PostgreSQL only) and the queue (null while pg-boss is not started). */
export type MetricSources = {
  pools: () => Array<{ name: 'primary' | 'read'; pool: pg.Pool }>;
  queueDepths: () => Promise<Map<string, number> | null>;
  /** The read replica as its monitor last saw it (db/replica.ts); null without DATABASE_READ_URL. */
  replica: () => { lagMs: number; healthy: boolean } | null;
};

export type Metrics = {
  readonly registry: client.Registry;
  readonly httpRequests: client.Counter<'method' | 'route' | 'status_code'>;
  readonly httpDuration: client.Histogram<'method' | 'route' | 'status_code'>;
  readonly jobFailures: client.Counter<'job'>;
  readonly webhookDeliveries: client.Counter<'outcome'>;
  readonly deviceUploads: client.Counter<'route' | 'outcome'>;
  /** Connects the scrape-time gauges to the app's database and queue (called once, when the services exist). */
  observe: (sources: MetricSources) => void;
};

export function createMetrics(): Metrics {
  const registry = new client.Registry();
  const registers = [registry];
  // Node's own: CPU, memory, event loop lag, GC, handles; unprefixed, the names Node.js dashboards expect.
  client.collectDefaultMetrics({ register: registry });

  let sources: MetricSources = { pools: () => [], queueDepths: async () => null, replica: () => null };

  const httpRequests = new client.Counter({
    name: 'sc_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers,
  });
  const httpDuration = new client.Histogram({
    name: 'sc_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });

  const poolGauge = (name: string, help: string, read: (pool: pg.Pool) => number) =>
    new client.Gauge({
      name,
      help,
      labelNames: ['pool'] as const,
      registers,
      collect() {
        this.reset();
        for (const { name: pool, pool: p } of sources.pools()) this.set({ pool }, read(p));
      },
    });
  poolGauge(
    'sc_db_pool_connections',
    'Open connections of a PostgreSQL pool (primary, read).',
    (p) => p.totalCount,
  );
  poolGauge('sc_db_pool_idle_connections', 'Idle connections of a PostgreSQL pool.', (p) => p.idleCount);
  poolGauge(
    'sc_db_pool_waiting_requests',
    'Queries waiting for a connection of a PostgreSQL pool.',
    (p) => p.waitingCount,
  );

  new client.Gauge({
    name: 'sc_db_replica_lag_seconds',
    help: 'How far the read replica is behind the primary, in seconds (+Inf: unreachable or not known); absent without one.',
    registers,
    collect() {
      this.reset();
      const replica = sources.replica();
      if (replica) this.set(replica.lagMs / 1000);
    },
  });
  new client.Gauge({
    name: 'sc_db_replica_in_use',
    help: 'Whether reads with using_read_db go to the read replica (1) or fall back to the primary (0); absent without one.',
    registers,
    collect() {
      this.reset();
      const replica = sources.replica();
      if (replica) this.set(replica.healthy ? 1 : 0);
    },
  });

  new client.Gauge({
    name: 'sc_job_queue_depth',
    help: 'Jobs waiting to run (queued or waiting for a retry), by queue; absent while the job queue is not started.',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      this.reset();
      // A scrape while the database is down still answers, with the other metrics.
      const depths = await sources.queueDepths().catch(() => null);
      for (const [queue, depth] of depths ?? []) this.set({ queue }, depth);
    },
  });
  const jobFailures = new client.Counter({
    name: 'sc_job_failures_total',
    help: 'Job handler runs that failed (pg-boss retries them within their retry limit), by job name.',
    labelNames: ['job'] as const,
    registers,
  });
  const webhookDeliveries = new client.Counter({
    name: 'sc_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, retry (failed, another attempt queued), failed (given up).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const deviceUploads = new client.Counter({
    name: 'sc_device_uploads_total',
    help:
      'Device uploads (patient, scan, cervical, ORCA) by route and outcome: created, existing (identical duplicate), ' +
      'replayed (Idempotency-Key retry), refused (4xx), failed (5xx).',
    labelNames: ['route', 'outcome'] as const,
    registers,
  });

  return {
    registry,
    httpRequests,
    httpDuration,
    jobFailures,
    webhookDeliveries,
    deviceUploads,
    observe: (s) => {
      sources = s;
    },
  };
}
