/**
 * Reliability (issue 17, 6d): another organization's ids are 404 on every id-bearing v1 route, read
 * from the OpenAPI document so that routes added later are covered too, and another organization's
 * resources never show in a list. The ids of organization A come from A's own list routes
 * (GET /v1/<collection>); a new id-bearing route whose collection cannot be listed fails this test
 * until the fixture below creates one of its resources.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
// Loaded before the harness, whose PostgreSQL probe (2 s time-out) runs while later imports load.
import { type Schema, minimalBody, v1Operations } from './openapi-requests.js';
import { ENGINES, type SeededOrg, type TestApp, monitorNames, seedOrg, startTestApp } from '../helpers/harness.js';
import { GENEROUS_LIMITS, assertError, loadSampleLists } from '../helpers/http-assert.js';
import { AlertStore } from '../../src/monitoring/alert-store.js';
import { generateSigningKey } from '../../src/validation/signing.js';

for (const { engine, skip } of ENGINES) {
  describe(`cross-organization access (${engine})`, { skip }, () => {
    let t: TestApp;
    let a: SeededOrg;
    let b: SeededOrg;
    let doc: Schema;
    /** Collections with no list route of their own (alerts reach users by webhook): A's ids, made below. */
    const unlisted: Record<string, string[]> = {};
    before(async () => {
      t = await startTestApp(engine, {
        env: {
          ...GENEROUS_LIMITS,
          VALIDATION_SIGNING_KEY: generateSigningKey().privateKey,
          VALIDATION_ACTIVATION_SAMPLE: '0',
        },
      });
      a = await seedOrg(t.ctx, { tier: 'enterprise' });
      b = await seedOrg(t.ctx, { tier: 'enterprise' });
      await loadSampleLists(t.ctx);
      doc = (await t.request('GET', '/openapi.json')).body as Schema;
      // Organization A's resources: screenings and monitors.
      await monitorNames(t, a.key, ['Rustam Karimov', 'Zarya Shipping']);
      // A decision on one of A's matches (GET /v1/decisions lists it).
      const listed = await t.request('POST', '/v1/screen', { key: a.key, body: { name: 'Rustam Karimov' } });
      const entityId = listed.body.data.matchDetails[0]?.entity?.id as string | undefined;
      assert.ok(entityId, 'the sample lists list Rustam Karimov');
      const d = await t.request('POST', `/v1/screenings/${listed.body.data.screeningId}/decisions`, {
        key: a.key,
        body: { entityId, decision: 'needs_information', note: 'cross-organization fixture' },
      });
      assert.equal(d.status, 201, d.text);
      // A batch (GET /v1/batches lists it).
      const batch = await t.request('POST', '/v1/batches', { key: a.key, body: { items: [{ name: 'Ana Lopez' }] } });
      assert.equal(batch.status, 202, batch.text);
      // An alert of A's first monitor, as a rescreen writes one (alerts have no list route).
      const monitors = await t.request('GET', '/v1/monitors', { key: a.key });
      const monitorId = monitors.body.data[0].id as string;
      const alertId = 'alr_crossorgfixture';
      await new AlertStore(t.ctx.database.db).insert({
        id: alertId,
        org_id: a.orgId,
        monitor_id: monitorId,
        entity_id: entityId,
        entity_name: 'Rustam Karimov',
        old_risk_score: 0,
        new_risk_score: 90,
        old_risk_level: 'low',
        new_risk_level: 'high',
        old_sources: '[]',
        new_sources: '[]',
        reasons: '["risk_increased"]',
        list_versions: '[]',
        created_at: new Date().toISOString(),
        resolved_at: null,
        resolved_by: null,
        note: null,
        match_details: listed.body.data.matchDetails ? JSON.stringify(listed.body.data.matchDetails) : null,
        lapses: null,
      });
      unlisted.alerts = [alertId];
      // A screening profile (GET /v1/profiles lists it) and a validation run (GET /v1/validation-runs).
      const profile = await t.request('POST', '/v1/profiles', { key: a.key, body: { name: 'Cross-organization' } });
      assert.equal(profile.status, 201, profile.text);
      const run = await t.request('POST', '/v1/validation-runs', { key: a.key, body: { quick: true } });
      assert.equal(run.status, 202, run.text);
    });
    after(async () => t?.close());

    /** The ids organization A sees in GET /v1/<collection>. */
    const idsOf = async (key: string, collection: string): Promise<string[]> => {
      if (unlisted[collection]) return key === a.key ? unlisted[collection] : [];
      const res = await t.request('GET', `/v1/${collection}`, { key });
      if (res.status !== 200) return [];
      return (res.body.data as { id?: string; monitorId?: string; screeningId?: string; batchId?: string }[]).map(
        (item) => item.id ?? item.monitorId ?? item.screeningId ?? item.batchId ?? '',
      );
    };

    it('every id-bearing route answers 404 to another organization, and changes nothing', async () => {
      const operations = v1Operations(doc).filter((op) => op.parameters.some((p) => p.in === 'path'));
      assert.ok(operations.length >= 2, 'id-bearing routes found');
      let checked = 0;
      for (const op of operations) {
        const collection = op.path.split('/')[2]!;
        const ids = (await idsOf(a.key, collection)).filter(Boolean);
        assert.ok(
          ids.length > 0,
          `no ${collection} of organization A to try ${op.method} ${op.path} with: add one above`,
        );
        for (const id of ids) {
          // A second path parameter that names a file of the resource takes a real one (validation reports).
          const path = op.path.replace('{file}', 'report.json').replace(/\{[^}]+\}/g, encodeURIComponent(id));
          const res = await t.request(op.method, path, {
            key: b.key,
            ...(op.body ? { body: minimalBody(doc, op.body) } : {}),
          });
          assertError(res, 404, 'NOT_FOUND');
          assert.doesNotMatch(res.text, new RegExp(a.orgId), 'nothing of A is named');
          checked++;
        }
        // A still has every one of them.
        assert.deepEqual(
          (await idsOf(a.key, collection)).filter(Boolean).sort(),
          [...ids].sort(),
          `${collection} unchanged`,
        );
      }
      assert.ok(checked >= 4);
    });

    it("no list route shows another organization's resources", async () => {
      // The change feed of the lists is the deployment's, the same for every organization.
      const lists = v1Operations(doc).filter(
        (op) => op.method === 'GET' && !op.path.includes('{') && !op.path.startsWith('/v1/lists/'),
      );
      assert.ok(lists.length >= 2);
      for (const op of lists) {
        const collection = op.path.split('/')[2]!;
        const mine = new Set(await idsOf(a.key, collection));
        const theirs = await idsOf(b.key, collection);
        assert.ok(mine.size > 0, `organization A has ${collection}`);
        assert.deepEqual(
          theirs.filter((id) => mine.has(id)),
          [],
          `${op.path}: B sees none of A's`,
        );
      }
    });
  });
}
