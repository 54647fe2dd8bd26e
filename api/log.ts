/**
 * Structured logs: one JSON object per line on stdout (info, debug) or stderr (error), so a log shipper can
 * parse them without guessing. LOG_LEVEL decides what is written: silent < error < info < debug.
 *
 * Every part of the server logs through a Logger instead of console.*, so the level is honoured everywhere
 * and each line carries the same fields (time, level, msg, plus whatever the caller adds, e.g. requestId).
 */
export type LogLevel = 'silent' | 'error' | 'info' | 'debug';

const RANK: Record<LogLevel, number> = { silent: 0, error: 1, info: 2, debug: 3 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  readonly level: LogLevel;
  error(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  /** A logger that adds these fields to every line (e.g. { worker: 'mail' }). */
  child(fields: LogFields): Logger;
  enabled(level: Exclude<LogLevel, 'silent'>): boolean;
}

/** Errors do not serialise with JSON.stringify; keep their name, message, code and stack. */
function plain(value: unknown): unknown {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return { name: value.name, message: value.message, ...(code !== undefined ? { code } : {}), stack: value.stack };
  }
  return value;
}

export interface LoggerOptions {
  /** Where lines go; defaults to process.stdout / process.stderr. Tests pass an array collector. */
  write?: (line: string, level: Exclude<LogLevel, 'silent'>) => void;
  clock?: () => Date;
}

export function createLogger(level: LogLevel, base: LogFields = {}, options: LoggerOptions = {}): Logger {
  const write = options.write ?? ((line, lvl) => (lvl === 'error' ? process.stderr : process.stdout).write(`${line}\n`));
  const clock = options.clock ?? (() => new Date());
  const emit = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields) => {
    if (RANK[lvl] > RANK[level]) return;
    const record: LogFields = { time: clock().toISOString(), level: lvl, msg, ...base };
    if (fields) for (const [k, v] of Object.entries(fields)) record[k] = plain(v);
    let line: string;
    try {
      line = JSON.stringify(record);
    } catch {
      // A circular or BigInt field must not take the process down with it.
      line = JSON.stringify({ time: record.time, level: lvl, msg, unserialisable: true });
    }
    write(line, lvl);
  };
  return {
    level,
    error: (msg, fields) => emit('error', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    debug: (msg, fields) => emit('debug', msg, fields),
    child: (fields) => createLogger(level, { ...base, ...fields }, options),
    enabled: (lvl) => RANK[lvl] <= RANK[level],
  };
}

/** Loggers per level, so modules that only have the config can log without threading a logger through. */
const shared = new Map<LogLevel, Logger>();
export function loggerFor(config: { LOG_LEVEL: LogLevel }): Logger {
  let logger = shared.get(config.LOG_LEVEL);
  if (!logger) shared.set(config.LOG_LEVEL, (logger = createLogger(config.LOG_LEVEL)));
  return logger;
}
