import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import { cli } from '../helpers/cli.js';
import { activateCsl, cslDocument } from '../helpers/csl-versions.js';
import { ENGINES, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { GENEROUS_LIMITS, assertError } from '../helpers/http-assert.js';

/**
 * Analyst decisions (issue 13): the lifecycle and validation of POST /screenings/{id}/decisions,
 * suppression in POST /screen, GET /decisions, four-eyes, the audit log, and another organization
 * that never sees or affects any of it.
 */

const LISTED = 'us_csl:9935';
const NAMESAKE = 'Sofian Abdelrazik';
const DAY = 24 * 60 * 60 * 1000;

interface MatchBody {
  entity: { id: string };
  suppressed?: true;
  decisionId?: string;
  suppressionLapsed?: { decisionId: string; reason: string };
  decision?: { id: string; decision: string; status: string };
}

for (const { engine, skip } of ENGINES) {
  describe(`decisions (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    let other: SeededOrg;
    let secondKey: string;
    const clock = new ManualClock('2026-04-01T09:00:00.000Z');

    const screen = async (body: Record<string, unknown>, key = org.key) => {
      clock.advance(1000);
      const res = await t.request('POST', '/v1/screen', { key, body });
      assert.equal(res.status, 200, res.text);
      return res.body.data as {
        screeningId: string;
        riskScore: number;
        riskLevel: string;
        entityId: string | null;
        matchDetails: MatchBody[];
      };
    };
    const matchOf = (data: { matchDetails: MatchBody[] }, id = LISTED) =>
      data.matchDetails.find((m) => m.entity.id === id);
    const decide = (screeningId: string, body: Record<string, unknown>, key = org.key) => {
      clock.advance(1000);
      return t.request('POST', `/v1/screenings/${screeningId}/decisions`, { key, body });
    };

    before(async () => {
      t = await startTestApp(engine, { clock, env: GENEROUS_LIMITS });
      org = await seedOrg(t.ctx);
      other = await seedOrg(t.ctx);
      const { tenants } = t.ctx.services;
      await tenants.addUser({ ctx: t.ctx.operator, input: { org: org.slug, email: `second@${org.slug}.test` } });
      secondKey = (
        await tenants.createApiKey({ ctx: t.ctx.operator, input: { org: org.slug, email: `second@${org.slug}.test` } })
      ).key;
      await activateCsl(t, cslDocument());
    });
    after(async () => t?.close());

    let first: Awaited<ReturnType<typeof screen>>;
    let decisionId: string;

    it('refuses bad decisions with VALIDATION_ERROR naming the field, and unknown or foreign screenings with 404', async () => {
      first = await screen({ name: NAMESAKE, externalId: 'cust-1' });
      assert.equal(first.riskLevel, 'high', JSON.stringify(first).slice(0, 300));
      assert.equal(first.entityId, LISTED);
      const id = first.screeningId;
      const fp = { entityId: LISTED, decision: 'false_positive', reason: 'different_birth_date' };
      const cases: [Record<string, unknown>, string][] = [
        [{ ...fp, decision: 'maybe' }, 'decision'],
        [{ entityId: LISTED, decision: 'false_positive' }, 'reason'],
        [{ ...fp, reason: 'looks_different' }, 'reason'],
        [{ ...fp, reason: 'other' }, 'note'],
        [{ ...fp, reason: 'other', note: '   ' }, 'note'],
        [{ ...fp, note: 'x'.repeat(2001) }, 'note'],
        [{ ...fp, entityId: 'us_csl:24668' }, 'entityId'],
        [{ decision: 'false_positive', reason: 'other', note: 'n' }, 'entityId'],
        [{ ...fp, entityId: 42 }, 'entityId'],
      ];
      for (const [body, field] of cases) assertError(await decide(id, body), 400, 'VALIDATION_ERROR', { field });
      assertError(await decide('scr_00000000000000000000000000', fp), 404, 'NOT_FOUND');
      assertError(await decide(id, fp, other.key), 404, 'NOT_FOUND');
      // Nothing was written by any of them.
      const listed = await t.request('GET', '/v1/decisions', { key: org.key });
      assert.equal(listed.body.meta.pagination.total, 0);
    });

    it('records a false positive (201) by the key user; GET /screenings/{id} shows it on the match', async () => {
      const res = await decide(first.screeningId, {
        entityId: LISTED,
        decision: 'false_positive',
        reason: 'different_birth_date',
        note: 'customer born 1990, listed person 1962',
      });
      assert.equal(res.status, 201, res.text);
      const d = res.body.data;
      decisionId = d.id;
      assert.match(d.id, /^dec_/);
      assert.equal(d.status, 'effective');
      assert.equal(d.decidedBy, org.email);
      assert.equal(d.externalId, 'cust-1');
      assert.equal(d.matchLevel, 'high');
      assert.equal(d.reviewAt, new Date(clock.now().getTime() + 365 * DAY).toISOString());
      const record = await t.request('GET', `/v1/screenings/${first.screeningId}`, { key: org.key });
      assert.equal(matchOf(record.body.data)?.decision?.id, d.id);
      assert.equal(typeof record.body.data.engineVersion, 'string');
      assert.match(record.body.data.engineVersion, /^\d+\.\d+\.\d+\+scoring\.[0-9a-f]{16}\.code\.[0-9a-f]{16}$/);
    });

    it('suppresses the match for the same customer: returned, marked, raising neither risk nor level', async () => {
      const again = await screen({ name: NAMESAKE, externalId: 'cust-1' });
      const m = matchOf(again);
      assert.ok(m, 'the suppressed match is still returned');
      assert.equal(m.suppressed, true);
      assert.equal(m.decisionId, decisionId);
      assert.equal(again.riskScore, 0);
      assert.equal(again.riskLevel, 'low');
      assert.equal(again.entityId, null);
      // Spelling and case of the same search with the same reference: the same customer.
      const spaced = await screen({ name: '  sofian   ABDELRAZIK ', externalId: 'cust-1' });
      assert.equal(matchOf(spaced)?.suppressed, true);
      // Another customer reference, or none, is another customer: not suppressed.
      for (const body of [{ name: NAMESAKE, externalId: 'cust-9' }, { name: NAMESAKE }]) {
        const s = await screen(body);
        assert.equal(matchOf(s)?.suppressed, undefined);
        assert.equal(s.riskLevel, 'high');
      }
    });

    it('another organization never sees or is affected by the decision', async () => {
      const theirs = await screen({ name: NAMESAKE, externalId: 'cust-1' }, other.key);
      assert.equal(theirs.riskLevel, 'high');
      assert.equal(matchOf(theirs)?.suppressed, undefined);
      const list = await t.request('GET', '/v1/decisions', { key: other.key });
      assert.equal(list.body.meta.pagination.total, 0);
      assertError(
        await t.request('POST', `/v1/decisions/${decisionId}/approve`, { key: other.key, body: {} }),
        404,
        'NOT_FOUND',
      );
      assertError(await t.request('GET', `/v1/screenings/${first.screeningId}`, { key: other.key }), 404, 'NOT_FOUND');
      // Their own decision on their own screening does not reach the first organization.
      const own = await decide(
        theirs.screeningId,
        { entityId: LISTED, decision: 'confirmed', reason: 'name_coincidence' },
        other.key,
      );
      assert.equal(own.status, 201, own.text);
      const mine = await screen({ name: NAMESAKE, externalId: 'cust-1' });
      assert.equal(matchOf(mine)?.suppressed, true);
    });

    it('GET /decisions lists newest first with filters', async () => {
      const confirm = await decide(first.screeningId, {
        entityId: LISTED,
        decision: 'needs_information',
      });
      assert.equal(confirm.status, 201, confirm.text);
      assert.equal(confirm.body.data.reason, null);
      const all = await t.request('GET', '/v1/decisions', { key: org.key });
      assert.equal(all.status, 200, all.text);
      assert.deepEqual(
        all.body.data.map((d: { id: string }) => d.id),
        [confirm.body.data.id, decisionId],
      );
      const q = async (query: string) =>
        (await t.request('GET', `/v1/decisions?${query}`, { key: org.key })).body.data.map((d: { id: string }) => d.id);
      assert.deepEqual(await q('decision=false_positive'), [decisionId]);
      assert.deepEqual(await q('externalId=cust-1&decision=needs_information'), [confirm.body.data.id]);
      assert.deepEqual(await q(`screeningId=${first.screeningId}&pageSize=1`), [confirm.body.data.id]);
      assert.deepEqual(await q(`entityId=${encodeURIComponent('us_csl:1')}`), []);
      assert.deepEqual(await q('status=pending'), []);
      assertError(await t.request('GET', '/v1/decisions?status=done', { key: org.key }), 400, 'VALIDATION_ERROR', {
        field: 'status',
      });
      assertError(
        await t.request('GET', '/v1/decisions?dateFrom=yesterday', { key: org.key }),
        400,
        'VALIDATION_ERROR',
        { field: 'dateFrom' },
      );
      // The latest decision on the match is now needs_information, which suppresses nothing.
      const now = await screen({ name: NAMESAKE, externalId: 'cust-1' });
      assert.equal(matchOf(now)?.suppressed, undefined);
      assert.equal(now.riskLevel, 'high');
      const record = await t.request('GET', `/v1/screenings/${now.screeningId}`, { key: org.key });
      assert.equal(matchOf(record.body.data)?.decision?.decision, 'needs_information');
    });

    it('four-eyes: a high false positive waits for a second user; nobody approves their own', async () => {
      await t.ctx.services.tenants.updateOrganization({
        ctx: t.ctx.operator,
        input: { org: org.slug, fourEyes: 'high', reviewDays: 30 },
      });
      const s = await screen({ name: NAMESAKE, externalId: 'cust-2' });
      const res = await decide(s.screeningId, {
        entityId: LISTED,
        decision: 'false_positive',
        reason: 'other',
        note: 'checked',
      });
      assert.equal(res.status, 201, res.text);
      const pending = res.body.data;
      assert.equal(pending.status, 'pending');
      assert.equal(pending.reviewAt, null);
      // Not in force yet.
      const waiting = await screen({ name: NAMESAKE, externalId: 'cust-2' });
      assert.equal(matchOf(waiting)?.suppressed, undefined);
      assert.equal(waiting.riskLevel, 'high');
      const approve = (key: string) => t.request('POST', `/v1/decisions/${pending.id}/approve`, { key, body: {} });
      assertError(await approve(org.key), 403, 'FORBIDDEN');
      assertError(await approve(other.key), 404, 'NOT_FOUND');
      const ok = await approve(secondKey);
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.body.data.status, 'effective');
      assert.equal(ok.body.data.approvedBy, `second@${org.slug}.test`);
      assert.equal(ok.body.data.reviewAt, new Date(clock.now().getTime() + 30 * DAY).toISOString());
      assertError(await approve(secondKey), 409, 'CONFLICT');
      const after = await screen({ name: NAMESAKE, externalId: 'cust-2' });
      assert.equal(matchOf(after)?.suppressed, true);
      assert.equal(matchOf(after)?.decisionId, pending.id);
      // Confirmations never wait, and four-eyes "off" lets a false positive take effect at once.
      const confirmed = await decide(s.screeningId, {
        entityId: LISTED,
        decision: 'confirmed',
        reason: 'name_coincidence',
      });
      assert.equal(confirmed.body.data.status, 'effective');
      await t.ctx.services.tenants.updateOrganization({
        ctx: t.ctx.operator,
        input: { org: org.slug, fourEyes: 'off' },
      });
      const direct = await decide(s.screeningId, {
        entityId: LISTED,
        decision: 'false_positive',
        reason: 'name_coincidence',
      });
      assert.equal(direct.body.data.status, 'effective');
      await assert.rejects(
        t.ctx.services.tenants.updateOrganization({ ctx: t.ctx.operator, input: { org: org.slug, fourEyes: 'some' } }),
        /four-eyes/,
      );
    });

    it('the review date lapses a suppression (moved clock), and the match says why', async () => {
      // cust-2's last false positive was made with a 30-day review period.
      clock.advance(31 * DAY);
      const later = await screen({ name: NAMESAKE, externalId: 'cust-2' });
      const m = matchOf(later);
      assert.equal(m?.suppressed, undefined);
      assert.equal(m?.suppressionLapsed?.reason, 'review_date_passed');
      assert.equal(later.riskLevel, 'high');
      const lapsed = await t.request('GET', '/v1/decisions?status=lapsed', { key: org.key });
      assert.ok(lapsed.body.data.some((d: { lapseReason: string }) => d.lapseReason === 'review_date_passed'));
    });

    it('changed customer data under the same externalId lapse the suppression', async () => {
      const s = await screen({ name: NAMESAKE, externalId: 'cust-3' });
      const made = await decide(s.screeningId, {
        entityId: LISTED,
        decision: 'false_positive',
        reason: 'name_coincidence',
      });
      assert.equal(made.status, 201, made.text);
      assert.equal(matchOf(await screen({ name: NAMESAKE, externalId: 'cust-3' }))?.suppressed, true);
      const changed = await screen({ name: NAMESAKE, externalId: 'cust-3', entityType: 'person' });
      assert.equal(matchOf(changed)?.suppressionLapsed?.reason, 'customer_data_changed');
      assert.equal(changed.riskLevel, 'high');
      // Lapsed for good: the old data do not bring it back.
      const back = await screen({ name: NAMESAKE, externalId: 'cust-3' });
      assert.equal(matchOf(back)?.suppressed, undefined);
      assert.equal(matchOf(back)?.suppressionLapsed?.reason, 'customer_data_changed');
    });

    it('audit verify passes, exports every step with list versions, and names the entry after a row is altered', async () => {
      const { audit } = t.ctx.services;
      // Screenings' entries are placed in their chain by the sealer (a background job on a server).
      await t.ctx.jobs.auditSeal.sealNow();
      const ok = await audit.verify({ ctx: t.ctx.operator, input: {} });
      assert.equal(ok.ok, true, JSON.stringify(ok.broken));
      assert.ok(ok.entries > 20);
      const viaCli = await cli(t.env, ['audit', 'verify', '--org', org.slug, '--json']);
      assert.equal(viaCli.code, 0, viaCli.stderr);
      assert.equal(viaCli.json.ok, true);

      const jsonl = await audit.export({
        ctx: t.ctx.operator,
        input: { org: org.slug, from: '2026-04-01', to: '2027-12-31', format: 'jsonl' },
      });
      const entries = jsonl.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { event: string; data: Record<string, unknown>; chain: string });
      const events = new Set(entries.map((e) => e.event));
      for (const e of [
        'list.activated',
        'org.updated',
        'user.added',
        'key.created',
        'screening.created',
        'decision.created',
        'decision.approved',
        'decision.lapsed',
      ])
        assert.ok(events.has(e), `${e} exported`);
      const screening = entries.find((e) => e.event === 'screening.created')!;
      assert.match(String((screening.data.listVersions as string[])[0]), /^us_csl:lv_/);
      assert.equal(typeof screening.data.engineVersion, 'string');
      // Nothing of the other organization.
      assert.ok(entries.every((e) => e.chain === org.slug || e.chain === 'system'));
      const csv = await audit.export({
        ctx: t.ctx.operator,
        input: { org: org.slug, from: '2026-04-01', to: '2027-12-31', format: 'csv' },
      });
      assert.equal(csv.text.split('\n')[0], 'chain,seq,at,event,actor,subject,data,prev_hash,content_hash,entry_hash');
      assert.equal(csv.entries, entries.length);
      await assert.rejects(
        audit.export({ ctx: t.ctx.operator, input: { org: org.slug, from: 'x', to: '2027-01-01', format: 'csv' } }),
        (e: { code?: string; field?: string }) => e.code === 'VALIDATION_ERROR' && e.field === 'from',
      );
      await assert.rejects(
        audit.export({
          ctx: t.ctx.operator,
          input: { org: org.slug, from: '2026-01-01', to: '2027-01-01', format: 'xml' },
        }),
        (e: { field?: string }) => e.field === 'format',
      );

      // A stored screening edited behind the service's back: verify names the entry that recorded it.
      const db = t.ctx.database.db;
      await db.updateTable('screenings').set({ risk_score: 1 }).where('id', '=', first.screeningId).execute();
      const edited = await audit.verify({ ctx: t.ctx.operator, input: { org: org.slug } });
      assert.equal(edited.ok, false);
      assert.equal(edited.broken[0]?.event, 'screening.created');
      assert.match(edited.broken[0]!.problem, new RegExp(first.screeningId));
      await db
        .updateTable('screenings')
        .set({ risk_score: first.riskScore })
        .where('id', '=', first.screeningId)
        .execute();
      assert.equal((await audit.verify({ ctx: t.ctx.operator, input: { org: org.slug } })).ok, true);

      // One audit row altered directly: verify (and the command line, exit 1) names it.
      const target = await db
        .selectFrom('audit_log')
        .select(['id', 'seq'])
        .where('chain', '=', org.orgId)
        .where('event', '=', 'decision.created')
        .orderBy('seq')
        .executeTakeFirstOrThrow();
      await db.updateTable('audit_log').set({ data: '{"decision":"confirmed"}' }).where('id', '=', target.id).execute();
      const broken = await audit.verify({ ctx: t.ctx.operator, input: {} });
      assert.equal(broken.ok, false);
      assert.equal(broken.broken.length, 1);
      assert.equal(broken.broken[0]?.id, target.id);
      assert.equal(broken.broken[0]?.seq, target.seq);
      const viaCliBroken = await cli(t.env, ['audit', 'verify']);
      assert.equal(viaCliBroken.code, 1);
      assert.match(viaCliBroken.stdout, new RegExp(`entry ${target.seq} \\(${target.id}`));
      // The other organization's chain is intact.
      assert.equal((await audit.verify({ ctx: t.ctx.operator, input: { org: other.slug } })).ok, true);
    });
  });
}
