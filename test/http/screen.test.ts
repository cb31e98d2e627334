import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import { newId } from '../../src/infra/ids.js';
import { Match, MatchedEntity, ScreeningResult } from '../../src/screening/screening-schemas.js';
import { ENGINES, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { GENEROUS_LIMITS, assertCommonHeaders, assertError, loadSampleLists } from '../helpers/http-assert.js';

/** POST /screen: api-v1.md 4.1 and DECISIONS.md (scores, idempotency, same search), against the running server. */

const DAY = 24 * 60 * 60 * 1000;

for (const { engine, skip } of ENGINES) {
  describe(`POST /v1/screen before the lists are loaded (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    before(async () => {
      t = await startTestApp(engine);
      org = await seedOrg(t.ctx);
    });
    after(async () => t?.close());

    it('503 LISTS_NOT_READY, nothing stored, no quota used; screening works once lists are in force', async () => {
      const res = await t.request('POST', '/v1/screen', {
        key: org.key,
        body: { name: 'Rustam Karimov' },
        headers: { 'Idempotency-Key': 'early' },
      });
      assertError(res, 503, 'LISTS_NOT_READY');
      assert.match(res.headers.get('retry-after') ?? '', /^\d+$/);
      const db = t.ctx.database.db;
      assert.equal((await db.selectFrom('screenings').select('id').execute()).length, 0);
      assert.equal((await db.selectFrom('usage').select('count').execute()).length, 0);
      assert.equal((await db.selectFrom('idempotency_keys').select('key').execute()).length, 0);

      await loadSampleLists(t.ctx);
      const ok = await t.request('POST', '/v1/screen', {
        key: org.key,
        body: { name: 'Rustam Karimov' },
        headers: { 'Idempotency-Key': 'early' },
      });
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.headers.get('idempotency-replayed'), null);
    });
  });

  describe(`POST /v1/screen (${engine})`, { skip }, () => {
    let t: TestApp;
    let clock: ManualClock;
    let org: SeededOrg;
    let other: SeededOrg;
    before(async () => {
      clock = new ManualClock('2026-01-15T12:00:00.000Z');
      t = await startTestApp(engine, { clock, env: GENEROUS_LIMITS });
      org = await seedOrg(t.ctx);
      other = await seedOrg(t.ctx);
      await loadSampleLists(t.ctx);
    });
    after(async () => t?.close());

    const screen = (body: unknown, options: { key?: string; idem?: string } = {}) =>
      t.request('POST', '/v1/screen', {
        key: options.key ?? org.key,
        body,
        ...(options.idem !== undefined ? { headers: { 'Idempotency-Key': options.idem } } : {}),
      });
    const total = async (key = org.key) =>
      (await t.request('GET', '/v1/screenings', { key })).body.meta.pagination.total as number;
    const used = async (orgId = org.orgId) => {
      const rows = await t.ctx.database.db.selectFrom('usage').select('count').where('org_id', '=', orgId).execute();
      return rows.reduce((sum, r) => sum + Number(r.count), 0);
    };

    it('a listed name: high, with the top entity, sources and a readable explanation on every match', async () => {
      const res = await screen({
        name: 'Rustam Karimov',
        birthDate: '1961-04-12',
        entityType: 'person',
        country: 'UZ',
      });
      assert.equal(res.status, 200, res.text);
      assertCommonHeaders(res);
      const data = res.body.data;
      assert.match(data.screeningId, /^scr_[0-9a-z]+$/);
      assert.equal(data.riskLevel, 'high');
      assert.ok(data.riskScore >= 80 && data.riskScore <= 100, `riskScore ${data.riskScore}`);
      assert.ok(data.confidence >= 0 && data.confidence <= 100);
      assert.ok(['us_ofac:1001', 'un_csl:9001'].includes(data.entityId), data.entityId);
      assert.equal(typeof data.entityName, 'string');
      assert.deepEqual([...data.matchedSources].sort(), ['un_csl', 'us_ofac']);
      assert.equal(data.isMonitored, false);
      assert.equal(data.matchDetails.length, 2, 'one match per source row without groupByCluster');
      for (const match of data.matchDetails) {
        assert.ok(['us_ofac', 'un_csl'].includes(match.dataset));
        assert.equal(typeof match.datasetLabel, 'string');
        assert.ok(match.matchScore >= 0 && match.matchScore <= 100);
        assert.equal(match.entity.id, `${match.dataset}:${match.dataset === 'us_ofac' ? '1001' : '9001'}`);
        assert.equal(match.entity.entityType, 'person');
        assert.ok(Array.isArray(match.entity.programs) && match.entity.programs.length > 0);
        assert.match(match.entity.listingDate, /^\d{4}-\d{2}-\d{2}$/);
        assert.equal(match.listings, undefined);
        assert.equal(typeof match.explanation.summary, 'string');
        assert.ok(match.explanation.summary.length > 20);
        assert.equal(typeof match.explanation.matchedName, 'string');
        assert.ok(match.explanation.alignment.length >= 2);
        assert.ok(match.explanation.corroboration.birthDate, 'the birth date is part of the explanation');
        assert.ok(match.explanation.corroboration.birthDate.effect > 0);
      }
      // The body is sent pre-serialized: it carries nothing the documented schema does not have.
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const fields = (schema: { properties: Record<string, unknown> }) => new Set(Object.keys(schema.properties));
      const extra = (value: object, schema: { properties: Record<string, unknown> }) =>
        Object.keys(value).filter((k) => !fields(schema).has(k));
      assert.deepEqual(Object.keys(res.body), ['success', 'data']);
      assert.deepEqual(extra(data, ScreeningResult), []);
      assert.deepEqual(Object.keys(data), Object.keys(ScreeningResult.properties), 'every field, in the schema order');
      for (const match of data.matchDetails) {
        assert.deepEqual(extra(match, Match), []);
        assert.deepEqual(extra(match.entity, MatchedEntity), []);
      }
      // Scores carry at most one decimal (DECISIONS.md).
      for (const n of [
        data.riskScore,
        data.confidence,
        ...data.matchDetails.map((m: { matchScore: number }) => m.matchScore),
      ]) {
        assert.equal(Math.round(n * 10) / 10, n);
      }
    });

    it('a contradicting birth date lowers the score of the same name', async () => {
      const same = await screen({ name: 'Rustam Karimov', birthDate: '1961-04-12' });
      const contradicting = await screen({ name: 'Rustam Karimov', birthDate: '1990-09-30' });
      assert.ok(
        contradicting.body.data.riskScore < same.body.data.riskScore,
        `${contradicting.body.data.riskScore} < ${same.body.data.riskScore}`,
      );
    });

    it('an innocent name: riskScore 0, low, null entity, no sources, no details', async () => {
      const res = await screen({ name: 'Margaret Eleanor Whitfield', country: 'GB' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        { ...res.body.data, screeningId: 'x' },
        {
          screeningId: 'x',
          entityId: null,
          entityName: null,
          riskScore: 0,
          riskLevel: 'low',
          confidence: 0,
          matchedSources: [],
          matchDetails: [],
          isMonitored: false,
          warnings: [],
        },
      );
    });

    it('groupByCluster collapses the same party across lists into one match with listings', async () => {
      const grouped = await screen({ name: 'Rustam Karimov', groupByCluster: true });
      assert.equal(grouped.status, 200, grouped.text);
      const clusters = grouped.body.data.matchDetails.filter((m: { listings?: unknown[] }) => m.listings);
      assert.equal(grouped.body.data.matchDetails.length, 1, grouped.text);
      assert.equal(clusters.length, 1);
      const listings = clusters[0].listings as {
        dataset: string;
        datasetLabel: string;
        entityId: string;
        name: string;
        programs: string[];
        listingDate?: string;
      }[];
      assert.deepEqual(listings.map((l) => l.entityId).sort(), ['un_csl:9001', 'us_ofac:1001']);
      for (const l of listings) {
        assert.equal(typeof l.datasetLabel, 'string');
        assert.equal(typeof l.name, 'string');
        assert.ok(l.programs.length > 0);
        assert.match(l.listingDate ?? '', /^\d{4}-\d{2}-\d{2}$/);
      }
      assert.deepEqual([...grouped.body.data.matchedSources].sort(), ['un_csl', 'us_ofac']);

      const flat = await screen({ name: 'Rustam Karimov', groupByCluster: false });
      assert.equal(flat.body.data.matchDetails.length, 2);
      assert.ok(flat.body.data.matchDetails.every((m: { listings?: unknown }) => m.listings === undefined));
    });

    it('business is an alias of organization: stored and matched as organization', async () => {
      const business = await screen({ name: 'Zarya Shipping LLC', entityType: 'business' });
      const organization = await screen({ name: 'Zarya Shipping LLC', entityType: 'organization' });
      assert.equal(business.status, 200, business.text);
      assert.equal(business.body.data.entityId, 'us_ofac:1002');
      assert.equal(business.body.data.riskScore, organization.body.data.riskScore);
      assert.deepEqual(business.body.data.matchDetails, organization.body.data.matchDetails);
      const record = await t.request('GET', `/v1/screenings/${business.body.data.screeningId}`, { key: org.key });
      assert.equal(record.body.data.entityType, 'organization');
    });

    describe('Idempotency-Key', () => {
      it('a replay returns the same body with Idempotency-Replayed: true, no second record, no second quota unit', async () => {
        const body = { name: 'Blue Horizon Trading FZE', entityType: 'organization', country: 'AE' };
        const beforeTotal = await total();
        const beforeUsed = await used();
        const first = await screen(body, { idem: 'idem-replay-1' });
        assert.equal(first.status, 200, first.text);
        assert.equal(first.headers.get('idempotency-replayed'), null);
        clock.advance(60 * 60 * 1000);
        // Unknown fields and key order do not make it a different request.
        const replay = await screen(
          { country: 'AE', entityType: 'organization', name: 'Blue Horizon Trading FZE', note: 'x' },
          { idem: 'idem-replay-1' },
        );
        assert.equal(replay.status, 200, replay.text);
        assert.equal(replay.headers.get('idempotency-replayed'), 'true');
        assertCommonHeaders(replay);
        assert.deepEqual(replay.body, first.body);
        assert.equal(await total(), beforeTotal + 1);
        assert.equal(await used(), beforeUsed + 1);
      });

      it('the same key with a different body: 422 IDEMPOTENCY_KEY_MISMATCH, nothing stored', async () => {
        await screen({ name: 'Rustam Karimov' }, { idem: 'idem-mismatch' });
        const beforeTotal = await total();
        const beforeUsed = await used();
        assertError(
          await screen({ name: 'Rustam Karimova' }, { idem: 'idem-mismatch' }),
          422,
          'IDEMPOTENCY_KEY_MISMATCH',
        );
        assertError(
          await screen({ name: 'Rustam Karimov', country: 'UZ' }, { idem: 'idem-mismatch' }),
          422,
          'IDEMPOTENCY_KEY_MISMATCH',
        );
        assertError(
          await screen({ name: 'Rustam Karimov', groupByCluster: true }, { idem: 'idem-mismatch' }),
          422,
          'IDEMPOTENCY_KEY_MISMATCH',
        );
        assert.equal(await total(), beforeTotal);
        assert.equal(await used(), beforeUsed);
      });

      it('a key over 255 characters: 400 VALIDATION_ERROR naming Idempotency-Key; 255 is accepted', async () => {
        assertError(await screen({ name: 'Rustam Karimov' }, { idem: 'k'.repeat(256) }), 400, 'VALIDATION_ERROR', {
          field: 'Idempotency-Key',
        });
        const ok = await screen({ name: 'Rustam Karimov' }, { idem: 'k'.repeat(255) });
        assert.equal(ok.status, 200, ok.text);
      });

      it('a replay after 24 hours executes anew', async () => {
        const body = { name: 'Zarya Shipping' };
        const first = await screen(body, { idem: 'idem-24h' });
        clock.advance(DAY - 1000);
        const within = await screen(body, { idem: 'idem-24h' });
        assert.equal(within.headers.get('idempotency-replayed'), 'true');
        assert.equal(within.body.data.screeningId, first.body.data.screeningId);
        clock.advance(1000);
        const beforeTotal = await total();
        const later = await screen(body, { idem: 'idem-24h' });
        assert.equal(later.status, 200, later.text);
        assert.equal(later.headers.get('idempotency-replayed'), null);
        assert.notEqual(later.body.data.screeningId, first.body.data.screeningId);
        assert.equal(await total(), beforeTotal + 1);
        // And the new execution is what a replay now returns.
        const replay = await screen(body, { idem: 'idem-24h' });
        assert.equal(replay.body.data.screeningId, later.body.data.screeningId);
      });

      it('the same key while the first request is in flight: 409 CONFLICT', async () => {
        const body = { name: 'Rustam Karimov', country: 'UZ' };
        const first = await screen(body, { idem: 'idem-inflight' });
        assert.equal(first.status, 200);
        const db = t.ctx.database.db;
        // Put the key back in the state it has while its first request runs.
        await db
          .updateTable('idempotency_keys')
          .set({ state: 'running', response_status: null, response_body: null, screening_id: null })
          .where('org_id', '=', org.orgId)
          .where('key', '=', 'idem-inflight')
          .execute();
        const beforeTotal = await total();
        assertError(await screen(body, { idem: 'idem-inflight' }), 409, 'CONFLICT');
        assert.equal(await total(), beforeTotal);
        // The 409 leaves the running claim to its owner.
        const row = await db
          .selectFrom('idempotency_keys')
          .select('state')
          .where('org_id', '=', org.orgId)
          .where('key', '=', 'idem-inflight')
          .executeTakeFirst();
        assert.equal(row?.state, 'running');

        // A running claim for a different body is a mismatch first: the body, not the timing, is wrong.
        await db
          .insertInto('idempotency_keys')
          .values({
            org_id: org.orgId,
            key: 'idem-other-node',
            request_hash: 'hash-of-another-body',
            state: 'running',
            response_status: null,
            response_body: null,
            screening_id: null,
            created_at: clock.now().toISOString(),
          })
          .execute();
        assertError(await screen(body, { idem: 'idem-other-node' }), 422, 'IDEMPOTENCY_KEY_MISMATCH');

        // Once the first request has finished, the key replays.
        await db
          .updateTable('idempotency_keys')
          .set({
            state: 'done',
            response_status: 200,
            response_body: JSON.stringify(first.body),
            screening_id: first.body.data.screeningId,
          })
          .where('org_id', '=', org.orgId)
          .where('key', '=', 'idem-inflight')
          .execute();
        const replay = await screen(body, { idem: 'idem-inflight' });
        assert.equal(replay.headers.get('idempotency-replayed'), 'true');
        assert.deepEqual(replay.body, first.body);
      });

      it('keys are scoped per organization', async () => {
        const mine = await screen({ name: 'Rustam Karimov' }, { idem: 'shared-key-name' });
        const theirs = await screen({ name: 'Zarya Shipping' }, { key: other.key, idem: 'shared-key-name' });
        assert.equal(theirs.status, 200, theirs.text);
        assert.equal(theirs.headers.get('idempotency-replayed'), null);
        assert.notEqual(theirs.body.data.screeningId, mine.body.data.screeningId);
        // The same body under the same key in the other organization is its own execution too.
        const theirsSame = await screen({ name: 'Rustam Karimov' }, { key: other.key, idem: 'shared-key-name-2' });
        const mineSame = await screen({ name: 'Rustam Karimov' }, { idem: 'shared-key-name-2' });
        assert.notEqual(mineSame.body.data.screeningId, theirsSame.body.data.screeningId);
        assert.equal(mineSame.headers.get('idempotency-replayed'), null);
        const mine404 = await t.request('GET', `/v1/screenings/${theirsSame.body.data.screeningId}`, { key: org.key });
        assertError(mine404, 404, 'NOT_FOUND');
      });

      it('a request rejected by validation is not stored under its key', async () => {
        assertError(
          await screen({ name: 'Rustam Karimov', country: 'XX' }, { idem: 'idem-invalid' }),
          400,
          'VALIDATION_ERROR',
          { field: 'country' },
        );
        const ok = await screen({ name: 'Rustam Karimov' }, { idem: 'idem-invalid' });
        assert.equal(ok.status, 200, ok.text);
        assert.equal(ok.headers.get('idempotency-replayed'), null);
      });
    });

    describe('isMonitored and the same search', () => {
      let monitoredScreeningId: string;
      before(async () => {
        const base = await screen({ name: 'Zarya Shipping LLC', entityType: 'business', country: 'ru' });
        assert.equal(base.body.data.isMonitored, false);
        monitoredScreeningId = base.body.data.screeningId;
        // What POST /monitors stores: a live monitor carrying the search of that screening.
        const db = t.ctx.database.db;
        const row = await db
          .selectFrom('screenings')
          .selectAll()
          .where('id', '=', monitoredScreeningId)
          .executeTakeFirstOrThrow();
        await db
          .insertInto('monitors')
          .values({
            id: newId('mon', clock.now()),
            org_id: org.orgId,
            screening_id: row.id,
            search_key: row.search_key,
            query: row.query,
            entity_type: row.entity_type,
            country: row.country,
            birth_date: row.birth_date,
            entity_name: row.entity_name,
            risk_threshold: 55,
            is_active: 1,
            last_risk_score: row.risk_score,
            last_risk_level: row.risk_level,
            last_sources: row.matched_sources,
            last_entity_id: row.entity_id,
            last_list_versions: row.list_versions,
            last_screened_at: row.created_at,
            rescreen_generation: null,
            external_id: null,
            created_at: clock.now().toISOString(),
            removed_at: null,
          })
          .execute();
      });

      const same: [string, Record<string, unknown>][] = [
        ['identical', { name: 'Zarya Shipping LLC', entityType: 'business', country: 'ru' }],
        ['business folded to organization', { name: 'Zarya Shipping LLC', entityType: 'organization', country: 'RU' }],
        ['letter case and spacing', { name: '  zarya   SHIPPING\tllc ', entityType: 'organization', country: 'Ru' }],
        ['NFKC (full-width letters)', { name: 'ＺＡＲＹＡ Shipping ＬＬＣ', entityType: 'business', country: 'RU' }],
        [
          'groupByCluster is not part of the search',
          { name: 'Zarya Shipping LLC', entityType: 'business', country: 'RU', groupByCluster: true },
        ],
      ];
      for (const [label, body] of same) {
        it(`isMonitored true: ${label}`, async () => {
          const res = await screen(body);
          assert.equal(res.status, 200, res.text);
          assert.equal(res.body.data.isMonitored, true);
        });
      }

      const different: [string, Record<string, unknown>][] = [
        ['another country', { name: 'Zarya Shipping LLC', entityType: 'organization', country: 'UA' }],
        ['no country', { name: 'Zarya Shipping LLC', entityType: 'organization' }],
        ['another entity type', { name: 'Zarya Shipping LLC', entityType: 'vessel', country: 'RU' }],
        [
          'a birth date added',
          { name: 'Zarya Shipping LLC', entityType: 'organization', country: 'RU', birthDate: '2001-01-01' },
        ],
        ['another name', { name: 'Zarya Shipping', entityType: 'organization', country: 'RU' }],
      ];
      for (const [label, body] of different) {
        it(`isMonitored false: ${label}`, async () => {
          const res = await screen(body);
          assert.equal(res.status, 200, res.text);
          assert.equal(res.body.data.isMonitored, false);
        });
      }

      it('after POST /v1/monitors, new screenings of that search return isMonitored true', async () => {
        const base = await screen({ name: 'Blue Horizon Trading FZE', entityType: 'organization', country: 'AE' });
        assert.equal(base.body.data.isMonitored, false);
        const created = await t.request('POST', '/v1/monitors', {
          key: org.key,
          body: { screeningId: base.body.data.screeningId },
        });
        assert.equal(created.status, 201, created.text);
        assert.equal(created.body.data.isNew, true);
        const again = await screen({ name: ' blue horizon  TRADING fze', entityType: 'business', country: 'ae' });
        assert.equal(again.body.data.isMonitored, true);
        // Monitoring the same search again is a 409.
        const duplicate = await t.request('POST', '/v1/monitors', {
          key: org.key,
          body: { screeningId: again.body.data.screeningId },
        });
        assertError(duplicate, 409, 'CONFLICT');
      });

      it('another organization screening the same search is not monitored', async () => {
        const res = await screen(
          { name: 'Zarya Shipping LLC', entityType: 'business', country: 'RU' },
          { key: other.key },
        );
        assert.equal(res.body.data.isMonitored, false);
      });

      it('the stored screening reports isMonitored in GET /screenings and GET /screenings/{id}', async () => {
        const record = await t.request('GET', `/v1/screenings/${monitoredScreeningId}`, { key: org.key });
        assert.equal(record.body.data.isMonitored, true);
        const list = await t.request('GET', '/v1/screenings?search=zarya&pageSize=100', { key: org.key });
        const item = list.body.data.find((s: { id: string }) => s.id === monitoredScreeningId);
        assert.equal(item?.isMonitored, true);
      });
    });
  });
}
