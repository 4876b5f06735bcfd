/**
 * A real HTTP receiver (node:http on 127.0.0.1, a port the kernel picks) standing for the external
 * systems of the outbox: it records every batch it is sent (headers and JSON body) and answers as
 * the test says: accept, an HTTP error, a 2xx refusing some messages, or hang (never answer, until
 * the receiver is closed). Like a real idempotent receiver it takes a message once: `taken` counts,
 * per idempotency key, the batches it accepted that message in; a second delivery of a taken key
 * is recorded in `duplicates`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface ReceivedMessage {
  idempotencyKey: string;
  type: string;
  reference: string;
  occurredAt: string;
  actor: string | null;
  attempt: number;
  payload: Record<string, unknown>;
}
export interface ReceivedBatch {
  /** the path the batch was POSTed to (one receiver can stand for several interfaces) */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: { interface: string; batchKey: string; sentAt: string; messages: ReceivedMessage[] };
  /** what the receiver answered (null: it hung) */
  answered: number | null;
}

export type Answer = { status: number; body?: unknown } | 'hang';
/** decides the answer to the n-th batch (0-based) */
export type Behaviour = (batch: ReceivedBatch, n: number) => Answer | Promise<Answer>;

export interface Receiver {
  /** http://127.0.0.1:<port> */
  base: string;
  batches: ReceivedBatch[];
  /** idempotency key -> batches that took it */
  taken: Map<string, number>;
  /** keys that arrived again after they were taken */
  duplicates: string[];
  behave(b: Behaviour): void;
  close(): Promise<void>;
}

export const accept: Behaviour = () => ({ status: 200, body: { ok: true } });

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((res, rej) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res(Buffer.concat(chunks).toString('utf8')));
    req.on('error', rej);
  });
}

export async function startReceiver(initial: Behaviour = accept): Promise<Receiver> {
  let behaviour = initial;
  const batches: ReceivedBatch[] = [];
  const taken = new Map<string, number>();
  const duplicates: string[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const batch: ReceivedBatch = { path: req.url ?? '/', headers: req.headers, body: JSON.parse(text) as ReceivedBatch['body'], answered: null };
      const n = batches.length;
      batches.push(batch);
      const answer = await behaviour(batch, n);
      if (answer === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      batch.answered = answer.status;
      if (answer.status >= 200 && answer.status < 300) {
        const refused = new Set(
          ((answer.body as { results?: { idempotencyKey: string; ok: boolean }[] } | undefined)?.results ?? [])
            .filter((r) => r.ok === false)
            .map((r) => r.idempotencyKey),
        );
        for (const m of batch.body.messages) {
          if (refused.has(m.idempotencyKey)) continue;
          if (taken.has(m.idempotencyKey)) duplicates.push(m.idempotencyKey);
          taken.set(m.idempotencyKey, (taken.get(m.idempotencyKey) ?? 0) + 1);
        }
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    })().catch((err: Error) => {
      res.writeHead(599);
      res.end(String(err.message));
    });
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    base: `http://127.0.0.1:${port}`,
    batches,
    taken,
    duplicates,
    behave: (b) => {
      behaviour = b;
    },
    close: async () => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((res) => server.close(() => res()));
    },
  };
}
