/**
 * Who sent a request: one rule, used by everything that counts or records a client (rate limits,
 * enquiries, analytics).
 *
 * Without TRUST_PROXY the client is the socket's peer, whatever headers say: X-Forwarded-For is written by
 * the client and proves nothing. With TRUST_PROXY=N (true = 1) there are N proxies of ours in front, each
 * appending the address it saw to X-Forwarded-For; the client is then the right-most address that none of
 * our proxies vouches for: in [...X-Forwarded-For, peer], the entry N places left of the peer. Anything
 * further left was sent by the client and is ignored.
 */
import type { Context } from 'hono';
import type { Config } from '../config.ts';

/** The right-most untrusted hop of a forwarded chain (see above); `peer` is the socket's address. */
export function clientIpOf(forwardedFor: string | undefined, peer: string | undefined, trustedHops: number): string {
  const socket = peer || 'unknown';
  if (trustedHops <= 0 || !forwardedFor) return socket;
  const chain = [...forwardedFor.split(',').map((s) => s.trim()).filter(Boolean), socket];
  return chain[Math.max(0, chain.length - 1 - trustedHops)]!;
}

/** The host a request was sent to: the Host header, or with TRUST_PROXY the one our outermost proxy saw. */
export function forwardedValue(header: string | undefined, trustedHops: number): string | undefined {
  if (trustedHops <= 0 || !header) return undefined;
  const chain = header.split(',').map((s) => s.trim()).filter(Boolean);
  // Each proxy of ours appends (or one sets) the value it received; the left-most of ours is the client's view.
  return chain[Math.max(0, chain.length - trustedHops)];
}

export function clientIp(c: Context): string {
  const config = (c.var as { deps: { config: Pick<Config, 'TRUST_PROXY'> } }).deps.config;
  const peer = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
  return clientIpOf(c.req.header('x-forwarded-for'), peer, config.TRUST_PROXY);
}
