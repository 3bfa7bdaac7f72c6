// The app's outside-world services, built once per app. Add new ones (storage, queue, geocoder, webhooks)
// as a field of `Services`, built in createServices, and released in `close` (in reverse order of creation).
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { createAuditService, type AuditService } from './audit.service.ts';
import { createConsoleLogger, type ServiceLogger } from './logger.ts';
import { createMailService, type MailService } from './mail.service.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { createOutboxService, type OutboxService } from './outbox.service.ts';
import { registerJobs } from './queue/jobs.ts';
import { createQueue, type Queue } from './queue/queue.ts';
import { createSecretsService, type SecretsService } from './secrets.service.ts';
import { createSmsService, type SmsService } from './sms.service.ts';
import { createStorage, type Storage } from './storage/storage.ts';

export type Services = {
  log: ServiceLogger;
  outbox: OutboxService;
  mail: MailService;
  sms: SmsService;
  audit: AuditService;
  secrets: SecretsService;
  /** The file store (local disk under DATA_DIR, or S3-compatible object storage): uploads, firmware, report logos. */
  storage: Storage;
  /** The durable job queue (pg-boss): webhooks; jobs are queued after their transaction commits. */
  queue: Queue;
  /** The Prometheus registry and counters of this app (services/metrics.ts, served by http/metrics.ts). */
  metrics: Metrics;
  /** Releases what the services hold (SMTP connections, queue workers…). Called on app close. */
  close: () => Promise<void>;
};

export function createServices(
  config: Config,
  database: Database,
  now: () => Date,
  log?: ServiceLogger,
): Services {
  const logger = log ?? createConsoleLogger(config.LOG_LEVEL);
  const closers: Array<() => Promise<void> | void> = [];

  const outbox = createOutboxService(database, now, logger);
  const mail = createMailService(config, outbox);
  closers.push(() => mail.close());
  const sms = createSmsService(config, outbox);
  const audit = createAuditService(database, now);
  const secrets = createSecretsService(config, database);
  const storage = createStorage(config);
  const metrics = createMetrics();
  const queue = createQueue(config, database, logger, { onJobFailure: (job) => metrics.jobFailures.inc({ job }) });
  metrics.observe({
    pools: () => [
      ...(database.pool ? [{ name: 'primary' as const, pool: database.pool }] : []),
      ...(database.replica ? [{ name: 'read' as const, pool: database.replica.pool }] : []),
    ],
    queueDepths: () => queue.depths(),
    replica: () => database.replica?.monitor.state() ?? null,
  });
  closers.push(() => queue.stop());

  const services: Services = {
    log: logger,
    outbox,
    mail,
    sms,
    audit,
    secrets,
    storage,
    queue,
    metrics,
    close: async () => {
      for (const close of closers.reverse()) await close();
    },
  };
  // Job handlers get the same pieces a request has (jobs run in this process, from the queue's workers).
  registerJobs(queue, () => ({ config, database, services, now }));
  return services;
}
