/**
 * The e-mail outbox in tests. Requests only queue messages (outbox_messages, status 'pending'); the test server
 * runs no background workers, so a test that needs them sent (the .eml file, the status) runs the outbox worker's
 * passes itself, deterministically, until nothing is due.
 */
import { drain } from '../../api/background.ts';
import { sendDueMail, type OutboxWorkerOptions } from '../../api/mail/worker.ts';
import type { TestServer } from './server.ts';

/** Sends every message due now (at the server's clock); returns how many were tried. */
export function deliverMail(server: Pick<TestServer, 'deps'>, options: OutboxWorkerOptions = {}): Promise<number> {
  return drain({ run: () => sendDueMail(server.deps, options) });
}
