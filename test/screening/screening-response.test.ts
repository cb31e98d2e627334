/**
 * The screening responses against the route schemas they are documented by, for real screenings
 * through the running service: POST /screen writes its body as text around the matches' JSON
 * (screening-response.ts), so nothing but this check ties that text to the ScreeningResult schema.
 * The schemas are closed here (no property they do not name), except where they say they are open.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type TSchema, Type } from '@sinclair/typebox';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { envelope } from '../../src/http/schemas.js';
import { unCslAdapter } from '../../src/lists/adapters/un-csl.js';
import { syncDerived } from '../../src/ownership/ownership-sync.js';
import { SCREENING_SCHEMAS, ScreeningRecord, ScreeningResult } from '../../src/screening/screening-schemas.js';
import {
  ENGINES,
  SHARED_DATA,
  type SeededOrg,
  type TestApp,
  activateRecords,
  organization,
  sampleRecords,
  seedOrg,
  startTestApp,
} from '../helpers/harness.js';
import { GENEROUS_LIMITS, loadSampleLists } from '../helpers/http-assert.js';

const UN_DIR = resolve(SHARED_DATA, 'lists/un_csl');
const OWNERSHIP = resolve(process.cwd(), 'test/fixtures/ownership/aggregate');

/** A copy of a schema in which every object that does not say otherwise allows no other properties. */
function closed<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(closed) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = closed(value);
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined)
    out.additionalProperties = false;
  return out as T;
}

function validator() {
  const ajv = new Ajv.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  for (const schema of SCREENING_SCHEMAS) ajv.addSchema(closed(schema));
  const compile = (schema: TSchema) => {
    const check = ajv.compile(closed(schema));
    return (body: unknown, what: string) =>
      assert.ok(check(body), `${what}: ${ajv.errorsText(check.errors)}\n${JSON.stringify(body).slice(0, 400)}`);
  };
  return {
    result: compile(envelope(Type.Ref(ScreeningResult), 'POST /screen')),
    record: compile(envelope(Type.Ref(ScreeningRecord), 'GET /screenings/{id}')),
  };
}

/** Requests that reach every shape of answer: listed, several lists, grouped, corroborated, derived, no match. */
const REQUESTS: Record<string, unknown>[] = [
  { name: 'Rustam Karimov' },
  { name: 'KARIMOV Rustam Alievich', birthDate: '1961-04-12', country: 'uz', entityType: 'person' },
  { name: 'Rustam Karimov', groupByCluster: true },
  { name: 'Zarya Shipping', entityType: 'business', country: 'RU' },
  { name: 'Joint Venture Target LLC', entityType: 'business' },
  { name: 'Joint Venture Target LLC', groupByCluster: true },
  { name: 'Emily Johnson', country: 'US' },
  { name: 'Ζωή Παπαδοπούλου' },
  // An LEI whose check digits fail: screened, with a warning.
  { name: 'Zarya Shipping', identifiers: [{ type: 'lei', value: '5493001KJTIIGC8Y1R13' }] },
];

for (const { engine, skip } of ENGINES) {
  describe(`screening responses against their schemas (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    const check = validator();

    before(async () => {
      t = await startTestApp(engine, { env: GENEROUS_LIMITS });
      org = await seedOrg(t.ctx);
      await loadSampleLists(t.ctx);
      // The listed owners of the ownership fixture, so that us_ofac_50 derives a blocked company.
      const owner = (id: string, name: string, lei: string) =>
        organization('us_ofac', id, name, {
          list: 'SDN',
          programs: ['RUSSIA-EO14024'],
          identifiers: [{ type: 'lei', value: lei }],
        });
      await activateRecords(t.ctx, 'us_ofac', [
        ...sampleRecords().us_ofac,
        owner('201', 'LISTED ALPHA BANK', '5493AGGLISTA00000083'),
        owner('202', 'LISTED BETA ENERGY', '5493AGGLISTB00000002'),
      ]);
      const derived = await syncDerived(t.ctx.operator, OWNERSHIP);
      assert.equal(derived.status, 'updated', derived.message ?? '');
      await t.ctx.runtime.refresh();
    });
    after(async () => t?.close());

    const screenAndCheck = async (body: Record<string, unknown>, idempotencyKey?: string) => {
      const res = await t.request('POST', '/v1/screen', {
        key: org.key,
        body,
        ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}),
      });
      assert.equal(res.status, 200, res.text);
      check.result(res.body, `POST /screen ${JSON.stringify(body)}`);
      const stored = await t.request('GET', `/v1/screenings/${res.body.data.screeningId}`, { key: org.key });
      assert.equal(stored.status, 200, stored.text);
      check.record(stored.body, `GET /screenings/{id} of ${JSON.stringify(body)}`);
      assert.deepEqual(stored.body.data.matchDetails, res.body.data.matchDetails, 'stored as answered');
      return res;
    };

    it('every answer of POST /screen and GET /screenings/{id} has the documented shape', async () => {
      const shapes = new Set<string>();
      for (const body of REQUESTS) {
        const data = (await screenAndCheck(body)).body.data;
        shapes.add(data.matchDetails.length === 0 ? 'no match' : 'match');
        if (data.matchDetails.some((m: { listings?: unknown }) => m.listings)) shapes.add('listings');
        if (data.matchDetails.some((m: { entity: { derivation?: unknown } }) => m.entity.derivation))
          shapes.add('derivation');
        if (data.matchedSources.length > 1) shapes.add('several lists');
      }
      // The requests reach what they are meant to: otherwise the check above proves less than it says.
      assert.deepEqual([...shapes].sort(), ['derivation', 'listings', 'match', 'no match', 'several lists']);
    });

    it('a replay answers the stored text, of the same shape', async () => {
      const first = await screenAndCheck({ name: 'Rustam Karimov', groupByCluster: true }, 'schema-replay');
      const again = await t.request('POST', '/v1/screen', {
        key: org.key,
        body: { name: 'Rustam Karimov', groupByCluster: true },
        headers: { 'Idempotency-Key': 'schema-replay' },
      });
      assert.equal(again.headers.get('idempotency-replayed'), 'true');
      assert.equal(again.text, first.text);
    });

    it(
      'answers against the real UN list have the documented shape',
      {
        skip: existsSync(UN_DIR) ? false : `${UN_DIR} is absent`,
      },
      async () => {
        const { records } = await unCslAdapter.parse(UN_DIR);
        await activateRecords(t.ctx, 'un_csl', records);
        // Listed names as they stand in the list, spread over it; some with their birth date, some grouped.
        for (let i = 0; i < 8; i++) {
          const record = records[Math.floor((i * records.length) / 8)]!;
          const birthDate = record.birthDates.find((b) => /^\d{4}-\d{2}-\d{2}$/.test(b.date))?.date;
          const body = {
            name: record.name,
            ...(i % 2 === 0 && birthDate ? { birthDate } : {}),
            ...(i % 3 === 0 ? { groupByCluster: true } : {}),
          };
          const data = (await screenAndCheck(body)).body.data;
          assert.ok(data.matchDetails.length > 0, `${record.name} is listed: it matches`);
        }
      },
    );
  });
}
