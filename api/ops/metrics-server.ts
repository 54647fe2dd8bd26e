/**
 * METRICS_PORT: the metrics on a port of their own (GET /metrics, no token), for a Prometheus that reaches the
 * machine's private address (METRICS_BIND_HOST; loopback by default). One process serves its own registry; with
 * SERVER_PROCESSES the primary serves every process's together (prom-client's cluster aggregation: latency
 * histograms and counters summed, the database's figures, which every process reads alike, taken once by max).
 */
import { createServer, type Server } from 'node:http';
import { AggregatorRegistry, type Registry } from 'prom-client';

export async function serveMetrics(port: number, host: string, read: () => Promise<{ body: string; contentType: string }>): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the metrics are at /metrics\n');
      return;
    }
    read().then(
      ({ body, contentType }) => res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body),
      (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`metrics failed: ${(error as Error).message}\n`),
    );
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok());
  });
  return server;
}

/** One process's own registry. */
export function registryReader(registry: Registry): () => Promise<{ body: string; contentType: string }> {
  return async () => ({ body: await registry.metrics(), contentType: registry.contentType });
}

/** The primary of SERVER_PROCESSES: every serving process's metrics, asked over the cluster's channel. */
export function clusterReader(): () => Promise<{ body: string; contentType: string }> {
  const aggregator = new AggregatorRegistry();
  return async () => ({ body: await aggregator.clusterMetrics(), contentType: aggregator.contentType });
}

/** A serving process of SERVER_PROCESSES answers the primary's requests with this registry. */
export function offerToCluster(registry: Registry): void {
  AggregatorRegistry.setRegistries([registry]);
  // prom-client starts answering the primary's requests when the first aggregator of the process is made.
  void new AggregatorRegistry();
}
