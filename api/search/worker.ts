/**
 * A search thread (api/search/threads.ts): answers course searches on a SQLite file of its own connections, so
 * the statements run beside the server's event loop rather than on it. The answer is searchCoursesJson's, the
 * same function the server would call: cards computed here are stored from here too (its writer never waits for
 * the lock, db/queries/search/cards.ts), so nothing of a search's behaviour depends on the thread it ran on.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDb } from '../../db/client.ts';
import { searchCoursesJson } from '../../db/queries/search.ts';
import type { SearchRequest, SearchReply, SearchThreadData } from './threads.ts';

const port = parentPort;
if (!port) throw new Error('api/search/worker.ts runs as a worker thread (api/search/threads.ts)');
const { url, busyWaitMs } = workerData as SearchThreadData;
const db = openDb({ url, busyWaitMs });

port.on('message', (request: SearchRequest) => {
  searchCoursesJson(db, request.params, { now: request.now, storeCards: true }).then(
    (body): SearchReply => ({ id: request.id, body }),
    (error: unknown): SearchReply => ({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  ).then((reply) => port.postMessage(reply));
});
port.postMessage({ ready: true });
