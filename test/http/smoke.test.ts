import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ENGINES,
  type SeededOrg,
  type TestApp,
  activateRecords,
  organization,
  sampleRecords,
  seedOrg,
  startTestApp,
} from '../helpers/harness.js';

// Matching on the HTTP thread (MATCH_THREADS=0) and in a matching thread (the default on two cores).
for (const { engine, skip } of ENGINES)
  for (const threads of ['0', '1']) {
    describe(`smoke (${engine}, MATCH_THREADS=${threads})`, { skip }, () => {
      let t: TestApp;
      let org: SeededOrg;
      before(async () => {
        t = await startTestApp(engine, { env: { MATCH_THREADS: threads } });
        org = await seedOrg(t.ctx);
      });
      after(async () => t?.close());

      it('refuses to screen before lists are loaded', async () => {
        const res = await t.request('POST', '/v1/screen', { key: org.key, body: { name: 'Rustam Karimov' } });
        assert.equal(res.status, 503);
        assert.equal(res.body.error.code, 'LISTS_NOT_READY');
      });

      it('screens a listed name once lists are in force', async () => {
        const records = sampleRecords();
        await activateRecords(t.ctx, 'us_ofac', records.us_ofac);
        await activateRecords(t.ctx, 'un_csl', records.un_csl);
        const res = await t.request('POST', '/v1/screen', {
          key: org.key,
          body: { name: 'Rustam Karimov', birthDate: '1961-04-12' },
        });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.data.riskLevel, 'high');
        assert.deepEqual([...res.body.data.matchedSources].sort(), ['un_csl', 'us_ofac']);
        assert.match(res.headers.get('x-request-id') ?? '', /^req_/);
        assert.equal(t.ctx.config.matching.threads, Number(threads));
      });

      it('screens against a new list version as soon as the node has switched to it', async () => {
        const before = await t.request('POST', '/v1/screen', {
          key: org.key,
          body: { name: 'Neptune Maritime Holdings' },
        });
        assert.equal(before.body.data.riskLevel, 'low');
        const version = await activateRecords(t.ctx, 'us_ofac', [
          ...sampleRecords().us_ofac,
          organization('us_ofac', '9001', 'NEPTUNE MARITIME HOLDINGS'),
        ]);
        const after = await t.request('POST', '/v1/screen', {
          key: org.key,
          body: { name: 'Neptune Maritime Holdings' },
        });
        assert.equal(after.body.data.riskLevel, 'high');
        assert.equal(after.body.data.entityId, 'us_ofac:9001');
        const record = await t.request('GET', `/v1/screenings/${after.body.data.screeningId}`, { key: org.key });
        assert.ok(
          record.body.data.listVersions.some((v: { version: string }) => v.version === version),
          'the record names the new version',
        );
      });
    });
  }
