import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const sourceDir = join(repoRoot, 'dashboard');
const builtIndex = join(repoRoot, 'dist', 'dashboard', 'index.html');
const lockDir = join(repoRoot, 'dist', '.dashboard-build.lock');

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

function isFresh(): boolean {
  return existsSync(builtIndex) && statSync(builtIndex).mtimeMs >= newestMtime(sourceDir);
}

/**
 * Makes sure dist/dashboard holds a build of the current dashboard sources:
 * `npm ci` already built it in a fresh clone; after an edit (or from a bare
 * checkout) it is rebuilt once, under a lock so parallel test files never race.
 */
export async function ensureDashboardBuilt(): Promise<void> {
  if (isFresh()) return;
  mkdirSync(join(repoRoot, 'dist'), { recursive: true });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch {
      // A lock left by a crashed run is older than any real build takes.
      if (existsSync(lockDir) && Date.now() - statSync(lockDir).mtimeMs > 90_000) rmSync(lockDir, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error('timed out waiting for another dashboard build');
      await new Promise((resolve) => setTimeout(resolve, 250));
      if (isFresh()) return;
    }
  }
  try {
    if (!isFresh()) {
      execFileSync(process.execPath, [join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(sourceDir, 'vite.config.ts'), '--logLevel', 'warn'], { cwd: repoRoot, stdio: 'pipe' });
    }
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
