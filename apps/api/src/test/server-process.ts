// The API server and its commands as real child processes (`node --import tsx apps/api/src/server.ts`, the backup and
// create-admin CLIs), for tests of what only a process shows: signals, exit codes, printed lines, several instances
// starting together.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const SERVER = 'apps/api/src/server.ts';

export type ServerProcess = {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
  exited: Promise<{ code: number | null; at: number }>;
  /** Resolves once it prints its ready banner; rejects if it exits first or takes longer than `ms`. */
  ready: (ms?: number) => Promise<void>;
};

/**
 * Starts the server with a minimal environment (nothing inherited but PATH and HOME): development mode, no demo
 * unless `env` says, loopback, `env.PORT`. Kill it with SIGKILL in the test's `finally`.
 */
export function spawnServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'development',
      LOAD_DEMO: 'never',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('exit', (code) => resolve({ code, at: Date.now() })),
  );
  const ready = async (ms = 50_000) => {
    const deadline = Date.now() + ms;
    while (!output.includes('Screening Console is ready')) {
      if (child.exitCode !== null) throw new Error(`The server exited at start-up:\n${output}`);
      if (Date.now() > deadline) throw new Error(`The server did not start in ${ms} ms:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return { child, output: () => output, exited, ready };
}

const execFileAsync = promisify(execFile);

/**
 * Runs one of the API's commands as an operator does (`node --import tsx <script> ...args` from the repository's
 * root) with nothing inherited but PATH and HOME, plus `env`. Answers its exit code and output; never throws.
 */
export async function runCommand(
  script: string,
  args: string[],
  env: Record<string, string>,
  { timeout }: { timeout?: number } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      timeout,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
