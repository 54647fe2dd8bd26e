/**
 * npm run bench:sqlite-drivers — better-sqlite3 against Node's built-in `node:sqlite` on the statements the product
 * runs most (a session lookup by primary key, a page of 24 rows by an index, a small insert in a transaction),
 * each on a fresh WAL file of 50,000 rows, in one process, alternating the two drivers over the rounds.
 * Prints operations per second (median over the rounds) for each. Figures only, no assertions.
 *
 * Env: BENCH_ROWS=50000  BENCH_ROUNDS=5  BENCH_OPS=50000 (per statement and round)
 */
import Database from 'better-sqlite3';
import { DatabaseSync } from 'node:sqlite';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const OPS = Number(process.env.BENCH_OPS ?? 50_000);

/** The part of a driver the benchmark uses: both drivers' prepared statements have run / get / all. */
interface Stmt {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
interface Driver {
  name: string;
  exec(sql: string): void;
  prepare(sql: string): Stmt;
  close(): void;
}

const drivers: Array<(file: string) => Driver> = [
  (file) => {
    const db = new Database(file);
    return { name: 'better-sqlite3', exec: (s) => void db.exec(s), prepare: (s) => db.prepare(s) as unknown as Stmt, close: () => db.close() };
  },
  (file) => {
    const db = new DatabaseSync(file);
    return { name: 'node:sqlite', exec: (s) => db.exec(s), prepare: (s) => db.prepare(s) as unknown as Stmt, close: () => db.close() };
  },
];

function setUp(d: Driver): void {
  d.exec('pragma journal_mode = wal; pragma synchronous = normal;');
  d.exec('create table sessions (id text primary key, user_id text not null, expires_at integer not null, data text)');
  d.exec('create table courses (id text primary key, educator_id text not null, title text not null, price integer, created_at integer)');
  d.exec('create index courses_educator on courses (educator_id, created_at)');
  const s = d.prepare('insert into sessions values (?, ?, ?, ?)');
  const c = d.prepare('insert into courses values (?, ?, ?, ?, ?)');
  d.exec('begin');
  for (let i = 0; i < ROWS; i++) {
    s.run(`s${i}`, `u${i % 997}`, 1_900_000_000 + i, '{"role":"learner"}');
    c.run(`c${i}`, `e${i % 500}`, `Course number ${i}`, 1000 + (i % 300), 1_700_000_000 + i);
  }
  d.exec('commit');
}

function opsPerSecond(work: () => void): number {
  const start = process.hrtime.bigint();
  work();
  return OPS / (Number(process.hrtime.bigint() - start) / 1e9);
}

function round(make: (file: string) => Driver, dir: string): Record<string, number> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.sqlite`);
  const d = make(file);
  setUp(d);
  const lookup = d.prepare('select user_id, expires_at, data from sessions where id = ?');
  const page = d.prepare('select id, title, price from courses where educator_id = ? order by created_at desc limit 24');
  const insert = d.prepare('insert into sessions values (?, ?, ?, ?)');
  const figures = {
    'session lookup': opsPerSecond(() => { for (let i = 0; i < OPS; i++) lookup.get(`s${(i * 7919) % ROWS}`); }),
    'page of 24 rows': opsPerSecond(() => { for (let i = 0; i < OPS / 10; i++) page.all(`e${i % 500}`); }) / 10,
    'insert, one transaction each': opsPerSecond(() => {
      for (let i = 0; i < OPS; i++) {
        d.exec('begin immediate');
        insert.run(`n${i}`, 'u1', 1, null);
        d.exec('commit');
      }
    }),
  };
  d.close();
  return figures;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

mkdirSync(join(process.cwd(), '.tmp'), { recursive: true });
const dir = mkdtempSync(join(process.cwd(), '.tmp', 'bench-sqlite-'));
try {
  console.log(`node ${process.version} · ${ROWS} rows · ${OPS} operations a statement · ${ROUNDS} rounds · load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const results = new Map<string, Record<string, number[]>>();
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? drivers : [...drivers].reverse();
    for (const make of order) {
      const name = make(':memory:').name;
      const figures = round(make, dir);
      const kept = results.get(name) ?? {};
      for (const [k, v] of Object.entries(figures)) (kept[k] ??= []).push(v);
      results.set(name, kept);
    }
  }
  for (const [name, figures] of results) {
    console.log(`${name.padEnd(15)} ${Object.entries(figures).map(([k, v]) => `${k}: ${Math.round(median(v)).toLocaleString('en-GB')}/s`).join(' · ')}`);
  }
  console.log(`load after ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
