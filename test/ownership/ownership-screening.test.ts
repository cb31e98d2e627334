import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { syncDerived } from '../../src/ownership/ownership-sync.js';
import {
  ENGINES,
  type SeededOrg,
  type TestApp,
  activateRecords,
  organization,
  seedOrg,
  startTestApp,
} from '../helpers/harness.js';

const FIXTURES = resolve(process.cwd(), 'test/fixtures/ownership');

function listedOwner(id: string, name: string, lei: string, programs: string[]) {
  return organization('us_ofac', id, name, { list: 'SDN', programs, identifiers: [{ type: 'lei', value: lei }] });
}

for (const { engine, skip } of ENGINES) {
  describe(`us_ofac_50 derived matches through the API (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    before(async () => {
      t = await startTestApp(engine);
      org = await seedOrg(t.ctx);
      await activateRecords(t.ctx, 'us_ofac', [
        listedOwner('201', 'LISTED ALPHA BANK', '5493AGGLISTA00000083', ['RUSSIA-EO14024']),
        listedOwner('202', 'LISTED BETA ENERGY', '5493AGGLISTB00000002', ['UKRAINE-EO13662']),
        // A non-SDN (consolidated) entry is not blocked: its stakes must not count.
        {
          ...listedOwner('203', 'LISTED GAMMA METALS', '5493AGGLISTC00000018', ['SSI']),
          list: 'Consolidated (non-SDN)',
        },
      ]);
    });
    after(async () => t?.close());

    it('derives the source from ownership files and screens an unlisted company as high with its chain', async () => {
      const outcome = await syncDerived({ db: t.ctx.database.db, clock: t.clock }, resolve(FIXTURES, 'aggregate'));
      assert.equal(outcome.status, 'updated', outcome.message ?? '');
      await t.ctx.runtime.refresh();
      assert.ok(t.ctx.runtime.current()?.sources.includes('us_ofac_50'));

      const res = await t.request('POST', '/v1/screen', {
        key: org.key,
        body: { name: 'Joint Venture Target LLC', entityType: 'business' },
      });
      assert.equal(res.status, 200, res.text);
      const data = res.body.data;
      assert.equal(data.riskLevel, 'high');
      assert.equal(data.entityId, 'us_ofac_50:5493AGGTARGET0000072');
      assert.deepEqual(data.matchedSources, ['us_ofac_50']);
      const entity = data.matchDetails[0].entity;
      assert.equal(entity.derivation.rule, 'ofac_50_percent');
      assert.equal(entity.derivation.percentage, 55);
      assert.equal(entity.derivation.ownerEntityId, 'us_ofac:201');
      assert.equal(entity.derivation.ownerName, 'LISTED ALPHA BANK');
      assert.deepEqual(
        entity.derivation.chain.map((l: { lei: string }) => l.lei),
        ['5493AGGLISTA00000083', '5493AGGTARGET0000072'],
      );
      assert.match(entity.derivation.asOf, /^\d{4}-\d{2}-\d{2}$/);
      assert.match(entity.reason, /50 percent|50%/i);

      const stored = await t.request('GET', `/v1/screenings/${data.screeningId}`, { key: org.key });
      assert.equal(stored.status, 200);
      assert.ok(stored.body.data.usedSources.includes('us_ofac_50'));
      assert.equal(stored.body.data.matchDetails[0].entity.derivation.percentage, 55);
      assert.ok(stored.body.data.listVersions.some((v: { source: string }) => v.source === 'us_ofac_50'));
    });

    it('does not block when only a non-SDN owner adds to a stake below 50%', async () => {
      // "Three Owners Holding" is held 16.63% + 17.5% by SDN owners and 15.87% by the non-SDN one: 34.13% blocked.
      const res = await t.request('POST', '/v1/screen', { key: org.key, body: { name: 'Three Owners Holding Ltd' } });
      assert.equal(res.status, 200);
      assert.equal(
        res.body.data.matchDetails.some((m: { dataset: string }) => m.dataset === 'us_ofac_50'),
        false,
      );
    });

    it('records an unchanged re-derivation without a new version', async () => {
      const before = t.ctx.runtime.current()?.fingerprint;
      const outcome = await syncDerived({ db: t.ctx.database.db, clock: t.clock }, resolve(FIXTURES, 'aggregate'));
      assert.equal(outcome.status, 'unchanged');
      await t.ctx.runtime.refresh();
      assert.equal(t.ctx.runtime.current()?.fingerprint, before);
    });
  });
}
