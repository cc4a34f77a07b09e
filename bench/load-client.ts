import { spawn } from 'node:child_process';

/** One autocannon run, as bench/load.ts takes it on its command line. */
export interface LoadJob {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
}

/** What bench/load.ts prints. */
export interface LoadOutcome {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** Runs bench/load.ts (autocannon) in its own process, so it never shares an event loop with a server. */
export function runLoad(job: LoadJob): Promise<LoadOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/load.ts', JSON.stringify(job)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as LoadOutcome) : reject(new Error(`load exited with ${code}`))));
  });
}
