import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import { cli } from '../helpers/cli.js';
import { type CslDocument, type CslEntry, activateCsl, cslDocument, cslEntry } from '../helpers/csl-versions.js';
import { ENGINES, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { GENEROUS_LIMITS } from '../helpers/http-assert.js';

/**
 * Suppression across rescreens (issue 13, item 6): a cleared pair stays silent over 30 list versions
 * in which its listing does not change (minor changes to it and other listings), and alerts again,
 * saying why, on each kind of major change, on a delisting and relisting, on changed customer data
 * and after the review date. The list versions are the US CSL JSON fixture in the publisher's format,
 * changed and parsed by the real adapter.
 */

const CSL_ID = '9935';
const LISTED = `us_csl:${CSL_ID}`;
const NAMESAKE = 'Sofian Abdelrazik';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

interface AlertRow {
  id: string;
  reasons: string;
  lapses: string | null;
  new_risk_level: string;
  match_details: string | null;
}

for (const { engine, skip } of ENGINES) {
  describe(`suppression across rescreens (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    let other: SeededOrg;
    let doc: CslDocument;
    const clock = new ManualClock('2026-05-01T08:00:00.000Z');
    let monitorId: string;
    let otherMonitorId: string;
    let screeningId: string;
    let seen = 0;

    /** A new list version: the document as it is after `change`, an hour after the last one. */
    const publish = async (change: (listed: CslEntry | undefined, all: CslDocument) => void) => {
      change(
        doc.results.find((r) => r.id === CSL_ID),
        doc,
      );
      clock.advance(HOUR);
      await activateCsl(t, doc);
      return t.ctx.jobs.rescreen.job.runUntilIdle();
    };
    const alertsOf = (monitor: string) =>
      t.ctx.database.db
        .selectFrom('alerts')
        .selectAll()
        .where('monitor_id', '=', monitor)
        .orderBy('created_at')
        .orderBy('id')
        .execute() as Promise<AlertRow[]>;
    /** Alerts of the monitor raised since the last call. */
    const newAlerts = async () => {
      const all = await alertsOf(monitorId);
      const fresh = all.slice(seen);
      seen = all.length;
      return fresh;
    };
    const clearOn = async (target: { screeningId?: string; alertId?: string }) => {
      clock.advance(1000);
      const path = target.alertId
        ? `/v1/alerts/${target.alertId}/decisions`
        : `/v1/screenings/${target.screeningId}/decisions`;
      const res = await t.request('POST', path, {
        key: org.key,
        body: { entityId: LISTED, decision: 'false_positive', reason: 'different_birth_date' },
      });
      assert.equal(res.status, 201, res.text);
      return res.body.data as { id: string; status: string };
    };
    /** The one alert a change raised: high again, saying the suppression lapsed and why. */
    const expectLapseAlert = async (reason: string) => {
      const fresh = await newAlerts();
      assert.equal(fresh.length, 1, `one alert for ${reason}`);
      const a = fresh[0]!;
      assert.ok(JSON.parse(a.reasons).includes('suppression_lapsed'), a.reasons);
      assert.deepEqual(
        JSON.parse(a.lapses ?? '[]').map((l: { entityId: string; reason: string }) => [l.entityId, l.reason]),
        [[LISTED, reason]],
      );
      assert.equal(a.new_risk_level, 'high');
      assert.ok(JSON.parse(a.match_details ?? '[]').some((m: { entity: { id: string } }) => m.entity.id === LISTED));
      return a;
    };
    const level = async (id = monitorId) =>
      (
        await t.ctx.database.db
          .selectFrom('monitors')
          .select('last_risk_level')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).last_risk_level;

    before(async () => {
      t = await startTestApp(engine, { clock, env: GENEROUS_LIMITS });
      org = await seedOrg(t.ctx, { tier: 'starter' });
      other = await seedOrg(t.ctx, { tier: 'starter' });
      doc = cslDocument();
      await activateCsl(t, doc);
      for (const who of [org, other]) {
        const s = await t.request('POST', '/v1/screen', { key: who.key, body: { name: NAMESAKE, externalId: 'c-77' } });
        assert.equal(s.status, 200, s.text);
        assert.equal(s.body.data.riskLevel, 'high');
        const m = await t.request('POST', '/v1/monitors', {
          key: who.key,
          body: { screeningId: s.body.data.screeningId },
        });
        assert.equal(m.status, 201, m.text);
        if (who === org) {
          screeningId = s.body.data.screeningId;
          monitorId = m.body.data.id;
        } else otherMonitorId = m.body.data.id;
      }
    });
    after(async () => t?.close());

    it('a cleared pair stays silent over 30 list versions in which its listing does not change', async () => {
      await clearOn({ screeningId });
      for (let v = 1; v <= 30; v++) {
        await publish((listed, all) => {
          // Minor changes to the cleared listing (remarks, addresses) and changes to other listings.
          listed!.remarks = `remark of version ${v}`;
          listed!.addresses = [{ address: `Street ${v}`, city: 'Montreal', country: 'CA' }];
          const otherEntry = cslEntry(all, '24668');
          otherEntry.alt_names = [`AFRICAN TRANS HOLDINGS ${v}`];
        });
        assert.deepEqual(await newAlerts(), [], `no alert at version ${v}`);
      }
      assert.equal(await level(), 'low');
      // The other organization's monitor of the same customer was never cleared: it stays high, without alerts.
      assert.equal(await level(otherMonitorId), 'high');
      assert.equal((await alertsOf(otherMonitorId)).length, 0);
    });

    const majorChanges: [string, (listed: CslEntry) => void][] = [
      ['an alias added', (e) => (e.alt_names = [...e.alt_names, 'ABDELRAZIQ, Sufyan'])],
      ['a birth date changed', (e) => (e.dates_of_birth = ['1962-08-07'])],
      ['a nationality added', (e) => (e.nationalities = [...e.nationalities, 'EG'])],
      ['an identifier changed', (e) => (e.ids = [{ ...e.ids[0], number: 'BC166788' }])],
      ['a program added', (e) => (e.programs = [...e.programs, 'SDT'])],
    ];
    for (const [what, change] of majorChanges) {
      it(`alerts again when ${what}, then stays silent once cleared anew`, async () => {
        const alert = await (async () => {
          await publish((listed) => change(listed!));
          return expectLapseAlert('listing_changed');
        })();
        // Cleared again on the alert's own match: silent at the next version.
        await clearOn({ alertId: alert.id });
        await publish((listed) => (listed!.remarks = `after ${what}`));
        assert.deepEqual(await newAlerts(), []);
        assert.equal(await level(), 'low');
      });
    }

    it('alerts again when the listing is removed and listed again unchanged', async () => {
      const saved = cslEntry(doc, CSL_ID);
      await publish((_listed, all) => {
        all.results = all.results.filter((r) => r.id !== CSL_ID);
      });
      assert.deepEqual(await newAlerts(), [], 'a delisting of a cleared match is no alert');
      await publish((_listed, all) => {
        all.results.unshift(saved);
      });
      const a = await expectLapseAlert('delisted_and_relisted');
      await clearOn({ alertId: a.id });
      await publish((listed) => (listed!.remarks = 'after relisting'));
      assert.deepEqual(await newAlerts(), []);
    });

    it('alerts again when the customer data under the same externalId change', async () => {
      const changed = await t.request('POST', '/v1/screen', {
        key: org.key,
        body: { name: NAMESAKE, externalId: 'c-77', country: 'CA' },
      });
      assert.equal(changed.status, 200, changed.text);
      const m = changed.body.data.matchDetails.find((x: { entity: { id: string } }) => x.entity.id === LISTED);
      assert.equal(m.suppressionLapsed.reason, 'customer_data_changed');
      await publish((listed) => (listed!.remarks = 'after the customer changed'));
      const a = await expectLapseAlert('customer_data_changed');
      await clearOn({ alertId: a.id });
      await publish((listed) => (listed!.remarks = 'cleared once more'));
      assert.deepEqual(await newAlerts(), []);
    });

    it('alerts again after the review date (moved clock), and the audit chain holds every step', async () => {
      clock.advance(366 * DAY);
      // No list change: the daily rescreen finds the monitor due by age.
      await t.ctx.jobs.rescreen.job.runUntilIdle();
      await expectLapseAlert('review_date_passed');
      // Screenings' entries are placed in their chain by the sealer (a background job on a server).
      await t.ctx.jobs.auditSeal.sealNow();
      const report = await t.ctx.services.audit.verify({ ctx: t.ctx.operator, input: { org: org.slug } });
      assert.equal(report.ok, true, JSON.stringify(report.broken));
      const events = await t.ctx.database.db
        .selectFrom('audit_log')
        .select(['event'])
        .where('chain', '=', org.orgId)
        .execute();
      const count = (e: string) => events.filter((x) => x.event === e).length;
      assert.equal(count('alert.created'), (await alertsOf(monitorId)).length);
      assert.ok(count('decision.lapsed') >= 8, `${count('decision.lapsed')} lapses recorded`);
      assert.equal(count('monitor.created'), 1);
      // Alerts carry the decisions on their matches and the lapses (command line), another organization gets 404.
      const listed = await cli(t.env, ['alerts', 'list', '--org', org.slug, '--json']);
      assert.equal(listed.code, 0, listed.stderr);
      const newest = listed.json[0];
      assert.deepEqual(
        newest.lapsedSuppressions.map((l: { reason: string }) => l.reason),
        ['review_date_passed'],
      );
      assert.equal(newest.decisions[0].entityId, LISTED);
      assert.equal(newest.decisions[0].status, 'lapsed');
      const foreign = await t.request('POST', `/v1/alerts/${newest.id}/decisions`, {
        key: other.key,
        body: { entityId: LISTED, decision: 'false_positive', reason: 'different_birth_date' },
      });
      assert.equal(foreign.status, 404, foreign.text);
      // The command line decides on the alert for a member, and lists the decisions.
      const added = await cli(t.env, [
        'decisions',
        'add',
        '--org',
        org.slug,
        '--user',
        org.email,
        '--alert',
        newest.id,
        '--entity',
        LISTED,
        '--decision',
        'false_positive',
        '--reason',
        'different_identifier',
        '--json',
      ]);
      assert.equal(added.code, 0, added.stderr + added.stdout);
      assert.equal(added.json.status, 'effective');
      const decided = await cli(t.env, ['decisions', 'list', '--org', org.slug, '--status', 'effective', '--json']);
      assert.equal(decided.code, 0, decided.stderr);
      assert.ok(decided.json.some((d: { id: string }) => d.id === added.json.id));
      const bad = await cli(t.env, [
        'decisions',
        'add',
        '--org',
        org.slug,
        '--user',
        org.email,
        '--alert',
        newest.id,
        '--entity',
        LISTED,
        '--decision',
        'false_positive',
        '--json',
      ]);
      assert.equal(bad.code, 2);
      assert.equal(bad.json.error.code, 'VALIDATION_ERROR');
      const settings = await cli(t.env, [
        'orgs',
        'update',
        '--org',
        org.slug,
        '--four-eyes',
        'all',
        '--review-days',
        '90',
        '--json',
      ]);
      assert.equal(settings.code, 0, settings.stderr);
      assert.equal(settings.json.fourEyes, 'all');
      assert.equal(settings.json.reviewDays, 90);
      // The other organization's monitor alerted only for the delisting and the relisting, never for a suppression.
      const theirs = await alertsOf(otherMonitorId);
      assert.equal(theirs.length, 2);
      assert.ok(theirs.every((a) => !a.reasons.includes('suppression_lapsed') && a.lapses === null));
    });
  });
}
