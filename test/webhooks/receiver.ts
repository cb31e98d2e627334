/**
 * A real HTTP receiver on loopback for webhook tests. It checks every signature with an independent
 * implementation (@octokit/webhooks-methods accepts the `sha256=<hex>` format) and records what came.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verify } from '@octokit/webhooks-methods';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  signatureValid: boolean;
  receivedAt: number;
  deliveryId: string;
  event: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Answer only after this long (a receiver that times out). */
  delayMs?: number;
  /** Never answer (the connection stays open until the sender gives up). */
  hang?: boolean;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Requests being handled right now, by delivery id (for the "never twice at once" check). */
  inFlight: Map<string, number>;
  maxConcurrentPerDelivery: number;
  reply: (r: Received, index: number) => Reply;
  /** Resolves when at least n requests have arrived (fails after timeoutMs). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(
  secret: string,
  reply: (r: Received, index: number) => Reply = () => ({ status: 200 }),
): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const state: Receiver = {
    url: '',
    received,
    inFlight: new Map(),
    maxConcurrentPerDelivery: 0,
    reply,
    async waitFor(n, timeoutMs = 10_000) {
      if (received.length >= n) return received;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver: expected ${n} requests, got ${received.length}`)),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
      return received;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = String(req.headers['x-service-signature'] ?? '');
      let json: unknown = undefined;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const entry: Received = {
        headers: req.headers,
        body,
        json,
        signatureValid: signature !== '' && (await verify(secret, body, signature)),
        receivedAt: Date.now(),
        deliveryId: String(req.headers['x-service-delivery'] ?? ''),
        event: String(req.headers['x-service-event'] ?? ''),
      };
      const index = received.length;
      received.push(entry);
      const now = (state.inFlight.get(entry.deliveryId) ?? 0) + 1;
      state.inFlight.set(entry.deliveryId, now);
      state.maxConcurrentPerDelivery = Math.max(state.maxConcurrentPerDelivery, now);
      // Copy: resolved waiters are taken out of the list while it is walked.
      for (const w of waiters.slice()) {
        if (received.length < w.n) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const r = state.reply(entry, index);
      const finish = () => {
        state.inFlight.set(entry.deliveryId, (state.inFlight.get(entry.deliveryId) ?? 1) - 1);
        if (res.destroyed) return;
        res.writeHead(r.status ?? 200, r.headers ?? {});
        res.end('ok');
      };
      if (r.hang) {
        res.on('close', () => state.inFlight.set(entry.deliveryId, (state.inFlight.get(entry.deliveryId) ?? 1) - 1));
        return;
      }
      if (r.delayMs) setTimeout(finish, r.delayMs);
      else finish();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return state;
}
