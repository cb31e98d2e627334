import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../helpers/harness.js';

/** The OpenAPI document describes every route and field of issue 13 (the document does not depend on the engine). */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('OpenAPI: decisions, externalId, suppression, engine version', () => {
  let t: TestApp;
  let doc: Json;
  before(async () => {
    t = await startTestApp('sqlite');
    doc = (await t.request('GET', '/openapi.json')).body;
  });
  after(async () => t?.close());

  const schema = (name: string): Json => {
    const s = doc.components?.schemas?.[name];
    assert.ok(s, `components.schemas.${name}`);
    return s;
  };

  it('describes the decision routes with their bodies, answers and security', () => {
    for (const [path, method, status] of [
      ['/v1/screenings/{id}/decisions', 'post', '201'],
      ['/v1/alerts/{id}/decisions', 'post', '201'],
      ['/v1/decisions', 'get', '200'],
      ['/v1/decisions/{id}/approve', 'post', '200'],
    ] as const) {
      const op = doc.paths?.[path]?.[method];
      assert.ok(op, `${method} ${path}`);
      assert.equal(typeof op.operationId, 'string');
      assert.deepEqual(op.security, [{ apiKey: [] }]);
      assert.ok(op.responses[status], `${path} answers ${status}`);
      assert.ok(op.responses['404'] || method === 'get', `${path} documents 404`);
    }
    const params = doc.paths['/v1/decisions'].get.parameters.map((p: { name: string }) => p.name);
    for (const p of ['screeningId', 'alertId', 'entityId', 'externalId', 'decision', 'status', 'dateFrom', 'dateTo'])
      assert.ok(params.includes(p), `GET /v1/decisions ?${p}`);
    assert.ok(doc.paths['/v1/decisions/{id}/approve'].post.responses['409']);
    const request = schema('DecisionRequest');
    assert.deepEqual(request.required, ['entityId', 'decision']);
    assert.deepEqual(
      (request.properties.reason.anyOf ?? [])
        .map((r: { const?: string; enum?: string[] }) => r.const ?? r.enum?.[0])
        .concat(request.properties.reason.enum ?? []),
      [
        'different_birth_date',
        'different_nationality',
        'different_gender',
        'different_entity_type',
        'different_identifier',
        'name_coincidence',
        'other',
      ],
    );
    for (const f of ['status', 'decidedBy', 'approvedBy', 'reviewAt', 'lapseReason', 'listVersion'])
      assert.ok(schema('Decision').properties[f], `Decision.${f}`);
  });

  it('describes externalId, suppression fields and the engine version', () => {
    assert.ok(schema('ScreenRequest').properties.externalId);
    assert.ok(schema('CreateMonitorRequest').properties.externalId);
    for (const s of ['ScreeningRecord', 'ScreeningSummary', 'MonitorCreated', 'MonitorItem'])
      assert.ok(schema(s).properties.externalId, `${s}.externalId`);
    assert.ok(schema('ScreeningRecord').properties.engineVersion);
    for (const f of ['suppressed', 'decisionId', 'suppressionLapsed', 'decision'])
      assert.ok(schema('Match').properties[f], `Match.${f}`);
    const params = doc.paths['/v1/screenings'].get.parameters.map((p: { name: string }) => p.name);
    assert.ok(params.includes('externalId'));
  });
});
