// Installs dependencies when they are missing or older than the lockfile. Plain Node: runs before anything is installed.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const marker = path.join(root, 'node_modules', '.package-lock.json');
const lock = path.join(root, 'package-lock.json');

const needsInstall =
  !fs.existsSync(marker) || (fs.existsSync(lock) && fs.statSync(lock).mtimeMs > fs.statSync(marker).mtimeMs + 1000);

if (needsInstall) {
  console.log('Installing dependencies (first run)…');
  execSync('npm install --no-audit --no-fund --loglevel=error', { cwd: root, stdio: 'inherit' });
}
