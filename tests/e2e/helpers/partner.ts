/**
 * An educator's own site on another origin (127.0.0.1 while the product is on localhost, so a frame gets no
 * first-party cookies): its page frames the URL given in ?src as `<iframe id={frameId}>` and records what
 * frames post to it in `window.__messages` ([{origin, data}]).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FramingSite {
  origin: string;
  /** The partner page that frames `src`. */
  framing(src: string): string;
  close(): Promise<void>;
}

export async function startFramingSite(frameId = 'checkout', height = 1600): Promise<FramingSite> {
  const server = createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><title>Partner site</title></head><body>
<h1>Our courses</h1>
<iframe id="${frameId}" title="${frameId === 'checkout' ? 'Checkout' : 'Course'}" src="${src.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" allow="payment" style="width:100%;height:${height}px;border:0"></iframe>
<script>window.__messages = []; addEventListener('message', (e) => window.__messages.push({ origin: e.origin, data: e.data }));</script>
</body></html>`);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    framing: (src) => `${origin}/?src=${encodeURIComponent(src)}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
