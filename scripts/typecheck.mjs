// Type checks each workspace with its own tsconfig.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
let ok = true;
for (const project of ['packages/shared', 'apps/api', 'apps/web', 'e2e']) {
  const r = spawnSync('npx', ['tsc', '-p', project, '--noEmit'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) ok = false;
}
process.exit(ok ? 0 : 1);
