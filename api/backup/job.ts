/**
 * Scheduled backups inside the server (BACKUP_DIR, BACKUP_EVERY, BACKUP_KEEP): a backup once the newest one in
 * BACKUP_DIR is BACKUP_EVERY old, then the oldest beyond BACKUP_KEEP removed. The copy and its checks run in a
 * worker thread (SQLite) or in pg_dump (PostgreSQL), never on the thread that answers requests (db/backup.ts).
 *
 * When the last backup was taken is read from the manifests in the folder, so a restart neither skips a backup
 * nor takes one it does not need.
 */
import type { Deps } from '../deps.ts';
import type { BackgroundJob } from '../background.ts';
import { loggerFor } from '../log.ts';
import { listBackups, pruneBackups, takeBackup, type BackupOptions } from '../../db/backup.ts';

/** The longest the job sleeps between looks at the folder. */
const CHECK_EVERY_MS = 60_000;

export function backupJob(deps: Deps, options: { pace?: BackupOptions['pace'] } = {}): BackgroundJob {
  const { BACKUP_DIR: dir, BACKUP_EVERY: every, BACKUP_KEEP: keep, DATABASE_URL: url } = deps.config;
  const log = loggerFor(deps.config).child({ worker: 'backup' });
  return {
    name: 'backup',
    idleMs: Math.min(every * 1000, CHECK_EVERY_MS),
    // A failed backup is tried again within the interval, not at once: it may be a full disk.
    maxBackoffMs: Math.max(every * 1000, CHECK_EVERY_MS),
    async run(signal) {
      const [newest] = await listBackups(dir);
      const now = deps.now();
      if (newest && now - Date.parse(newest.manifest.created_at) / 1000 < every) return 0;
      const started = performance.now();
      const { path, manifest } = await takeBackup({ url, dir, signal, pace: options.pace });
      const removed = await pruneBackups(dir, keep);
      const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
      log.info('backup taken', {
        path, bytes: manifest.bytes, tables: Object.keys(manifest.tables).length, rows, snapshot: manifest.created_at,
        ms: Math.round(performance.now() - started), removed: removed.length,
      });
      // Counted as no work: the next look is a pause away, not at once.
      return 0;
    },
  };
}
