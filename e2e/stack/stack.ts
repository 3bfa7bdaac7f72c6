// `npm run test:stack` (issue 25): the reference topology of deploy/ started on loopback ports and broken on purpose.
// PostgreSQL primary + streaming replica, a real S3 server (s3rver) and SMTP server (smtp-server), an SMS gateway
// stand-in, two API instances started together on an empty database, and Debian's nginx with deploy/nginx's proxy
// snippet in front. Then, for 60 s, devices upload scans (each with an Idempotency-Key, sent again unchanged on
// 502/503/no answer) while console users read lists and CSV through nginx and check their own writes on the replica;
// at 15 s one instance is SIGKILLed and restarted, at 30 s the other is restarted with SIGTERM, at 40 s the replica
// stops for 10 s. Afterwards: the sign-in limit across both instances, an e-mail through SMTP, /readyz while the
// primary is down and after. It prints the figures and exits non-zero when any assertion fails.
// Ports 56080–56082 and 56432–56433 (loopback); files under a temp directory, kept when the run fails.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  startPrimary,
  startReplica,
  type PgCluster,
  type ReplicaCluster,
} from '../../apps/api/src/test/pg-cluster.ts';
import { startS3Server, type TestS3Server } from '../../apps/api/src/test/s3-server.ts';
import { startSmtpServer, type TestSmtpServer } from '../../apps/api/src/test/smtp-server.ts';
import { SIGN_IN_PER_IP_PER_MINUTE } from '../../packages/shared/src/auth.ts';
import { Client, Recorder, multipartForm, percentile, type Answer } from './client.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PORTS = { nginx: 56080, a: 56081, b: 56082, primary: 56432, replica: 56433 };
/** Length of the load phase; STACK_LOAD_SECONDS shortens it while working on this file (the events scale with it). */
const LOAD_SECONDS = Number(process.env.STACK_LOAD_SECONDS ?? 60);
const at = (seconds: number) => (seconds / 60) * LOAD_SECONDS;
/** Sign-in calls per IP per minute and route. */
const SIGN_IN_LIMIT = SIGN_IN_PER_IP_PER_MINUTE;
/** /readyz must answer 200 this soon after the database accepts connections again (issue 25). */
const READY_AFTER_DB_MS = 2000;
const DEVICE_WORKERS = 3;
const DATABASE = 'screening';
const DEMO_PASSWORD = `Stack-${randomBytes(6).toString('hex')}@26`;
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hF-stack-'));
fs.chmodSync(work, 0o755); // nginx's workers (nobody) read and write their temp files under it
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => console.log(`[stack ${new Date().toISOString().slice(11, 19)}] ${line}`);

// ---- the API instances ----------------------------------------------------------------------------------------

class Instance {
  child: ChildProcess | null = null;
  private exited: Promise<number | null> = Promise.resolve(null);
  readonly url: string;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  start(): void {
    const out = fs.openSync(path.join(work, `instance-${this.name}.log`), 'a');
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...this.env, PORT: String(this.port) },
      stdio: ['ignore', out, out],
    });
    fs.closeSync(out);
    this.child = child;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))),
    );
  }

  /** Signals the process and waits for it to end; the exit code (-1: ended by the signal) and how long it took. */
  async stop(
    signal: 'SIGKILL' | 'SIGTERM',
    timeoutMs = 60_000,
  ): Promise<{ code: number | null; ms: number }> {
    const t0 = Date.now();
    this.child?.kill(signal);
    const code = await Promise.race([this.exited, sleep(timeoutMs).then(() => 'timeout' as const)]);
    if (code === 'timeout') {
      this.child?.kill('SIGKILL');
      await this.exited;
      return { code: null, ms: Date.now() - t0 };
    }
    this.child = null;
    return { code, ms: Date.now() - t0 };
  }

  /** /readyz status (0: no answer). */
  async readyz(): Promise<number> {
    return new Promise((resolve) => {
      const req = http.get(`${this.url}/readyz`, { timeout: 2000 }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(0));
    });
  }

  async waitReady(timeoutMs = 90_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => (exited = true));
    while (Date.now() < deadline) {
      if (exited) {
        const tail = fs.readFileSync(path.join(work, `instance-${this.name}.log`), 'utf8').slice(-1500);
        throw new Error(`instance ${this.name} exited while starting:\n${tail}`);
      }
      if ((await this.readyz()) === 200) return;
      await sleep(100);
    }
    throw new Error(
      `instance ${this.name} not ready within ${timeoutMs / 1000} s; see ${work}/instance-${this.name}.log`,
    );
  }
}

// ---- nginx with deploy/nginx's rules --------------------------------------------------------------------------

/**
 * The production site's upstream block with the test's ports, and a plain-HTTP server on the test's port that
 * includes the production proxy snippet unchanged. The main file mirrors Debian's nginx.conf where it matters
 * (gzip on for the http block, mime types) and logs which instance answered each request.
 */
function renderNginx(): { conf: string; accessLog: string } {
  const site = fs.readFileSync(path.join(ROOT, 'deploy/nginx/screening-console.conf'), 'utf8');
  const upstream = /^upstream screening_console \{[\s\S]*?^\}/m.exec(site)?.[0];
  if (!upstream)
    throw new Error('deploy/nginx/screening-console.conf has no `upstream screening_console` block');
  const servers = [...upstream.matchAll(/^\s*server\s+\S+/gm)];
  if (servers.length < 2) throw new Error('the upstream block should list at least two instances');
  let index = 0;
  const ours = upstream.replace(/^(\s*server\s+)\S+?(?=[\s;])/gm, (_m, lead: string) => {
    const port = [PORTS.a, PORTS.b][index++];
    return port ? `${lead}127.0.0.1:${port}` : `${lead}127.0.0.1:9`;
  });
  const prefix = path.join(work, 'nginx');
  for (const dir of ['snippets', 'logs', 'temp']) fs.mkdirSync(path.join(prefix, dir), { recursive: true });
  fs.copyFileSync(
    path.join(ROOT, 'deploy/nginx/screening-console-proxy.conf'),
    path.join(prefix, 'snippets/screening-console-proxy.conf'),
  );
  const accessLog = path.join(prefix, 'logs/access.log');
  const temp = (name: string) => `${name}_temp_path ${path.join(prefix, 'temp', name)};`;
  const conf = `# Rendered by e2e/stack/stack.ts from deploy/nginx (upstream ports changed, TLS left out).
worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  sendfile on;
  keepalive_timeout 65;
  gzip on;
  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}
  log_format stack '$remote_addr "$request" $status upstream=$upstream_addr $upstream_status';
  access_log ${accessLog} stack;
${ours}
  server {
    listen 127.0.0.1:${PORTS.nginx};
    server_name localhost;
    include snippets/screening-console-proxy.conf;
  }
}
`;
  fs.writeFileSync(path.join(prefix, 'nginx.conf'), conf);
  return { conf: path.join(prefix, 'nginx.conf'), accessLog };
}

function ensureNginx(): string {
  const found = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
  if (found) return found;
  log('nginx is missing: apt-get install -y nginx');
  spawnSync(
    'sh',
    ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null'],
    {
      stdio: 'inherit',
    },
  );
  const installed = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
  if (!installed) throw new Error('nginx could not be installed');
  return installed;
}

// ---- an SMS gateway stand-in: sign-in codes arrive here as they would at the provider --------------------------

type SmsGateway = {
  url: string;
  /** How many messages have arrived so far. */
  count: () => number;
  codeFor: (to: string, after: number) => Promise<string>;
  close: () => Promise<void>;
};

async function startSmsGateway(): Promise<SmsGateway> {
  const received: Array<{ to: string; body: string; index: number }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const { to, body } = JSON.parse(Buffer.concat(chunks).toString()) as { to: string; body: string };
        received.push({ to, body, index: received.length });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/sms`,
    count: () => received.length,
    /** The 6-digit code of the first SMS to `to` (E.164) after message number `after`. */
    codeFor: async (to, after) => {
      for (let i = 0; i < 100; i++) {
        const sms = received.find((m) => m.index >= after && m.to === to);
        const code = sms && /\b(\d{6})\b/.exec(sms.body)?.[1];
        if (code) return code;
        await sleep(100);
      }
      throw new Error(`no SMS with a code reached ${to}`);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// ---- signing in through nginx -----------------------------------------------------------------------------------

const api = (route: string) => `/api/v1/${route}`;
const E164 = (mobile: string) => `+91${mobile}`;

function must(answer: Answer, ok: number[], step: string): Record<string, unknown> {
  if (!ok.includes(answer.status)) throw new Error(`${step}: ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer.json as Record<string, unknown>;
}

/** E-mail + password, then the second factor (production: a code by SMS), then user/login/ → the session token. */
async function signInWithPassword(client: Client, sms: SmsGateway, email: string, mobile: string) {
  const before = sms.count();
  const first = must(
    await client.request(api('auth/password/'), { method: 'POST', json: { email, password: DEMO_PASSWORD } }),
    [200],
    `password sign-in of ${email}`,
  );
  let idToken = first.id_token as string | undefined;
  if (!idToken) {
    const code = await sms.codeFor(E164(mobile), before);
    const verified = must(
      await client.request(api('auth/otp/verify/'), {
        method: 'POST',
        json: { mobile, mobile_country_code: 'IN', code },
      }),
      [200],
      `second factor of ${email}`,
    );
    idToken = verified.id_token as string;
  }
  const login = must(
    await client.request(api('user/login/'), {
      method: 'POST',
      json: { id_token: idToken, source: 'DASHBOARD' },
    }),
    [200],
    `user/login/ of ${email}`,
  );
  return { token: String(login.token), id: Number(login.id) };
}

/** A device's sign-in: the mobile code by SMS, then user/login/ from the device app. */
async function signInWithMobile(client: Client, sms: SmsGateway, mobile: string) {
  const before = sms.count();
  must(
    await client.request(api('auth/otp/'), { method: 'POST', json: { mobile, mobile_country_code: 'IN' } }),
    [200],
    'auth/otp/',
  );
  const code = await sms.codeFor(E164(mobile), before);
  const verified = must(
    await client.request(api('auth/otp/verify/'), {
      method: 'POST',
      json: { mobile, mobile_country_code: 'IN', code },
    }),
    [200],
    'auth/otp/verify/',
  );
  const login = must(
    await client.request(api('user/login/'), {
      method: 'POST',
      json: { id_token: verified.id_token, source: 'IBE_APP', is_login: true },
    }),
    [200],
    'device user/login/',
  );
  return { token: String(login.token), id: Number(login.id) };
}

// ---- the load ---------------------------------------------------------------------------------------------------

type Upload = {
  key: string;
  localId: string;
  /** The stored report's path (file/upload/'s answer), which the scan names. */
  file: string;
  status: number;
  id: number | null;
  attempts: number;
  replayed: boolean;
};

const RETRYABLE = (status: number) => status === 0 || status === 502 || status === 503;

/** Sends one request until it is answered with something other than 502/503/no answer (the same key each time). */
async function withRetries(
  send: () => Promise<Answer>,
  stopAt: number,
): Promise<{ answer: Answer; attempts: number }> {
  let attempts = 0;
  for (;;) {
    attempts++;
    const answer = await send();
    if (!RETRYABLE(answer.status) || Date.now() > stopAt) return { answer, attempts };
    await sleep(Math.min(250 * attempts, 1000));
  }
}

async function deviceWorker(
  n: number,
  client: Client,
  token: string,
  serial: string,
  until: () => boolean,
  uploads: Upload[],
  resent: Array<{ ok: boolean; status: number }>,
): Promise<void> {
  const auth = { authorization: `Token ${token}` };
  const giveUpAt = () => Date.now() + 60_000;
  const patientKey = randomUUID();
  const patient = await withRetries(
    () =>
      client.request(api('patient/'), {
        method: 'POST',
        label: 'POST patient/ (device)',
        headers: { ...auth, 'Idempotency-Key': patientKey },
        json: {
          first_name: 'Stack',
          last_name: `Device${n}`,
          age: 40 + n,
          gender: 'FEMALE',
          device_serial_number: serial,
          local_db_id: `stack-patient-${patientKey}`,
          date_time: new Date().toISOString(),
        },
      }),
    giveUpAt(),
  );
  const patientId = Number(must(patient.answer, [200, 201], 'device patient').id);
  while (!until()) {
    const form = multipartForm(
      { folder: 'reports' },
      { field: 'file', name: 'report.pdf', type: 'application/pdf', data: PDF },
    );
    const file = await withRetries(
      () =>
        client.request(api('file/upload/'), {
          method: 'POST',
          label: 'POST file/upload/',
          headers: { ...auth, 'content-type': form.contentType },
          body: form.body,
        }),
      giveUpAt(),
    );
    if (file.answer.status !== 200) continue;
    const key = randomUUID();
    const localId = `stack-${key}`;
    const filePath = String((file.answer.json as { path: string }).path);
    const body = {
      patient: patientId,
      device_serial_number: serial,
      local_db_id: localId,
      scan_type: 'SCAN',
      date_time: new Date().toISOString(),
      left_breast_finding: [],
      right_breast_finding: [],
      is_replay_available: false,
      scan_files_path: {
        reports: [{ path: filePath }],
        consent_form: [],
        assessment_files: [],
      },
    };
    // The first upload and, for some, the same upload again: same key, same body.
    const sendScan = (label: string) =>
      withRetries(
        () => client.request(api('scan/'), { method: 'POST', label, headers: { ...auth, 'Idempotency-Key': key }, json: body }),
        giveUpAt(),
      );
    const scan = await sendScan('POST scan/');
    const ok = scan.answer.status === 200 || scan.answer.status === 201;
    const id = ok ? Number((scan.answer.json as { id: number }).id) : null;
    uploads.push({
      key,
      localId,
      file: filePath,
      status: scan.answer.status,
      id,
      attempts: scan.attempts,
      replayed: scan.answer.headers['idempotent-replayed'] === 'true',
    });
    // Every fourth acknowledged upload is sent once more, as by a device that lost the answer: it must get the
    // stored scan back (same id, Idempotent-Replayed), whichever instance nginx picks.
    if (id !== null && uploads.length % 4 === 0) {
      const again = await sendScan('POST scan/ (sent again)');
      const sameId = Number((again.answer.json as { id?: number } | null)?.id) === id;
      resent.push({
        ok: sameId && again.answer.headers['idempotent-replayed'] === 'true',
        status: again.answer.status,
      });
    }
  }
}

type ReadStats = { ownWrites: number; missed: string[]; csv: number };

/** Lists and CSV as a console user; `technician` set: also creates patients and reads each back from the replica. */
async function readerWorker(
  client: Client,
  token: string,
  until: () => boolean,
  stats: ReadStats,
  technician: number | null,
): Promise<void> {
  const auth = { authorization: `Token ${token}` };
  // A console page that got 502/503 (or nothing) waits a moment before its next call, as the console's retry does.
  const read = async (route: string, label: string): Promise<Answer> => {
    const answer = await client.request(api(route), { headers: auth, label });
    if (RETRYABLE(answer.status)) await sleep(250);
    return answer;
  };
  for (let round = 0; !until(); round++) {
    await read('scan/?limit=20&using_read_db=true', 'GET scan/ (read db)');
    await read('scan/?limit=20', 'GET scan/');
    await read('patient/?limit=20&using_read_db=true', 'GET patient/ (read db)');
    if (round % 5 === 0 && (await read('scan/?format=csv', 'GET scan/?format=csv')).status === 200)
      stats.csv++;
    if (technician !== null) {
      const name = `Own${randomBytes(4).toString('hex')}`;
      const created = await client.request(api('patient/'), {
        method: 'POST',
        headers: auth,
        label: 'POST patient/ (console)',
        json: { first_name: 'Stack', last_name: name, age: 50, gender: 'FEMALE', technician },
      });
      // No answer (or a 502 from a killed instance): whether it was stored is unknown, so it is not an own write.
      if (created.status !== 201) {
        await sleep(250);
        continue;
      }
      stats.ownWrites++;
      const id = Number((created.json as { id: number }).id);
      const one = await client.request(api(`patient/${id}/?using_read_db=true`), {
        headers: auth,
        label: 'GET patient/:id/ (read db)',
      });
      if (one.status !== 200)
        stats.missed.push(`patient ${id}: GET patient/${id}/?using_read_db=true answered ${one.status}`);
      const list = await client.request(api(`patient/?search=${name}&using_read_db=true`), {
        headers: auth,
        label: 'GET patient/?search (read db)',
      });
      const count = (list.json as { count?: number } | null)?.count;
      if (list.status !== 200 || count !== 1) {
        stats.missed.push(
          `patient ${id}: the list searched for ${name} answered ${list.status} with count ${String(count)}`,
        );
      }
    }
  }
}

// ---- the run ----------------------------------------------------------------------------------------------------

type Check = { name: string; ok: boolean; detail: string };
const checks: Check[] = [];
const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });

let primary: PgCluster | undefined;
let replica: ReplicaCluster | undefined;
let s3: TestS3Server | undefined;
let smtp: TestSmtpServer | undefined;
let sms: SmsGateway | undefined;
let nginx: ChildProcess | undefined;
const instances: Instance[] = [];
const clients: Client[] = [];

async function run(): Promise<void> {
  const started = Date.now();
  const nginxBin = ensureNginx();

  log('PostgreSQL primary and streaming replica…');
  primary = await startPrimary({ port: PORTS.primary });
  await primary.query(`CREATE DATABASE ${DATABASE}`);
  replica = await startReplica(primary, { port: PORTS.replica });
  s3 = await startS3Server();
  smtp = await startSmtpServer();
  sms = await startSmsGateway();

  const env: Record<string, string> = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    TRUST_PROXY: '127.0.0.1',
    DATA_DIR: path.join(work, 'data'),
    DATABASE_URL: primary.urlFor(DATABASE),
    DATABASE_READ_URL: replica.urlFor(DATABASE),
    PUBLIC_URL: `http://127.0.0.1:${PORTS.nginx}`,
    SECRET_KEY: randomBytes(24).toString('base64'),
    LOAD_DEMO: 'never',
    DEMO_PASSWORD,
    SMTP_URL: smtp.url,
    SMS_PROVIDER_URL: sms.url,
    SMS_PROVIDER_TOKEN: 'stack-sms-token',
    LOG_LEVEL: 'warn',
    ...s3.env,
  };
  const a0 = new Instance('a', PORTS.a, env);
  instances.push(a0, new Instance('b', PORTS.b, env));

  log('two API instances started together on the empty database (one migrates, the other waits)…');
  const t0 = Date.now();
  for (const instance of instances) instance.start();
  await Promise.all(instances.map((i) => i.waitReady()));
  // Each migration once: drizzle's table holds one row per migration the journal lists, whoever applied it.
  const journal = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'apps/api/src/db/migrations/meta/_journal.json'), 'utf8'),
  ) as { entries: unknown[] };
  const [applied] = await primary.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations',
    [],
    DATABASE,
  );
  check(
    'two instances start together on an empty database',
    applied?.n === journal.entries.length,
    `both ready in ${((Date.now() - t0) / 1000).toFixed(1)} s; ${applied?.n} migrations recorded, ${journal.entries.length} in the journal`,
  );

  log('demo programme (small) loaded into the primary…');
  const demo = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'apps/api/src/demo/cli.ts', '--scale', '300', '--password', DEMO_PASSWORD],
    { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  if (demo.status !== 0) throw new Error(`demo load failed:\n${demo.stdout}\n${demo.stderr}`);
  await replica.waitForReplay();

  const { conf, accessLog } = renderNginx();
  const test = spawnSync(nginxBin, ['-t', '-p', path.dirname(conf), '-c', conf], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t refused the configuration:\n${test.stderr}`);
  nginx = spawn(nginxBin, ['-p', path.dirname(conf), '-c', conf], { stdio: 'ignore' });
  const base = `http://127.0.0.1:${PORTS.nginx}`;
  for (let i = 0; ; i++) {
    const probe = new Client(base);
    const answer = await probe.request('/healthz');
    probe.close();
    if (answer.status === 200) break;
    if (i > 100) throw new Error(`nginx did not answer /healthz (last: ${answer.status} ${answer.text})`);
    await sleep(100);
  }

  const recorder = new Recorder();
  const newClient = (address = '127.0.0.1', record = true) => {
    const client = new Client(base, address, record ? recorder : undefined);
    clients.push(client);
    return client;
  };

  // /metrics never leaves the private network.
  const outside = newClient('127.0.0.1', false);
  const metrics = await outside.request('/metrics');
  check(
    '/metrics is not served through nginx',
    metrics.status === 404,
    `GET /metrics through nginx: ${metrics.status}`,
  );

  log('signing in (password + second factor by SMS; the technician by mobile code)…');
  const adminClient = newClient();
  const orgClient = newClient();
  const deviceClient = newClient();
  const admin = await signInWithPassword(adminClient, sms, 'admin@demo.test', '9876500001');
  const orgAdmin = await signInWithPassword(orgClient, sms, 'orgadmin@demo.test', '9876500004');
  const technician = await signInWithMobile(deviceClient, sms, '9876500005');
  const devices = must(
    await orgClient.request(api('device/?limit=1&ordering=serial_number'), {
      headers: { authorization: `Token ${orgAdmin.token}` },
    }),
    [200],
    'device list',
  ) as { results: Array<{ serial_number: string }> };
  const serial = devices.results[0]?.serial_number;
  if (!serial) throw new Error('the demo clinic has no device');
  const session = must(
    await deviceClient.request(api(`device/session/?serial_number=${encodeURIComponent(serial)}`), {
      headers: { authorization: `Token ${technician.token}` },
    }),
    [200],
    'device session',
  );
  if (!session.can_upload)
    throw new Error(`the technician may not upload from ${serial}: ${String(session.upload_refusal)}`);

  // Compression and caching are the API's: through nginx an answer keeps the API's encoding (brotli, which Debian's
  // nginx cannot make), Cache-Control and ETag, exactly as the instance sends them.
  const headersOf = async (client: Client, route: string, headers: Record<string, string>) => {
    const answer = await client.request(route, { headers: { 'accept-encoding': 'br, gzip', ...headers } });
    const h = answer.headers;
    return `${answer.status} ${String(h['content-encoding'])} ${String(h['cache-control'])} ${String(h.etag)}`;
  };
  const direct = new Client(a0.url);
  clients.push(direct);
  const adminAuth = { authorization: `Token ${admin.token}` };
  const routes = [api('scan/?limit=50')];
  const assets = path.join(ROOT, 'apps/web/dist/assets');
  const script = fs.existsSync(assets)
    ? fs.readdirSync(assets).find((f) => /^index-.*\.js$/.test(f))
    : undefined;
  if (script) routes.push(`/assets/${script}`);
  const compared: string[] = [];
  let sameHeaders = true;
  for (const route of routes) {
    const [viaNginx, fromInstance] = [
      await headersOf(outside, route, adminAuth),
      await headersOf(direct, route, adminAuth),
    ];
    // The ETag of a list answer may change between the two calls only if the data did: none is written now.
    if (viaNginx !== fromInstance || !viaNginx.startsWith('200 br ')) sameHeaders = false;
    compared.push(
      `${route.split('?')[0]}: ${viaNginx}${viaNginx === fromInstance ? '' : ` (instance: ${fromInstance})`}`,
    );
  }
  check("nginx passes the API's compression and caching through", sameHeaders, compared.join('; '));

  log('an e-mail through SMTP: a password reset link…');
  const mailClient = newClient('127.0.0.3', false);
  const reset = await mailClient.request(api('auth/password-reset/'), {
    method: 'POST',
    json: { email: 'orgadmin@demo.test' },
  });
  const mail = await smtp.waitFor((m) => m.to.includes('orgadmin@demo.test'), 20_000).catch(() => null);
  check(
    'an e-mail sent through SMTP arrives',
    reset.status === 200 && mail !== null && mail.text.includes(env.PUBLIC_URL!),
    mail
      ? `"${mail.subject}" to ${mail.to.join(', ')}, link to ${env.PUBLIC_URL} ${mail.text.includes(env.PUBLIC_URL!) ? 'present' : 'MISSING'}`
      : `reset answered ${reset.status}; no mail arrived`,
  );

  log(
    `load for ${LOAD_SECONDS} s through nginx: ${DEVICE_WORKERS} devices uploading, 2 console users reading…`,
  );
  const uploads: Upload[] = [];
  const resent: Array<{ ok: boolean; status: number }> = [];
  const reads: ReadStats = { ownWrites: 0, missed: [], csv: 0 };
  recorder.started = performance.now();
  const loadEnd = Date.now() + LOAD_SECONDS * 1000;
  const until = () => Date.now() >= loadEnd;
  const events: string[] = [];
  const workers = [
    ...Array.from({ length: DEVICE_WORKERS }, (_, n) =>
      deviceWorker(n, deviceClient, technician.token, serial, until, uploads, resent),
    ),
    readerWorker(adminClient, admin.token, until, reads, null),
    readerWorker(orgClient, orgAdmin.token, until, reads, technician.id),
  ];
  const [a, b] = [a0, instances[1]!];
  const since = () => recorder.elapsed().toFixed(1).padStart(5);
  const untilSecond = (second: number) => sleep(Math.max(0, second * 1000 - recorder.elapsed() * 1000));
  // The instances: a crash, then a rolling restart of the other one. It waits, as the upgrade steps of
  // docs/deploy.md do, until the crashed one is back in nginx's pool (ready, plus nginx's fail_timeout of 2 s), so
  // the two are never out at once.
  const instanceChaos = (async () => {
    await untilSecond(at(15));
    events.push(`${since()} s  instance a: SIGKILL`);
    await a.stop('SIGKILL');
    a.start();
    await a.waitReady();
    events.push(`${since()} s  instance a: restarted and ready`);
    await sleep(3000);
    await untilSecond(at(30));
    events.push(`${since()} s  instance b: SIGTERM`);
    // As long as systemd waits (TimeoutStopSec in deploy/systemd) before it would SIGKILL.
    const stopped = await b.stop('SIGTERM', 45_000);
    events.push(
      `${since()} s  instance b: exited with code ${stopped.code} after ${(stopped.ms / 1000).toFixed(1)} s`,
    );
    check(
      'SIGTERM: the instance drains and exits 0',
      stopped.code === 0,
      `exit code ${stopped.code} after ${(stopped.ms / 1000).toFixed(1)} s`,
    );
    b.start();
    await b.waitReady();
    events.push(`${since()} s  instance b: restarted and ready`);
  })();
  const replicaChaos = (async () => {
    await untilSecond(at(40));
    await replica!.stop();
    events.push(`${since()} s  replica: stopped`);
    await sleep(at(10) * 1000);
    await replica!.start();
    events.push(`${since()} s  replica: started again`);
  })();
  const chaos = Promise.all([instanceChaos, replicaChaos]);
  await Promise.all([...workers, chaos]);
  const loadSeconds = recorder.elapsed();

  // ---- what the load left in the primary ----
  const db = new pg.Client({ connectionString: primary.urlFor(DATABASE) });
  await db.connect();
  try {
    const acknowledged = uploads.filter((u) => u.id !== null);
    const stored = await db.query<{ id: number; local_db_id: string }>(
      "SELECT id, local_db_id FROM scans WHERE device_serial_number = $1 AND local_db_id LIKE 'stack-%'",
      [serial],
    );
    const byLocalId = new Map<string, number[]>();
    for (const row of stored.rows)
      byLocalId.set(row.local_db_id, [...(byLocalId.get(row.local_db_id) ?? []), row.id]);
    const lost = acknowledged.filter((u) => !byLocalId.get(u.localId)?.includes(u.id!));
    const keys = await db.query<{ n: string; scans: string }>(
      `SELECT count(*)::text AS n, count(*) FILTER (WHERE status_code IN (200, 201))::text AS scans
         FROM idempotency_keys WHERE user_id = $1 AND endpoint = 'POST scan/'`,
      [technician.id],
    );
    const perKey = await db.query<{ key: string; n: string }>(
      'SELECT key, count(*)::text AS n FROM idempotency_keys WHERE user_id = $1 GROUP BY key HAVING count(*) > 1',
      [technician.id],
    );
    const storedScans = stored.rows.length;
    const keyedScans = Number(keys.rows[0]?.scans ?? 0);
    const duplicates =
      Math.max(0, storedScans - keyedScans) +
      perKey.rows.length +
      [...byLocalId.values()].filter((ids) => ids.length > 1).length;
    const retried = uploads.filter((u) => u.attempts > 1).length;
    const unanswered = uploads.filter((u) => u.id === null);
    check(
      'acknowledged uploads lost',
      lost.length === 0,
      `${lost.length} of ${acknowledged.length} acknowledged (${retried} needed a retry, ${uploads.filter((u) => u.replayed).length} answered as a replay)`,
    );
    check(
      'duplicates',
      duplicates === 0,
      `${duplicates} (scans stored ${storedScans}, keys with a stored scan ${keyedScans})`,
    );
    const objects = new Set(await s3!.listKeys());
    const missingFiles = acknowledged.filter((u) => !objects.has(u.file));
    check(
      'report files of acknowledged uploads in the S3 store',
      missingFiles.length === 0,
      `${acknowledged.length - missingFiles.length} of ${acknowledged.length} (${objects.size} objects in the bucket)${missingFiles.length ? `; missing e.g. ${missingFiles[0]!.file}` : ''}`,
    );
    const wrongReplays = resent.filter((r) => !r.ok);
    check(
      'uploads sent again after their answer get the stored scan',
      wrongReplays.length === 0 && resent.length > 0,
      `${resent.length - wrongReplays.length} of ${resent.length}${wrongReplays.length ? `; wrong: ${wrongReplays.map((r) => r.status).join(', ')}` : ''}`,
    );
    check(
      'uploads refused or unanswered',
      unanswered.length === 0,
      unanswered.length
        ? unanswered
            .slice(0, 5)
            .map((u) => `${u.status} after ${u.attempts} tries`)
            .join('; ')
        : '0',
    );
  } finally {
    await db.end();
  }
  check(
    '5xx other than 502/503 answered to clients',
    recorder.unexpected.length === 0,
    recorder.unexpected.length ? recorder.unexpected.slice(0, 8).join('; ') : '0',
  );
  check(
    "reads that missed the user's own write",
    reads.missed.length === 0,
    `${reads.missed.length} of ${reads.ownWrites} own writes${reads.missed.length ? `: ${reads.missed.slice(0, 3).join('; ')}` : ''}`,
  );

  // ---- the sign-in limit, across both instances ----
  log('sign-in limit: failed sign-ins from one address, spread over both instances by nginx…');
  const attacker = newClient('127.0.0.2', false);
  const answers: number[] = [];
  for (let i = 0; i < SIGN_IN_LIMIT * 2 + 5; i++) {
    const answer = await attacker.request(api('auth/password/'), {
      method: 'POST',
      json: {
        email: `nobody-${i}-${randomBytes(3).toString('hex')}@stack.test`,
        password: 'not-the-password',
      },
    });
    answers.push(answer.status);
  }
  const firstRefused = answers.indexOf(429);
  const allowed = firstRefused === -1 ? answers.length : firstRefused;
  const afterwards = firstRefused === -1 ? [] : answers.slice(firstRefused);
  const upstreams = new Set(
    fs
      .readFileSync(accessLog, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('127.0.0.2 ') && line.includes('auth/password/'))
      .map((line) => /upstream=(\S+)/.exec(line)?.[1])
      .filter((u): u is string => !!u && u !== '-'),
  );
  check(
    'sign-in limit held across both instances',
    allowed === SIGN_IN_LIMIT && afterwards.every((s) => s === 429) && upstreams.size >= 2,
    `${allowed} answered before the first 429 (limit ${SIGN_IN_LIMIT}; per-process counting would allow ${SIGN_IN_LIMIT * 2}), ` +
      `then ${afterwards.length} × 429; spread over ${upstreams.size} instances (${[...upstreams].join(', ')})`,
  );

  // ---- /readyz while the database is down, and after ----
  log('/readyz while the primary is down and after it is back…');
  const t3 = Date.now();
  await primary.stop();
  let notReadyAfter = -1;
  while (Date.now() - t3 < 10_000) {
    if ((await a.readyz()) === 503) {
      notReadyAfter = Date.now() - t3;
      break;
    }
    await sleep(100);
  }
  await sleep(2000);
  const stillDown = await a.readyz();
  await primary.start();
  const t4 = Date.now();
  let readyAfter = -1;
  while (Date.now() - t4 < 15_000) {
    if ((await a.readyz()) === 200) {
      readyAfter = Date.now() - t4;
      break;
    }
    await sleep(50);
  }
  check(
    '/readyz false while the database is down, true within 2 s after',
    notReadyAfter >= 0 && stillDown === 503 && readyAfter >= 0 && readyAfter <= READY_AFTER_DB_MS,
    `503 ${notReadyAfter >= 0 ? `${notReadyAfter} ms after the stop` : 'never'} (still ${stillDown} 2 s later); ` +
      `200 ${readyAfter >= 0 ? `${readyAfter} ms after PostgreSQL accepted connections again` : 'not within 15 s'}`,
  );

  // ---- the figures ----
  console.log(
    `\n=== Stack test: ${LOAD_SECONDS} s of load (${loadSeconds.toFixed(1)} s measured), total ${((Date.now() - started) / 1000).toFixed(0)} s ===`,
  );
  for (const event of events) console.log(`  ${event}`);
  console.log('\n  endpoint                          requests  p50 ms  p95 ms  statuses');
  for (const [label, byStatus] of [...recorder.statuses.entries()].sort()) {
    const times = recorder.latencies.get(label) ?? [];
    const total = [...byStatus.values()].reduce((s, n) => s + n, 0);
    const statuses = [...byStatus.entries()]
      .sort(([x], [y]) => x - y)
      .map(([s, n]) => `${s === 0 ? 'no answer' : s}×${n}`)
      .join(' ');
    console.log(
      `  ${label.padEnd(33)} ${String(total).padStart(8)} ${percentile(times, 50).toFixed(0).padStart(7)} ${percentile(times, 95).toFixed(0).padStart(7)}  ${statuses}`,
    );
  }
  const bySecond = new Map<number, number>();
  for (const t of recorder.retryable) bySecond.set(Math.floor(t), (bySecond.get(Math.floor(t)) ?? 0) + 1);
  console.log(
    `\n  502/503 or no answer (then sent again by the client), by second of the load: ${[...bySecond].map(([sec, n]) => `${sec} s ×${n}`).join(', ') || 'none'}`,
  );
  console.log(
    `  uploads: ${uploads.length} (acknowledged ${uploads.filter((u) => u.id !== null).length}); own writes checked on the read database: ${reads.ownWrites}; CSV exports: ${reads.csv}`,
  );
}

async function cleanUp(): Promise<void> {
  for (const client of clients) client.close();
  if (nginx && nginx.exitCode === null) {
    const gone = new Promise((resolve) => nginx!.once('exit', resolve));
    nginx.kill('SIGTERM');
    await Promise.race([gone, sleep(5000)]);
  }
  await Promise.all(instances.map((i) => (i.child ? i.stop('SIGTERM', 20_000) : null)));
  await Promise.all([s3?.stop(), smtp?.stop(), sms?.close()].map((p) => p?.catch(() => undefined)));
  await replica?.destroy().catch(() => undefined);
  await primary?.destroy().catch(() => undefined);
}

let failure: unknown = null;
try {
  await run();
} catch (error) {
  failure = error;
}
await cleanUp();
console.log('');
for (const c of checks) console.log(`${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
const failed = checks.filter((c) => !c.ok).length + (failure ? 1 : 0);
if (failure)
  console.log(
    `FAIL  the run stopped: ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}`,
  );
if (failed) {
  console.log(`\nStack test failed (${failed}); logs kept in ${work}`);
  process.exit(1);
}
fs.rmSync(work, { recursive: true, force: true });
console.log(`\nStack test passed (${checks.length} checks).`);
process.exit(0);
