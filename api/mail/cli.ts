/**
 * The outbox from a shell:
 *   npm run mail -- list-failed     dead messages and those being retried (id, attempts, last error)
 *   npm run mail -- resend <id>     queue a message again, due now (the running server's worker sends it)
 *   npm run mail -- send            send what is due now, once, from this process (no server running)
 */
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../config.ts';
import { openDb, dialectOf } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { drain } from '../background.ts';
import { listFailedMail, mailOutboxJob, resendMail } from './worker.ts';

const USAGE = 'usage: npm run mail -- list-failed | resend <id> | send';

export async function mailCli(args: string[], env: Record<string, string | undefined> = process.env, out: (line: string) => void = console.log): Promise<number> {
  const [command, id] = args;
  if (!command || !['list-failed', 'resend', 'send'].includes(command) || (command === 'resend' && !id)) {
    out(USAGE);
    return 2;
  }
  const config = loadConfig({ LOG_LEVEL: 'error', ...env });
  const db = openDb({ url: config.DATABASE_URL });
  try {
    await migrateToLatest(db);
    const deps = { db, dialect: dialectOf(config.DATABASE_URL), config, now: () => Math.floor(Date.now() / 1000) };
    if (command === 'list-failed') {
      const rows = await listFailedMail(deps);
      if (!rows.length) out('No failed messages.');
      for (const r of rows) {
        out([r.id, r.status, `attempts=${r.attempts}`, r.to_address, r.tag ?? '-', JSON.stringify(r.subject), r.last_error ?? ''].join('\t'));
      }
      return 0;
    }
    if (command === 'resend') {
      if (!(await resendMail(deps, id!, deps.now()))) {
        out(`No message ${id} to resend (unknown, or waiting for its first attempt).`);
        return 1;
      }
      out(`Queued ${id} again.`);
      return 0;
    }
    const sent = await drain(mailOutboxJob(deps));
    out(`Tried ${sent} message(s).`);
    return 0;
  } finally {
    await db.destroy();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await mailCli(process.argv.slice(2));
}
