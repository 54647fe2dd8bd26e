/**
 * npm run bench:cold-start — how long `npm run serve` (the compiled server, dist-server/server.mjs) takes from
 * its start to its ready log line ("Marketplace ready"), on the database and site that `npm start` made (run
 * `npm start` or `npm run db:prepare && npm run build` first). Started BENCH_RUNS times one after another on a free
 * port; prints each time and the median. Figures only, no assertions.
 *
 * Env: BENCH_RUNS=7
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { freePort } from '../helpers/ports.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);

async function once(): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['dist-server/server.mjs'], {
    env: { ...process.env, PORT: String(port), BIND_HOST: '127.0.0.1', LOG_LEVEL: 'info', PUBLISH_ENABLED: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = await new Promise<number>((ok, fail) => {
    const look = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Marketplace ready')) ok(performance.now() - started);
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.once('exit', (code) => fail(new Error(`server exited (${code}) before it was ready: ${output.slice(-2000)}`)));
  });
  child.removeAllListeners('exit');
  const exited = new Promise((ok) => child.once('exit', ok));
  child.kill('SIGTERM');
  await exited;
  return ready;
}

console.log(`cold start of the compiled server · node ${process.version} · load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const times: number[] = [];
for (let i = 0; i < RUNS; i++) times.push(await once());
const sorted = [...times].sort((a, b) => a - b);
console.log(`runs (ms): ${times.map((t) => t.toFixed(0)).join(' ')}`);
console.log(`median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms · min ${sorted[0]!.toFixed(0)} ms · load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
