/**
 * The machine's floor for the open-loop benchmark (open-loop.ts): an HTTP server that does, for each
 * POST /v1/screen, only the steps no screening service on this design can skip, each as the real
 * server does it: the JSON body read, a round trip to a worker thread (the matching thread, which here
 * matches nothing), the request appended to a file on this thread and synced on libuv's pool (the
 * server's WalSyncer: one sync shared by the writes made while the previous one ran), then a small
 * JSON answer. Measured by the same client at the same rates as the server, it tells how much of the
 * server's tail is this machine's (its two cores shared by the client, the threads and the kernel)
 * and how much is the service's own.
 *   node dist/bench/floor-server.js DIR  (prints {"msg":"floor listening","url":...} once it listens)
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { WalSyncer } from '../src/infra/sqlite-driver.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: floor-server.js DIR');
const file = join(dir, 'floor.log');
const fd = openSync(file, 'a');
const syncer = new WalSyncer(file);

// The thread answers each message with its id: the hop there and back, nothing in between.
const worker = new Worker(
  "const { parentPort } = require('node:worker_threads'); parentPort.on('message', (m) => parentPort.postMessage(m.id));",
  { eval: true },
);
const waiting = new Map<number, () => void>();
let nextId = 0;
worker.on('message', (id: number) => {
  waiting.get(id)?.();
  waiting.delete(id);
});
const hop = (name: string) =>
  new Promise<void>((done) => {
    const id = nextId++;
    waiting.set(id, done);
    worker.postMessage({ id, name });
  });

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    void (async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { name?: string };
      await hop(String(body.name));
      writeSync(fd, `${JSON.stringify(body)}\n`);
      await syncer.durable();
      const answer = JSON.stringify({ data: { riskLevel: 'low', name: body.name } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    })().catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  console.log(JSON.stringify({ msg: 'floor listening', url: `http://127.0.0.1:${address.port}` }));
});

process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void syncer.close().finally(() => {
    closeSync(fd);
    void worker.terminate().then(() => process.exit(0));
  });
});
