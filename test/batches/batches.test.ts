import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import { BatchStore } from '../../src/batches/batch-store.js';
import { ManualClock } from '../../src/infra/clock.js';
import { ENGINES, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { GENEROUS_LIMITS, assertError, loadSampleLists } from '../helpers/http-assert.js';
import { assertDescribedByOpenApi } from '../helpers/openapi-webhooks.js';
import { startReceiver } from '../webhooks/receiver.js';

/** Batch screening (issue 14): every way in, every error, isolation, quota, cancel, no double screening. */

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A customer file with a few bad rows: line 4 (no name), line 6 (bad country), line 7 (future birth date). */
const CSV = [
  'Name,ENTITYTYPE,Country,birthdate,ExternalID,notes',
  'Rustam Karimov,person,UZ,1961-04-12,cust-1,listed',
  'Margaret Whitfield,person,GB,,cust-2,',
  ',person,GB,,cust-3,no name',
  '"ZARYA SHIPPING, LLC",business,RU,,cust-4,listed',
  'Anna Schmidt,person,XX,,cust-5,bad country',
  'Jon Doe,person,,2999-01-01,cust-6,future',
  '',
  'Blue Horizon Trading FZE,organization,AE,,cust-8,listed',
].join('\n');

async function xlsxOf(rows: (string | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Customers');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

for (const { engine, skip } of ENGINES) {
  describe(`batches (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    let other: SeededOrg;
    const clock = new ManualClock('2026-03-01T09:00:00.000Z');

    before(async () => {
      t = await startTestApp(engine, { env: GENEROUS_LIMITS, clock });
      org = await seedOrg(t.ctx);
      other = await seedOrg(t.ctx);
      await loadSampleLists(t.ctx);
    });
    after(async () => t?.close());

    /** Sends a body as is with its content type. */
    async function upload(body: string | Buffer | FormData, type: string | null, key = org.key, query = '') {
      const headers: Record<string, string> = { 'x-api-key': key };
      if (type) headers['content-type'] = type;
      const res = await fetch(`${t.url}/v1/batches${query}`, { method: 'POST', headers, body });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
    }

    const runAll = () => t.ctx.jobs.batches.job.runUntilIdle();
    const status = async (id: string, key = org.key) => (await t.request('GET', `/v1/batches/${id}`, { key })).body;

    async function usage(orgId: string): Promise<number> {
      const row = await t.ctx.database.db
        .selectFrom('usage')
        .select('count')
        .where('org_id', '=', orgId)
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    }

    it('JSON items: 202 at once, rows screened as POST /screen, bad rows explained, quota per screened row', async () => {
      const before = await usage(org.orgId);
      const res = await t.request('POST', '/v1/batches', {
        key: org.key,
        body: {
          items: [
            { name: 'Rustam Karimov', birthDate: '1961-04-12', externalId: 'j-1', secret: 'never stored' },
            {
              name: 'Margaret Whitfield',
              externalId: 'j-2',
              identifiers: [{ type: 'lei', value: '5493001KJTIIGC8Y1R13' }],
            },
            { name: 42 },
            { name: 'Zarya Shipping', entityType: 'spaceship' },
          ],
        },
      });
      assert.equal(res.status, 202, res.text);
      assert.match(res.body.data.batchId, /^bat_/);
      assert.deepEqual({ status: res.body.data.status, total: res.body.data.total }, { status: 'queued', total: 4 });
      const id = res.body.data.batchId;
      assert.equal((await status(id)).data.status, 'queued');
      await runAll();
      const s = (await status(id)).data;
      assert.equal(s.status, 'completed');
      assert.deepEqual([s.total, s.done, s.screened, s.errors, s.queued], [4, 4, 2, 2, 0]);
      assert.equal(s.counts.high + s.counts.medium + s.counts.low, 2);
      assert.ok(s.counts.high >= 1, 'the listed party is high');
      assert.ok(s.startedAt && s.finishedAt);
      assert.deepEqual(
        s.rowErrors.map((e: { line: number; field: string }) => [e.line, e.field]),
        [
          [3, 'name'],
          [4, 'entityType'],
        ],
      );
      // The row's error says which values the field takes.
      assert.match(s.rowErrors[1].message, /^entityType: must be one of person, .*vessel/);
      assert.equal(await usage(org.orgId), before + 2);
      const results = await t.request('GET', `/v1/batches/${id}/results`, { key: org.key });
      assert.equal(results.status, 200, results.text);
      const rows = results.body.data;
      assert.deepEqual(
        rows.map((r: { line: number; state: string }) => [r.line, r.state]),
        [
          [1, 'done'],
          [2, 'done'],
          [3, 'error'],
          [4, 'error'],
        ],
      );
      assert.equal(rows[0].externalId, 'j-1');
      // An LEI whose check digits fail is screened as written; the row and its screening say so.
      assert.deepEqual(rows[0].warnings, []);
      assert.deepEqual(
        rows[1].warnings.map((w: { field: string; code: string }) => [w.field, w.code]),
        [['identifiers[0].value', 'CHECKSUM_MISMATCH']],
      );
      const warned = await t.request('GET', `/v1/screenings/${rows[1].screeningId}`, { key: org.key });
      assert.deepEqual(warned.body.data.warnings, rows[1].warnings);
      assert.equal(rows[0].entityId, 'us_ofac:1001');
      assert.deepEqual(rows[0].matchedSources.sort(), ['un_csl', 'us_ofac']);
      // The row is a stored screening like any other, with its externalId.
      const record = await t.request('GET', `/v1/screenings/${rows[0].screeningId}`, { key: org.key });
      assert.equal(record.status, 200, record.text);
      assert.equal(record.body.data.externalId, 'j-1');
      assert.equal(record.body.data.riskLevel, rows[0].riskLevel);
      assert.match(rows[2].error.message, /name/);
      const stored = await t.ctx.database.db
        .selectFrom('batch_rows')
        .select('input')
        .where('batch_id', '=', id)
        .execute();
      assert.ok(
        stored.every((r) => !r.input.includes('never stored')),
        'unknown fields are not stored',
      );
    });

    it('CSV body: headers in any case, bad rows by line and field, results as CSV sorted by risk', async () => {
      const res = await upload(CSV, 'text/csv; charset=utf-8');
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.data.total, 7);
      await runAll();
      const s = (await status(res.body.data.batchId)).data;
      assert.equal(s.source, 'csv');
      assert.deepEqual([s.screened, s.errors], [4, 3]);
      assert.deepEqual(
        s.rowErrors.map((e: { line: number; field: string }) => [e.line, e.field]),
        [
          [4, 'name'],
          [6, 'country'],
          [7, 'birthDate'],
        ],
      );
      const csv = await fetch(`${t.url}/v1/batches/${res.body.data.batchId}/results?format=csv&sort=risk`, {
        headers: { 'x-api-key': org.key },
      });
      assert.equal(csv.status, 200);
      assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
      const lines = (await csv.text()).trim().split('\r\n');
      assert.equal(
        lines[0],
        'line,externalId,name,state,screeningId,riskLevel,riskScore,entityId,entityName,matchedSources,errorCode,errorField,errorMessage,warnings',
      );
      assert.equal(lines.length, 8);
      // Listed parties first, then the clean one, then the errors.
      assert.match(lines[1]!, /,high,/);
      assert.match(lines.at(-1)!, /,error,.*VALIDATION_ERROR/);
      assert.ok(lines.some((l) => l.startsWith('5,cust-4,"ZARYA SHIPPING, LLC",done,scr_')));
      const ndjson = await fetch(`${t.url}/v1/batches/${res.body.data.batchId}/results?format=ndjson`, {
        headers: { 'x-api-key': org.key },
      });
      const parsed = (await ndjson.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.deepEqual(
        parsed.map((r) => r.line),
        [2, 3, 4, 5, 6, 7, 9],
      );
      assert.equal(parsed[5].error.field, 'birthDate');
    });

    it('NDJSON body: one POST /screen body per line; a line that is not JSON is that row’s error', async () => {
      const body = [
        JSON.stringify({ name: 'Rustam Karimov', externalId: 'n-1' }),
        '{not json',
        '',
        JSON.stringify({ name: 'Margaret Whitfield', country: 'gb' }),
      ].join('\n');
      const res = await upload(body, 'application/x-ndjson');
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.data.total, 3);
      await runAll();
      const s = (await status(res.body.data.batchId)).data;
      assert.deepEqual([s.status, s.screened, s.errors], ['completed', 2, 1]);
      assert.equal(s.rowErrors[0].line, 2);
    });

    it('XLSX body and multipart upload, with monitor and groupByCluster options', async () => {
      const workbook = await xlsxOf([
        ['name', 'Country', 'externalId'],
        ['Rustam Karimov', 'UZ', 'x-1'],
        ['Blue Horizon Trading FZE', 'AE', 'x-2'],
      ]);
      const res = await upload(workbook, XLSX, org.key, '?groupByCluster=true');
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.data.total, 2);
      await runAll();
      const s = (await status(res.body.data.batchId)).data;
      assert.deepEqual([s.source, s.screened, s.groupByCluster], ['xlsx', 2, true]);

      const form = new FormData();
      form.append('monitor', 'true');
      form.append('file', new Blob(['name,externalId\nZarya Shipping LLC,m-1\nAnna Schmidt,m-2\n']), 'customers.csv');
      const multi = await upload(form, null);
      assert.equal(multi.status, 202, multi.text);
      await runAll();
      const m = (await status(multi.body.data.batchId)).data;
      assert.deepEqual([m.fileName, m.source, m.screened, m.monitor], ['customers.csv', 'csv', 2, true]);
      const monitors = await t.request('GET', '/v1/monitors?pageSize=100', { key: org.key });
      const monitored = monitors.body.data.map((x: { externalId: string | null }) => x.externalId);
      assert.ok(monitored.includes('m-1') && monitored.includes('m-2'), JSON.stringify(monitored));
      const listed = await t.request('GET', '/v1/batches', { key: org.key });
      assert.ok(listed.body.data.some((b: { batchId: string }) => b.batchId === multi.body.data.batchId));
    });

    it('refuses what is not a batch: wrong type, no name column, no rows, bad items, no key', async () => {
      assertError(await upload('name\nx', 'text/plain'), 400, 'VALIDATION_ERROR', { field: 'file' });
      assertError(await upload('customer,country\nA,GB', 'text/csv'), 400, 'VALIDATION_ERROR', { field: 'file' });
      assertError(await upload('name,country\n', 'text/csv'), 400, 'VALIDATION_ERROR', { field: 'file' });
      assertError(await upload(Buffer.from('PK\u0003\u0004 broken'), XLSX), 400, 'VALIDATION_ERROR', { field: 'file' });
      const form = new FormData();
      form.append('other', 'x');
      assertError(await upload(form, null), 400, 'VALIDATION_ERROR', { field: 'file' });
      assertError(
        await t.request('POST', '/v1/batches', { key: org.key, body: { items: [] } }),
        400,
        'VALIDATION_ERROR',
      );
      assertError(await t.request('POST', '/v1/batches', { key: org.key, body: {} }), 400, 'VALIDATION_ERROR', {
        field: 'items',
      });
      const tooMany = { items: Array.from({ length: 10_001 }, () => ({ name: 'A' })) };
      assertError(await t.request('POST', '/v1/batches', { key: org.key, body: tooMany }), 400, 'VALIDATION_ERROR');
      assertError(await t.request('POST', '/v1/batches', { body: { items: [{ name: 'A' }] } }), 401, 'UNAUTHORIZED');
      // Nothing was left behind by the refused uploads.
      const count = await t.ctx.database.db
        .selectFrom('batches')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', '=', 'receiving')
        .executeTakeFirst();
      assert.equal(Number(count?.n), 0);
    });

    it('413 for a file over 50 MB or a JSON body over 16 MiB, before reading it', async () => {
      const big = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          `${t.url}/v1/batches`,
          {
            method: 'POST',
            headers: { 'x-api-key': org.key, 'content-type': 'text/csv', 'content-length': String(60 * 1024 * 1024) },
          },
          (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => {
              req.destroy();
              resolve({ status: res.statusCode ?? 0, body });
            });
          },
        );
        req.on('error', reject);
        req.write('name\nAnna Schmidt\n');
      });
      assert.equal(big.status, 413, big.body);
      assert.equal(JSON.parse(big.body).error.code, 'PAYLOAD_TOO_LARGE');
      const items = Array.from({ length: 9000 }, () => ({ name: 'x'.repeat(2000) }));
      assertError(await t.request('POST', '/v1/batches', { key: org.key, body: { items } }), 413, 'PAYLOAD_TOO_LARGE');
    });

    it("another organization's batch is a 404 everywhere", async () => {
      const res = await t.request('POST', '/v1/batches', { key: org.key, body: { items: [{ name: 'A B' }] } });
      const id = res.body.data.batchId;
      for (const [method, path] of [
        ['GET', `/v1/batches/${id}`],
        ['GET', `/v1/batches/${id}/results`],
        ['GET', `/v1/batches/${id}/results?format=csv`],
        ['DELETE', `/v1/batches/${id}`],
      ] as const) {
        assertError(await t.request(method, path, { key: other.key }), 404, 'NOT_FOUND');
      }
      const theirs = await t.request('GET', '/v1/batches', { key: other.key });
      assert.equal(theirs.body.meta.pagination.total, 0);
      await runAll();
    });

    it('refuses a batch larger than the quota left, saying how many rows fit, and keeps nothing', async () => {
      const small = await seedOrg(t.ctx, { tier: 'starter', quota: 3 });
      await t.request('POST', '/v1/screen', { key: small.key, body: { name: 'Anna Schmidt' } });
      const items = [{ name: 'A One' }, { name: 'B Two' }, { name: 42 }, { name: 'C Three' }];
      const res = await t.request('POST', '/v1/batches', { key: small.key, body: { items } });
      assertError(res, 403, 'TIER_LIMIT_EXCEEDED');
      assert.match(res.body.error.message, /2 rows fit/);
      const list = await t.request('GET', '/v1/batches', { key: small.key });
      assert.equal(list.body.meta.pagination.total, 0);
      // The bad row costs nothing: two good rows fit.
      const fits = await t.request('POST', '/v1/batches', { key: small.key, body: { items: items.slice(0, 3) } });
      assert.equal(fits.status, 202, fits.text);
      await runAll();
      assert.equal(await usage(small.orgId), 3);
    });

    it('DELETE cancels what has not run; a finished batch cannot be cancelled', async () => {
      const before = await usage(org.orgId);
      const res = await t.request('POST', '/v1/batches', {
        key: org.key,
        body: { items: [{ name: 'Rustam Karimov' }, { name: 'Margaret Whitfield' }] },
      });
      const id = res.body.data.batchId;
      const cancelled = await t.request('DELETE', `/v1/batches/${id}`, { key: org.key });
      assert.equal(cancelled.status, 200, cancelled.text);
      assert.deepEqual([cancelled.body.data.status, cancelled.body.data.cancelled], ['cancelled', 2]);
      await runAll();
      assert.equal(await usage(org.orgId), before);
      const rows = await t.request('GET', `/v1/batches/${id}/results`, { key: org.key });
      assert.deepEqual(
        rows.body.data.map((r: { state: string }) => r.state),
        ['cancelled', 'cancelled'],
      );
      assertError(await t.request('DELETE', `/v1/batches/${id}`, { key: org.key }), 409, 'CONFLICT');
    });

    it('a claim takes at most BATCH_CLAIM_SIZE rows, in file order, and the next claim the next ones', async () => {
      const items = Array.from({ length: 45 }, (_, i) => ({ name: `Claimed Customer ${i}` }));
      const id = (await t.request('POST', '/v1/batches', { key: org.key, body: { items } })).body.data.batchId;
      const now = clock.now();
      const claim = () =>
        BatchStore.claim(t.ctx.database, {
          now: now.toISOString(),
          until: new Date(now.getTime() + 60_000).toISOString(),
          nodeId: t.ctx.nodeId,
          limit: 10,
          batchId: id,
        });
      const first = await claim();
      const second = await claim();
      // On PostgreSQL a claim written as a subquery of its UPDATE once took all 45.
      assert.deepEqual(
        first.map((l) => l.line),
        Array.from({ length: 10 }, (_, i) => i + 1),
      );
      assert.deepEqual(
        second.map((l) => l.line),
        Array.from({ length: 10 }, (_, i) => i + 11),
      );
      const claimed = await t.ctx.database.db
        .selectFrom('batch_rows')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('batch_id', '=', id)
        .where('claimed_by', 'is not', null)
        .executeTakeFirst();
      assert.equal(Number(claimed?.n), 20);
      await new BatchStore(t.ctx.database.db).release(t.ctx.nodeId, [...first, ...second]);
      await runAll();
      assert.deepEqual([(await status(id)).data.status, (await status(id)).data.screened], ['completed', 45]);
    });

    it('two nodes share one batch: every row screened exactly once', async () => {
      const second = await startTestApp(engine, { shared: t.env, clock });
      try {
        const items = Array.from({ length: 120 }, (_, i) => ({ name: `Customer Number ${i}`, externalId: `d-${i}` }));
        const res = await t.request('POST', '/v1/batches', { key: org.key, body: { items } });
        const id = res.body.data.batchId;
        await Promise.all([runAll(), second.ctx.jobs.batches.job.runUntilIdle(), runAll()]);
        const s = (await status(id)).data;
        assert.deepEqual([s.status, s.screened], ['completed', 120]);
        const screenings = await t.ctx.database.db
          .selectFrom('screenings')
          .select(['external_id'])
          .where('org_id', '=', org.orgId)
          .where('external_id', 'like', 'd-%')
          .execute();
        assert.equal(screenings.length, 120, 'one screening per row');
        assert.equal(new Set(screenings.map((r) => r.external_id)).size, 120);
      } finally {
        await second.close();
      }
    });

    it('batch.completed goes through the webhook outbox, signed', async () => {
      const receiver = await startReceiver('batch-secret-0123456789');
      try {
        const hooked = await seedOrg(t.ctx, { webhookUrl: receiver.url, webhookSecret: 'batch-secret-0123456789' });
        const res = await t.request('POST', '/v1/batches', {
          key: hooked.key,
          body: { items: [{ name: 'Rustam Karimov' }, { name: '' }] },
        });
        await runAll();
        await t.ctx.jobs.deliveries.job.runUntilIdle();
        const [hit] = await receiver.waitFor(1);
        assert.equal(hit!.event, 'batch.completed');
        assert.ok(hit!.signatureValid);
        assert.equal(hit!.json.event, 'batch.completed');
        assert.equal(hit!.json.organization.slug, hooked.slug);
        assert.equal(hit!.json.batch.batchId, res.body.data.batchId);
        assert.deepEqual(
          [hit!.json.batch.status, hit!.json.batch.screened, hit!.json.batch.errors],
          ['completed', 1, 1],
        );
        await assertDescribedByOpenApi(t, 'batch.completed', hit!.json, false);
      } finally {
        await receiver.close();
      }
    });
  });
}
