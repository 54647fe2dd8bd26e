/**
 * Loaded into a benchmarked server with `--import` when BENCH_STATEMENT_PROFILE=<file> is set (server-process.ts):
 * per SQL text, the calls and the time spent inside better-sqlite3's run/all/get/iterate (SQLite), or the calls sent
 * through pg's Client#query (PostgreSQL), written to <file> when the server exits. A CPU profile shows that the
 * database's statements are a fifth of the main thread; this shows which ones.
 *
 * PostgreSQL round trips: a statement sent on a connection with nothing in flight starts one; statements sent while
 * it is in flight (pg's pipeline mode: a held BEGIN with its first statement, or several sent together) ride on it.
 * Each round trip is listed by the statements that made it. SIGUSR2 writes the counts so far to <file>.<n> (n from 1)
 * and starts them again from zero, so a bench can count one timed level alone (tests/bench/checkout.ts).
 *
 * It patches the two drivers' prototypes before the server loads, so the product's code carries nothing for it.
 * SQLite's times are wall-clock inside the call: on a loaded two-core machine they include the moments the thread
 * was not running, so read them against each other, not as CPU.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const file = process.env.BENCH_STATEMENT_PROFILE;
// Resolved from the server's folder, as its own imports are, so both patch the one copy of each driver.
const require = createRequire(join(process.cwd(), 'package.json'));
/** @type {Map<string, { calls: number, ns: bigint }>} */
const sqlite = new Map();
/** @type {Map<string, number>} */
let pgCalls = new Map();
/** Round trips by the statements sent in them, joined by ' ⟶ '. @type {Map<string, number>} */
let pgTrips = new Map();
let snapshots = 0;

function patchSqlite() {
  const Database = require('better-sqlite3');
  const probe = new Database(':memory:');
  const Statement = probe.prepare('select 1').constructor;
  probe.close();
  for (const name of ['run', 'all', 'get', 'iterate']) {
    const original = Statement.prototype[name];
    Statement.prototype[name] = function timed(...args) {
      const started = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        const entry = sqlite.get(this.source) ?? { calls: 0, ns: 0n };
        entry.calls++;
        entry.ns += process.hrtime.bigint() - started;
        sqlite.set(this.source, entry);
      }
    };
  }
}

function patchPg() {
  const { Client } = require('pg');
  const original = Client.prototype.query;
  const trips = new WeakMap();
  Client.prototype.query = function counted(config, ...rest) {
    const text = typeof config === 'string' ? config : config?.text;
    if (typeof text !== 'string') return original.call(this, config, ...rest);
    pgCalls.set(text, (pgCalls.get(text) ?? 0) + 1);
    let trip = trips.get(this);
    if (!trip) trips.set(this, (trip = { pending: 0, texts: [] }));
    trip.pending++;
    trip.texts.push(oneLine(text).slice(0, 120));
    const done = () => {
      if (--trip.pending > 0) return;
      const key = trip.texts.join(' ⟶ ');
      trip.texts = [];
      pgTrips.set(key, (pgTrips.get(key) ?? 0) + 1);
    };
    const result = original.call(this, config, ...rest);
    if (result && typeof result.then === 'function') result.then(done, done);
    else done();
    return result;
  };
}

const oneLine = (sql) => sql.replace(/\s+/g, ' ').slice(0, 240);

function report(target = file) {
  const lines = [];
  if (sqlite.size > 0) {
    const rows = [...sqlite].sort((a, b) => Number(b[1].ns - a[1].ns));
    const totalMs = rows.reduce((sum, [, e]) => sum + Number(e.ns), 0) / 1e6;
    lines.push(`SQLite: ${totalMs.toFixed(0)} ms inside statements, ${rows.reduce((s, [, e]) => s + e.calls, 0)} calls`, '      ms    calls    µs/call  statement');
    for (const [sql, e] of rows) {
      const ms = Number(e.ns) / 1e6;
      lines.push(`${ms.toFixed(0).padStart(8)} ${String(e.calls).padStart(8)} ${((ms * 1000) / e.calls).toFixed(1).padStart(10)}  ${oneLine(sql)}`);
    }
  }
  if (pgCalls.size > 0) {
    const rows = [...pgCalls].sort((a, b) => b[1] - a[1]);
    lines.push(`PostgreSQL: ${rows.reduce((s, [, n]) => s + n, 0)} statements sent`, '   calls  statement');
    for (const [sql, n] of rows) lines.push(`${String(n).padStart(8)}  ${oneLine(sql)}`);
    const trips = [...pgTrips].sort((a, b) => b[1] - a[1]);
    lines.push(`PostgreSQL: ${trips.reduce((s, [, n]) => s + n, 0)} round trips`, '   trips  statements sent together');
    for (const [texts, n] of trips) lines.push(`${String(n).padStart(8)}  ${texts}`);
  }
  writeFileSync(target, `${lines.join('\n')}\n`);
}

if (file) {
  patchSqlite();
  patchPg();
  process.on('exit', () => report());
  process.on('SIGUSR2', () => {
    report(`${file}.${++snapshots}`);
    sqlite.clear();
    pgCalls = new Map();
    pgTrips = new Map();
  });
}
