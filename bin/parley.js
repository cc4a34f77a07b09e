#!/usr/bin/env node
// The `parley` command. Runs the compiled CLI (built by `npm ci` through the
// package's prepare script); from a source checkout without a build, run
// `npm run build` first or use `npx tsx src/cli/entry.ts`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/entry.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('parley: dist/ is missing; run `npm run build` (npm ci does it for you)\n');
  process.exit(1);
}
await import(entry.href);
