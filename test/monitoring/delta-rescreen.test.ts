/**
 * The delta pass (issue 30, item 3) raises exactly the alerts a full pass would: two deployments
 * with the same seeded monitors and lists take the same change set (an addition, a removal, an
 * alias added, an alias removed, a program changed); one follows it with a delta pass only, the
 * other with a full pass only. Their alerts are the same, the delta pass rescreened fewer monitors,
 * and the full pass that follows the delta raises nothing more.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import type { ListRecord } from '../../src/lists/model.js';
import {
  ENGINES,
  type SeededOrg,
  type TestApp,
  activateRecords,
  organization,
  person,
  seedOrg,
  startTestApp,
} from '../helpers/harness.js';

const BASE: ListRecord[] = [
  person('us_ofac', '3001', 'VOLKOV, Dmitri Sergeyevich', {
    aliases: [{ name: 'Dima Volkov', quality: 'strong', kind: 'aka' }],
    birthDates: [{ date: '1968-07-21' }],
    nationalities: ['RU'],
    programs: ['RUSSIA-EO14024'],
  }),
  person('us_ofac', '3002', 'HADDAD, Karim Youssef', { programs: ['SDGT'], nationalities: ['LB'] }),
  organization('us_ofac', '3003', 'NORTHERN STAR MARITIME LLC', { programs: ['IRAN'] }),
  organization('us_ofac', '3004', 'GOLDEN CRESCENT EXCHANGE', {
    aliases: [{ name: 'Crescent Money Transfer', quality: 'strong', kind: 'aka' }],
    programs: ['SDGT'],
  }),
  person('us_ofac', '3005', 'TANAKA, Hiroshi', { programs: ['DPRK3'] }),
  organization('us_ofac', '3006', 'BALTIC FERRO TRADING OU', { programs: ['RUSSIA-EO14024'] }),
];

const CHANGED: ListRecord[] = [
  // An alias added: Sergei Volkoff now matches it.
  { ...BASE[0]!, aliases: [...BASE[0]!.aliases, { name: 'Sergei Volkoff', quality: 'strong', kind: 'aka' }] },
  // 3002 removed (delisted).
  BASE[2]!,
  // An alias removed: Crescent Money Transfer no longer listed.
  { ...BASE[3]!, aliases: [] },
  // A program changed only.
  { ...BASE[4]!, programs: ['DPRK3', 'DPRK4'] },
  BASE[5]!,
  // An addition.
  organization('us_ofac', '3007', 'PACIFIC ORCHID SHIPPING CO', { programs: ['DPRK3'] }),
];

/** The monitored customers: some the change set reaches, some it cannot. */
const CUSTOMERS = [
  'Sergei Volkoff',
  'Dmitri Volkov',
  'Karim Haddad',
  'Crescent Money Transfer',
  'Golden Crescent Exchange',
  'Hiroshi Tanaka',
  'Pacific Orchid Shipping',
  'Northern Star Maritime',
  'Baltic Ferro Trading',
  'Amelia Hartwell',
  'Okonkwo Industries Ltd',
  'Lindqvist Forestry AB',
];

interface Deployment {
  t: TestApp;
  org: SeededOrg;
}

async function deploy(engine: 'sqlite' | 'postgres'): Promise<Deployment> {
  const clock = new ManualClock('2026-04-01T08:00:00.000Z');
  const t = await startTestApp(engine, { clock });
  const org = await seedOrg(t.ctx, { tier: 'professional' });
  await activateRecords(t.ctx, 'us_ofac', BASE);
  for (const name of CUSTOMERS) {
    const s = await t.request('POST', '/v1/screen', { key: org.key, body: { name } });
    assert.equal(s.status, 200, s.text);
    const m = await t.request('POST', '/v1/monitors', { key: org.key, body: { screeningId: s.body.data.screeningId } });
    assert.equal(m.status, 201, m.text);
  }
  // Every monitor has been screened against the base lists.
  const first = await t.ctx.jobs.rescreen.runPass();
  assert.equal(first?.alerts, 0);
  clock.advance(60_000);
  await activateRecords(t.ctx, 'us_ofac', CHANGED);
  return { t, org };
}

/** The alerts of a deployment, by customer: what a user of either one would see. */
async function alertsByCustomer(d: Deployment) {
  const rows = await d.t.ctx.database.db
    .selectFrom('alerts as a')
    .innerJoin('monitors as m', 'm.id', 'a.monitor_id')
    .select([
      'm.query',
      'a.entity_id',
      'a.old_risk_score',
      'a.new_risk_score',
      'a.old_risk_level',
      'a.new_risk_level',
      'a.old_sources',
      'a.new_sources',
      'a.reasons',
    ])
    .execute();
  return rows.sort((a, b) => a.query.localeCompare(b.query));
}

for (const { engine, skip } of ENGINES) {
  describe(`delta rescreening (${engine})`, { skip }, () => {
    let delta: Deployment;
    let full: Deployment;
    before(async () => {
      delta = await deploy(engine);
      full = await deploy(engine);
    });
    after(async () => {
      await delta?.t.close();
      await full?.t.close();
    });

    it('a delta pass raises exactly the alerts of a full pass, over fewer monitors, and the full pass after it adds none', async () => {
      const d = await delta.t.ctx.jobs.rescreen.runPass('delta');
      const f = await full.t.ctx.jobs.rescreen.runPass('full');
      assert.ok(d?.delta && f, `${JSON.stringify(d)} ${JSON.stringify(f)}`);
      assert.equal(f.delta, undefined, 'the full pass ran no delta');
      assert.equal(d.delta.entities, 5, 'one addition, one removal, three changed');
      assert.equal(f.rescreened, CUSTOMERS.length);
      assert.ok(d.rescreened < CUSTOMERS.length, `the delta pass rescreened ${d.rescreened} of ${CUSTOMERS.length}`);
      // Found through the monitors' terms: the five customers whose names share no part with a changed
      // entity (Northern Star, Baltic Ferro, Amelia Hartwell, Okonkwo, Lindqvist) are not even read.
      assert.equal(d.delta.reached, CUSTOMERS.length - 5, `the index reached ${d.delta.reached} monitors`);
      const terms = await delta.t.ctx.database.db.selectFrom('monitors').select('terms_at').execute();
      assert.ok(
        terms.every((m) => m.terms_at !== null),
        'every monitor was keyed by the first pass',
      );

      const fromDelta = await alertsByCustomer(delta);
      const fromFull = await alertsByCustomer(full);
      assert.ok(fromFull.length >= 4, `the change set raises alerts: ${JSON.stringify(fromFull)}`);
      assert.deepEqual(fromDelta, fromFull);
      // The change set reaches these customers and no others.
      assert.deepEqual(
        fromFull.map((a) => a.query),
        ['Crescent Money Transfer', 'Karim Haddad', 'Pacific Orchid Shipping', 'Sergei Volkoff'],
      );

      const rest = await delta.t.ctx.jobs.rescreen.runPass();
      assert.equal(rest?.alerts, 0, 'no alert twice, none missed');
      assert.equal(rest?.delta, undefined, 'the delta was done');
      assert.equal((rest?.rescreened ?? 0) + d.rescreened, CUSTOMERS.length, 'the full pass rescreened the rest');
      assert.deepEqual(await alertsByCustomer(delta), fromFull);
    });
  });
}
