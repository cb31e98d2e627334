import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/infra/config.js';
import { listSyncService } from '../../src/lists/sync-service.js';
import { GENEROUS_LIMITS } from '../helpers/http-assert.js';
import { ENGINES, SHARED_DATA, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';

const UN_FILE = resolve(SHARED_DATA, 'lists/un_csl/consolidated.xml');
const JP_FILE = resolve(SHARED_DATA, 'lists/jp_mof/shisantouketsu20260305.xlsx');
const skipData = existsSync(UN_FILE) ? false : `${UN_FILE} is absent`;

/** A publisher on loopback whose answers each test sets. */
interface Publisher {
  url: string;
  respond: (path: string) => { status: number; body: Buffer | string; type?: string };
  hits: string[];
  close(): Promise<void>;
}

async function startPublisher(): Promise<Publisher> {
  const publisher: Partial<Publisher> & { hits: string[] } = { hits: [] };
  const server: Server = createServer((req, res) => {
    publisher.hits.push(req.url ?? '');
    const answer = publisher.respond!(req.url ?? '');
    res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/xml' });
    res.end(answer.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  publisher.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  publisher.close = () => new Promise<void>((r) => server.close(() => r()));
  return publisher as Publisher;
}

/** The UN file with only the first `keep` individuals: well-formed, but far fewer records. */
function unWithFewIndividuals(keep: number): string {
  const text = readFileSync(UN_FILE, 'utf8');
  let seen = 0;
  return text.replace(/<INDIVIDUAL>[\s\S]*?<\/INDIVIDUAL>\s*/g, (m) => (++seen <= keep ? m : ''));
}

for (const { engine, skip } of ENGINES) {
  describe(`list sync from a publisher over HTTP (${engine})`, { skip: skip || skipData }, () => {
    let t: TestApp;
    let publisher: Publisher;
    let org: SeededOrg;
    let sync: ReturnType<typeof listSyncService>;
    const syncSource = (source: 'un_csl' | 'jp_mof') => sync.syncSource({ ctx: t.ctx.operator, input: { source } });
    const listStatus = () => sync.status({ ctx: t.ctx.operator });

    before(async () => {
      publisher = await startPublisher();
      t = await startTestApp(engine, { env: GENEROUS_LIMITS });
      org = await seedOrg(t.ctx);
      // Same database, but downloads from the loopback publisher, with no retries so failures are quick.
      const lists = loadConfig({
        ...t.env.env,
        LIST_HTTP_RETRIES: '0',
        LIST_HTTP_TIMEOUT: '5s',
        LIST_URLS: `un_csl:consolidated.xml=${publisher.url}/un.xml jp_mof:shisantouketsu.xlsx=${publisher.url}/jp/list.html`,
      }).lists;
      sync = listSyncService({ config: lists });
    });
    after(async () => {
      await t?.close();
      await publisher?.close();
    });

    it('downloads, parses in full and puts a version in force', async () => {
      publisher.respond = () => ({ status: 200, body: readFileSync(UN_FILE) });
      const outcome = await syncSource('un_csl');
      assert.equal(outcome.status, 'updated', outcome.message ?? '');
      const independent = (readFileSync(UN_FILE, 'utf8').match(/<(INDIVIDUAL|ENTITY)>/g) ?? []).length;
      assert.equal(outcome.records, independent);
      assert.equal(outcome.publishedAt, '2026-02-27');
      assert.ok(publisher.hits.includes('/un.xml'));
    });

    it('records the same input again as unchanged, without a new version', async () => {
      const before = (await listStatus()).find((s) => s.source === 'un_csl');
      const outcome = await syncSource('un_csl');
      assert.equal(outcome.status, 'unchanged');
      assert.equal(outcome.version, before?.version);
    });

    for (const [label, answer, reason] of [
      ['a failed download (500)', { status: 500, body: 'upstream error' }, /download failed/],
      ['a truncated file', { status: 200, body: readFileSync(UN_FILE).subarray(0, 400_000) }, /parse failed/],
      ['garbage', { status: 200, body: 'this is not XML at all' }, /parse failed/],
      ['a file with far fewer records', { status: 200, body: unWithFewIndividuals(50) }, /sanity guard/],
    ] as const) {
      it(`rejects ${label} and keeps the current version in force`, async () => {
        const before = (await listStatus()).find((s) => s.source === 'un_csl');
        publisher.respond = () => answer;
        const outcome = await syncSource('un_csl');
        assert.equal(outcome.status, 'rejected');
        assert.match(outcome.message ?? '', reason);
        const after = (await listStatus()).find((s) => s.source === 'un_csl');
        assert.equal(after?.version, before?.version);
        assert.equal(after?.records, before?.records);
        assert.equal(after?.stale, true, 'a rejected sync reports the source stale');
        assert.match(after?.lastError ?? '', reason);
      });
    }

    it('a sync while screening never shows a partial list', async () => {
      publisher.respond = () => ({ status: 200, body: readFileSync(UN_FILE) });
      await t.ctx.runtime.refresh();
      const oldVersion = t.ctx.runtime.current()?.versions.find((v) => v.source === 'un_csl')?.version;
      assert.ok(oldVersion);
      // A changed file: one individual fewer (still above the guard).
      const text = readFileSync(UN_FILE, 'utf8');
      const changed = text.replace(/<INDIVIDUAL>[\s\S]*?<\/INDIVIDUAL>\s*/, '');
      publisher.respond = () => ({ status: 200, body: changed });

      let stop = false;
      const seen: { version: string | undefined; records: number | undefined }[] = [];
      const screening = (async () => {
        while (!stop) {
          const res = await t.request('POST', '/v1/screen', { key: org.key, body: { name: 'Ri Won Ho' } });
          assert.equal(res.status, 200, res.text);
          const stored = await t.request('GET', `/v1/screenings/${res.body.data.screeningId}`, { key: org.key });
          const un = stored.body.data.listVersions.find((v: { source: string }) => v.source === 'un_csl');
          seen.push({ version: un?.version, records: un?.records });
        }
      })();
      const outcome = await syncSource('un_csl');
      assert.equal(outcome.status, 'updated', outcome.message ?? '');
      await t.ctx.runtime.refresh();
      const res = await t.request('POST', '/v1/screen', { key: org.key, body: { name: 'Ri Won Ho' } });
      stop = true;
      await screening;
      assert.equal(res.status, 200);
      assert.ok(seen.length > 0);
      // Every screening ran against one whole version: the old one with its full count or the new one.
      for (const s of seen) {
        assert.ok(
          (s.version === oldVersion && s.records === outcome.records + 1) ||
            (s.version === outcome.version && s.records === outcome.records),
          `screening saw ${JSON.stringify(s)}`,
        );
      }
      assert.equal(t.ctx.runtime.current()?.versions.find((v) => v.source === 'un_csl')?.version, outcome.version);
    });

    it(
      'follows the newest dated link on a publisher page (Japan MOF)',
      { skip: existsSync(JP_FILE) ? false : `${JP_FILE} is absent` },
      async () => {
        publisher.respond = (path) =>
          path.endsWith('list.html')
            ? {
                status: 200,
                type: 'text/html',
                body: '<a href="files/shisantouketsu20260101.xlsx">old</a> <a href="/jp/files/shisantouketsu20260305.xlsx">new</a>',
              }
            : path.endsWith('shisantouketsu20260305.xlsx')
              ? { status: 200, body: readFileSync(JP_FILE), type: 'application/octet-stream' }
              : { status: 404, body: 'not here' };
        const outcome = await syncSource('jp_mof');
        assert.equal(outcome.status, 'updated', outcome.message ?? '');
        assert.ok(publisher.hits.includes('/jp/files/shisantouketsu20260305.xlsx'));
        assert.ok(!publisher.hits.some((h) => h.includes('20260101')));
        assert.ok(outcome.records > 2000);
      },
    );
  });
}
