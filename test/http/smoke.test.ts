import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ENGINES, type SeededOrg, type TestApp, activateRecords, sampleRecords, seedOrg, startTestApp } from '../helpers/harness.js';

for (const { engine, skip } of ENGINES) {
  describe(`smoke (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    before(async () => {
      t = await startTestApp(engine);
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
      const res = await t.request('POST', '/v1/screen', { key: org.key, body: { name: 'Rustam Karimov', birthDate: '1961-04-12' } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.riskLevel, 'high');
      assert.deepEqual([...res.body.data.matchedSources].sort(), ['un_csl', 'us_ofac']);
      assert.match(res.headers.get('x-request-id') ?? '', /^req_/);
    });
  });
}
