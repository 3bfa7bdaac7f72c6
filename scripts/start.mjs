// `npm start`: install what is missing, build the console if needed, then run API + console on one port.
// `npm run dev:api` (`start.mjs --watch`): the same server, configuration and data directory (DATA_DIR, default
// ./data at the repository root), restarted on source changes; the console comes from `npm run dev:web` instead.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const watch = process.argv.includes('--watch');
await import('./ensure-install.mjs');
if (!watch) await import('./ensure-build.mjs');

// Both modes run from the repository root, so a relative DATA_DIR names the same directory in each.
const args = watch
  ? [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'watch', '--clear-screen=false', 'apps/api/src/server.ts']
  : ['--import', 'tsx', 'apps/api/src/server.ts'];
const child = spawn(process.execPath, args, {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
