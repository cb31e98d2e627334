import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import { imoCheckDigit } from '../../src/identifiers/index.js';
import { addIdentifier } from '../../src/lists/adapters/kit/record.js';
import { emptyRecord, type EntityType, type Identifier, type ListRecord } from '../../src/lists/model.js';
import {
  ENGINES,
  type SeededOrg,
  type TestApp,
  activateRecords,
  sampleRecords,
  seedOrg,
  startTestApp,
} from '../helpers/harness.js';
import { GENEROUS_LIMITS, assertError } from '../helpers/http-assert.js';

/** Identifier screening (issue 15) over HTTP: validation, matching in the matching thread, storage, idempotency, monitors. */

const TANKER_IMO = '930456' + String(imoCheckDigit('930456', 'ship'));
const BAD_IMO = '930456' + String((imoCheckDigit('930456', 'ship') + 1) % 10);

/** A record whose identifiers are read as an adapter reads them. */
function listed(
  source: ListRecord['source'],
  id: string,
  type: EntityType,
  name: string,
  ids: Identifier[],
): ListRecord {
  const r = emptyRecord(source, id, type, name);
  for (const i of ids) addIdentifier(r, i);
  return r;
}

/** An LEI with valid check digits (ISO 7064 MOD 97-10) made for this test. */
const CHONG_LEI = '5493001KJTIIGC8Y1R12';

/** OFAC's listing of a shipping company by its company IMO number (SDN.CSV remarks), with an LEI and BIC added here. */
function shippingCompany(): ListRecord {
  return listed('us_ofac', '17067', 'organization', 'CHONGCHONGANG SHIPPING COMPANY LIMITED', [
    { type: 'imo', value: 'IMO 5342883' },
    { type: 'lei', value: CHONG_LEI },
    { type: 'swift', value: 'CHONKPPY' },
  ]);
}

function tanker(): ListRecord {
  const r = { ...emptyRecord('us_ofac', '7001', 'vessel', 'SEA DRAGON'), programs: ['IRAN'] };
  addIdentifier(r, { type: 'imo', value: `IMO ${TANKER_IMO}` });
  addIdentifier(r, { type: 'mmsi', value: '422123456' });
  return r;
}

for (const { engine, skip } of ENGINES) {
  describe(`identifiers on POST /v1/screen and /v1/monitors (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    const base = sampleRecords();
    before(async () => {
      t = await startTestApp(engine, { clock: new ManualClock('2026-01-15T12:00:00.000Z'), env: GENEROUS_LIMITS });
      org = await seedOrg(t.ctx, { tier: 'starter' });
      await activateRecords(t.ctx, 'us_ofac', [...base.us_ofac, tanker(), shippingCompany()]);
      await activateRecords(t.ctx, 'un_csl', base.un_csl);
    });
    after(async () => t?.close());

    const screen = (body: unknown, idem?: string) =>
      t.request('POST', '/v1/screen', {
        key: org.key,
        body,
        ...(idem !== undefined ? { headers: { 'Idempotency-Key': idem } } : {}),
      });
    const stored = async () => (await t.ctx.database.db.selectFrom('screenings').select('id').execute()).length;

    it('a renamed tanker found by its IMO number: high, explained by the IMO number and the name score; stored with the screening', async () => {
      const res = await screen({
        name: 'Ocean Star',
        entityType: 'vessel',
        identifiers: [{ type: 'imo', value: `IMO ${TANKER_IMO}` }],
      });
      assert.equal(res.status, 200, res.text);
      const data = res.body.data;
      assert.equal(data.entityId, 'us_ofac:7001');
      assert.equal(data.riskLevel, 'high');
      const explanation = data.matchDetails[0].explanation;
      assert.equal(explanation.corroboration.identifier.outcome, 'match');
      assert.equal(explanation.corroboration.identifier.type, 'imo');
      assert.equal(explanation.corroboration.identifier.value, TANKER_IMO);
      assert.equal(typeof explanation.corroboration.identifier.nameScore, 'number');
      assert.match(
        explanation.summary,
        new RegExp(`IMO number ${TANKER_IMO} is the listed vessel's IMO number \\(printed "IMO ${TANKER_IMO}"\\)`),
      );
      assert.equal(explanation.corroboration.identifier.decisive, true);
      const record = await t.request('GET', `/v1/screenings/${data.screeningId}`, { key: org.key });
      assert.equal(record.status, 200, record.text);
      assert.deepEqual(record.body.data.identifiers, [
        { type: 'imo', value: `IMO ${TANKER_IMO}`, normalized: TANKER_IMO },
      ]);
      // The same name without the number finds nothing.
      const bare = await screen({ name: 'Ocean Star', entityType: 'vessel' });
      assert.equal(bare.body.data.riskLevel, 'low');
      const none = await t.request('GET', `/v1/screenings/${bare.body.data.screeningId}`, { key: org.key });
      assert.deepEqual(none.body.data.identifiers, []);
    });

    it('passport numbers with spaces or dashes match the listed one', async () => {
      for (const value of ['AB 123 4567', 'ab-1234567']) {
        const res = await screen({ name: 'Rustam Karimov', identifiers: [{ type: 'passport', value, country: 'uz' }] });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.data.riskLevel, 'high');
        assert.equal(res.body.data.matchDetails[0].explanation.corroboration.identifier.outcome, 'match', value);
      }
    });

    it('a malformed value, an unknown type, a misplaced currency, too many: 400 VALIDATION_ERROR naming the field, nothing stored', async () => {
      const before = await stored();
      const cases: [unknown[], string][] = [
        [[{ type: 'imo', value: 'IMO 93045' }], 'identifiers[0].value'],
        [
          [
            { type: 'passport', value: 'X1' },
            { type: 'lei', value: '5493001KJTIIGC8Y1R1' },
          ],
          'identifiers[1].value',
        ],
        [[{ type: 'bic', value: 'EXCBZZMM' }], 'identifiers[0].value'],
        [[{ type: 'bic', value: 'EXC-1' }], 'identifiers[0].value'],
        [[{ type: 'mmsi', value: '12345678' }], 'identifiers[0].value'],
        [[{ type: 'lei', value: '5493001KJTIIGC8Y1R1A' }], 'identifiers[0].value'],
        [[{ type: 'passport', value: ' -- ' }], 'identifiers[0].value'],
        [[{ type: 'ssn', value: '123' }], 'identifiers[0].type'],
        [[{ type: 'passport', value: 'X1', currency: 'BTC' }], 'identifiers[0].currency'],
        [[{ type: 'passport', value: 'X1', country: 'ZZ' }], 'identifiers[0].country'],
        [[{ value: 'X1' }], 'identifiers[0].type'],
        [Array.from({ length: 21 }, (_, i) => ({ type: 'passport', value: `X${i}` })), 'identifiers'],
      ];
      for (const [identifiers, field] of cases) {
        const res = await screen({ name: 'Ocean Star', identifiers }, `bad-${field}-${identifiers.length}`);
        assertError(res, 400, 'VALIDATION_ERROR', { field });
      }
      assert.equal(await stored(), before);
    });

    it('a well-formed value whose check fails is screened as written, with a warning stored and shown again', async () => {
      const company = '123456' + String(imoCheckDigit('123456', 'company'));
      assert.notEqual(imoCheckDigit('123456', 'company'), imoCheckDigit('123456', 'ship'));
      // A company's number for an organization: no warning.
      const org1 = await screen({
        name: 'X',
        entityType: 'organization',
        identifiers: [{ type: 'imo', value: company }],
      });
      assert.equal(org1.status, 200, org1.text);
      assert.deepEqual(org1.body.data.warnings, []);
      const cases: [unknown[], string, string, RegExp][] = [
        [[{ type: 'imo', value: BAD_IMO }], 'identifiers[0].value', 'CHECKSUM_MISMATCH', /IMO check digit/],
        // The company scheme's number given for a vessel: screened, and the warning says what it is.
        [[{ type: 'imo', value: company }], 'identifiers[0].value', 'CHECKSUM_MISMATCH', /a company's number/],
        [
          [
            { type: 'passport', value: 'X1' },
            { type: 'lei', value: '5493001KJTIIGC8Y1R13' },
          ],
          'identifiers[1].value',
          'CHECKSUM_MISMATCH',
          /MOD 97-10/,
        ],
        [[{ type: 'mmsi', value: '123456789' }], 'identifiers[0].value', 'UNALLOCATED_MID', /123/],
      ];
      for (const [identifiers, field, code, message] of cases) {
        const res = await screen({ name: 'Ocean Star', entityType: 'vessel', identifiers });
        assert.equal(res.status, 200, res.text);
        const warnings = res.body.data.warnings as { field: string; code: string; message: string }[];
        assert.equal(warnings.length, 1, JSON.stringify(warnings));
        assert.equal(warnings[0]!.field, field);
        assert.equal(warnings[0]!.code, code);
        assert.match(warnings[0]!.message, message);
        const record = await t.request('GET', `/v1/screenings/${res.body.data.screeningId}`, { key: org.key });
        assert.deepEqual(record.body.data.warnings, warnings);
      }
      // A ship's number with a wrong check digit still finds the ship that prints it so.
      const typo = listed('uk_csl', '9001', 'vessel', 'TYPO QUEEN', [{ type: 'imo', value: BAD_IMO }]);
      await activateRecords(t.ctx, 'uk_csl', [typo]);
      const found = await screen({
        name: 'Ocean Star',
        entityType: 'vessel',
        identifiers: [{ type: 'imo', value: BAD_IMO }],
      });
      assert.equal(found.body.data.entityId, 'uk_csl:9001');
      assert.equal(found.body.data.riskLevel, 'high');
      assert.equal(found.body.data.warnings[0].code, 'CHECKSUM_MISMATCH');
    });

    it('decisive identifiers: a company IMO number and an LEI find their listing at high under another name', async () => {
      for (const identifiers of [
        [{ type: 'imo', value: '5342883' }],
        [{ type: 'lei', value: CHONG_LEI }],
        [{ type: 'bic', value: 'CHONKPPYXXX' }],
      ]) {
        const res = await screen({ name: 'Meridian Blue Holdings', entityType: 'organization', identifiers });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.data.entityId, 'us_ofac:17067', JSON.stringify(identifiers));
        assert.equal(res.body.data.riskLevel, 'high', JSON.stringify(identifiers));
        const id = res.body.data.matchDetails[0].explanation.corroboration.identifier;
        assert.equal(id.decisive, true);
        assert.equal(id.nameScore, 0);
        assert.match(
          res.body.data.matchDetails[0].explanation.summary,
          /is the listed entity's .*; the name differs: screened as "Meridian Blue Holdings", listed as "CHONGCHONGANG SHIPPING COMPANY LIMITED" \(the name alone scores 0;/,
        );
      }
      // A passport is unique only within its country: under an unrelated name, a lead for review...
      const passport = await screen({
        name: 'Maria Gonzalez',
        identifiers: [{ type: 'passport', value: 'AB1234567' }],
      });
      assert.equal(passport.body.data.riskLevel, 'medium');
      // ... and high when both sides name the same issuing country.
      const same = await screen({
        name: 'Maria Gonzalez',
        identifiers: [{ type: 'passport', value: 'AB1234567', country: 'UZ' }],
      });
      assert.equal(same.body.data.riskLevel, 'high');
      assert.match(same.body.data.matchDetails[0].explanation.summary, /the same issuing country \(UZ\)/);
    });

    it('idempotency: the same identifiers written otherwise or in another order replay; other identifiers are another body', async () => {
      const body = {
        name: 'Ocean Star',
        identifiers: [
          { type: 'imo', value: TANKER_IMO },
          { type: 'mmsi', value: '422123456' },
        ],
      };
      const first = await screen(body, 'idem-ids');
      assert.equal(first.status, 200, first.text);
      const replay = await screen(
        {
          name: 'Ocean Star',
          identifiers: [
            { type: 'mmsi', value: '422 123 456' },
            { type: 'imo', value: `imo ${TANKER_IMO}` },
          ],
        },
        'idem-ids',
      );
      assert.equal(replay.status, 200, replay.text);
      assert.equal(replay.headers.get('idempotency-replayed'), 'true');
      assert.deepEqual(replay.body, first.body);
      assertError(await screen({ name: 'Ocean Star' }, 'idem-ids'), 422, 'IDEMPOTENCY_KEY_MISMATCH');
      assertError(
        await screen({ name: 'Ocean Star', identifiers: [{ type: 'imo', value: TANKER_IMO }] }, 'idem-ids'),
        422,
        'IDEMPOTENCY_KEY_MISMATCH',
      );
    });

    it('the same search includes the identifiers: monitored with them, another writing is monitored too, without them it is not', async () => {
      const s = await screen({ name: 'Zarya Shipping', identifiers: [{ type: 'registration', value: 'RU-77 001' }] });
      assert.equal(s.status, 200, s.text);
      const m = await t.request('POST', '/v1/monitors', {
        key: org.key,
        body: { screeningId: s.body.data.screeningId },
      });
      assert.equal(m.status, 201, m.text);
      const again = await screen({
        name: 'ZARYA  shipping',
        identifiers: [{ type: 'registration', value: 'ru77001' }],
      });
      assert.equal(again.body.data.isMonitored, true);
      const without = await screen({ name: 'Zarya Shipping' });
      assert.equal(without.body.data.isMonitored, false);
      const conflict = await t.request('POST', '/v1/monitors', {
        key: org.key,
        body: { screeningId: again.body.data.screeningId },
      });
      assertError(conflict, 409, 'CONFLICT');
    });

    it("POST /v1/monitors adds identifiers to the screening's; rescreens use them", async () => {
      // Screened by name alone: nothing matches "Ocean Queen".
      const s = await screen({ name: 'Ocean Queen', entityType: 'vessel' });
      assert.equal(s.body.data.riskLevel, 'low');
      assertError(
        await t.request('POST', '/v1/monitors', {
          key: org.key,
          body: { screeningId: s.body.data.screeningId, identifiers: [{ type: 'imo', value: '93045' }] },
        }),
        400,
        'VALIDATION_ERROR',
        { field: 'identifiers[0].value' },
      );
      const m = await t.request('POST', '/v1/monitors', {
        key: org.key,
        body: { screeningId: s.body.data.screeningId, identifiers: [{ type: 'imo', value: `IMO${TANKER_IMO}` }] },
      });
      assert.equal(m.status, 201, m.text);
      const list = await t.request('GET', '/v1/monitors?pageSize=100', { key: org.key });
      const item = list.body.data.find((x: { id: string }) => x.id === m.body.data.id);
      assert.deepEqual(item.identifiers, [{ type: 'imo', value: `IMO${TANKER_IMO}`, normalized: TANKER_IMO }]);
      // The search with the identifier is the monitored one, not the screening's name alone.
      assert.equal((await screen({ name: 'Ocean Queen', entityType: 'vessel' })).body.data.isMonitored, false);
      const withId = await screen({
        name: 'Ocean Queen',
        entityType: 'vessel',
        identifiers: [{ type: 'imo', value: TANKER_IMO }],
      });
      assert.equal(withId.body.data.isMonitored, true);
      // A list change makes every monitor due: the rescreen finds the tanker by its IMO number.
      await activateRecords(t.ctx, 'us_ofac', [...base.us_ofac, tanker(), shippingCompany()]);
      await t.ctx.jobs.rescreen.job.runUntilIdle();
      const row = await t.ctx.database.db
        .selectFrom('monitors')
        .selectAll()
        .where('id', '=', m.body.data.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.last_risk_level, 'high');
      assert.equal(row.last_entity_id, 'us_ofac:7001');
      const alerts = await t.ctx.database.db
        .selectFrom('alerts')
        .select('new_risk_level')
        .where('monitor_id', '=', m.body.data.id)
        .execute();
      assert.deepEqual(
        alerts.map((a) => a.new_risk_level),
        ['high'],
      );
    });

    it('the OpenAPI document describes the field and its types', async () => {
      const res = await t.request('GET', '/openapi.json');
      const text = JSON.stringify(res.body);
      assert.match(text, /IdentifierInput/);
      assert.match(text, /ScreeningWarning/);
      assert.match(text, /CHECKSUM_MISMATCH/);
      const doc = res.body as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
      assert.ok(doc.components.schemas.ScreeningResult!.properties.warnings);
      assert.ok(doc.components.schemas.ScreeningRecord!.properties.warnings);
      assert.ok(doc.components.schemas.BatchResultRow!.properties.warnings);
      for (const type of ['imo', 'mmsi', 'lei', 'bic', 'crypto_wallet', 'aircraft_registration'])
        assert.ok(text.includes(`"${type}"`), type);
    });
  });
}
