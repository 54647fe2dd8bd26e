/**
 * A search thread (api/search/threads.ts): answers course searches on connections of its own to the SQLite file,
 * so the statements run beside the server's event loop rather than on it. The answer is searchCoursesJson's, the
 * same function the server would call. Cards it had to compute go back with the answer and the server stores them
 * with its own writer: a thread that wrote would take the file's write lock from under the server's checkouts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDb } from '../../db/client.ts';
import { searchCoursesJson, type ComputedCard } from '../../db/queries/search.ts';
import type { SearchRequest, SearchReply, SearchThreadData } from './threads.ts';

const port = parentPort;
if (!port) throw new Error('api/search/worker.ts runs as a worker thread (api/search/threads.ts)');
const { url, busyWaitMs } = workerData as SearchThreadData;
const db = openDb({ url, busyWaitMs });

port.on('message', (request: SearchRequest) => {
  const computed: ComputedCard[] = [];
  searchCoursesJson(db, request.params, { now: request.now, storeCards: (cards) => computed.push(...cards) }).then(
    (body): SearchReply => ({ id: request.id, body, ...(computed.length > 0 ? { computed } : {}) }),
    (error: unknown): SearchReply => ({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  ).then((reply) => port.postMessage(reply));
});
port.postMessage({ ready: true });
