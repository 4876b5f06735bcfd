/**
 * Metrics of a cluster (PORTAL_WORKERS > 1) in one scrape: the primary hands connections round
 * robin to the workers, so a scraper cannot pick a process. Whichever worker answers GET /metrics
 * asks the primary, which gathers every worker's registry (prom-client's AggregatorRegistry, over
 * the cluster's IPC channel) and answers the sum: request counts and histograms add up; figures
 * read from the shared database (outbox, mail queue) take the maximum, as every worker reads the
 * same (metrics.ts sets each metric's aggregator).
 */
import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const REQUEST = 'portal:metrics-request';
const ANSWER = 'portal:metrics-answer';

interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/** In the primary: answer the workers' scrape requests with every worker's figures. */
export function answerClusterScrapes(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, msg: { type?: string; id?: number } | undefined) => {
    if (msg?.type !== REQUEST || typeof msg.id !== 'number') return;
    const id = msg.id;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id, text } satisfies Answer),
      (err: Error) => worker.send({ type: ANSWER, id, error: err.message } satisfies Answer),
    );
  });
}

/** In a worker: offer `registry` to the primary's aggregation, and a scrape that returns the whole cluster's text. */
export function clusterScrape(registry: Registry, timeoutMs = 5000): () => Promise<string> {
  // the constructor installs the worker's answer to the primary's "send your metrics"
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  let next = 0;
  const waiting = new Map<number, (a: Answer) => void>();
  process.on('message', (msg: Answer | undefined) => {
    if (msg?.type === ANSWER) waiting.get(msg.id)?.(msg);
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the primary did not answer the metrics request'));
      }, timeoutMs);
      waiting.set(id, (a) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (a.text !== undefined) resolve(a.text);
        else reject(new Error(a.error ?? 'no metrics'));
      });
      process.send!({ type: REQUEST, id });
    });
}
