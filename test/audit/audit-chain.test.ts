import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { contentHash, entryHash } from '../../src/audit/audit-store.js';
import { ManualClock } from '../../src/infra/clock.js';
import { ENGINES, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { GENEROUS_LIMITS, loadSampleLists } from '../helpers/http-assert.js';

/**
 * The audit chains under concurrency (issue 13, item 5): screenings written by group commit on two
 * nodes of one database at once, with decisions and key changes between them, leave each
 * organization one unbroken chain (no fork, no gap); removing or inserting an entry is found.
 */

for (const { engine, skip } of ENGINES) {
  describe(`audit chains under concurrent writers (${engine})`, { skip }, () => {
    let a: TestApp;
    let b: TestApp;
    let orgs: SeededOrg[];
    const clock = new ManualClock('2026-06-01T10:00:00.000Z');

    before(async () => {
      a = await startTestApp(engine, { clock, env: GENEROUS_LIMITS });
      // A second node of the same deployment (on SQLite: a second connection to the same file).
      b = await startTestApp(engine, { clock, shared: a.env });
      orgs = [await seedOrg(a.ctx), await seedOrg(a.ctx)];
      await loadSampleLists(a.ctx);
      await b.ctx.runtime.refresh();
    });
    after(async () => {
      await b?.close();
      await a?.close();
    });

    it('keeps one chain per organization with contiguous sequence numbers', async () => {
      const names = ['Rustam Karimov', 'Zarya Shipping LLC', 'Margaret Whitfield', 'Blue Horizon Trading FZE'];
      const requests = [];
      for (let i = 0; i < 120; i++) {
        const node = i % 2 === 0 ? a : b;
        const org = orgs[i % 3 === 0 ? 1 : 0]!;
        requests.push(
          node.request('POST', '/v1/screen', {
            key: org.key,
            body: { name: names[i % names.length], externalId: `c-${i % 7}` },
          }),
        );
        if (i % 30 === 0)
          requests.push(
            a.ctx.services.tenants
              .createApiKey({ ctx: a.ctx.operator, input: { org: org.slug, email: org.email } })
              .then(() => ({ status: 200, text: '' })),
          );
      }
      const answers = await Promise.all(requests);
      for (const r of answers) assert.equal(r.status, 200, r.text);
      // Screenings wait to be placed in their chain; verify counts them as not sealed, and finds nothing broken.
      const before = await b.ctx.services.audit.verify({ ctx: b.ctx.operator, input: {} });
      assert.equal(before.ok, true, JSON.stringify(before.broken));
      assert.ok(before.unsealed >= 120, `${before.unsealed} unsealed`);
      // Both nodes seal at once: one at a time places them (the lease), nothing twice. (Two SQLite
      // connections of one process cannot both be in a write: a busy wait there blocks the thread.)
      if (engine === 'postgres') await Promise.all([a.ctx.jobs.auditSeal.sealNow(), b.ctx.jobs.auditSeal.sealNow()]);
      else await b.ctx.jobs.auditSeal.sealNow();
      await a.ctx.jobs.auditSeal.sealNow();

      const db = a.ctx.database.db;
      for (const org of orgs) {
        const rows = await db
          .selectFrom('audit_log')
          .select(['seq', 'prev_hash', 'entry_hash', 'event'])
          .where('chain', '=', org.orgId)
          .orderBy('seq')
          .execute();
        assert.deepEqual(
          rows.map((r) => r.seq),
          rows.map((_, i) => i + 1),
          'no gap and no duplicate',
        );
        for (let i = 1; i < rows.length; i++) assert.equal(rows[i]!.prev_hash, rows[i - 1]!.entry_hash);
        const screenings = await db
          .selectFrom('screenings')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('org_id', '=', org.orgId)
          .executeTakeFirstOrThrow();
        assert.equal(rows.filter((r) => r.event === 'screening.created').length, Number(screenings.n));
      }
      const report = await b.ctx.services.audit.verify({ ctx: b.ctx.operator, input: {} });
      assert.equal(report.ok, true, JSON.stringify(report.broken));
      assert.equal(report.unsealed, 0);
      const pending = await db.selectFrom('audit_pending').select('id').execute();
      assert.deepEqual(pending, []);
    });

    it('names the gap when an entry is deleted, and the end when the last one is', async () => {
      const db = a.ctx.database.db;
      const org = orgs[1]!;
      const verify = () => a.ctx.services.audit.verify({ ctx: a.ctx.operator, input: { org: org.slug } });
      const last = await db
        .selectFrom('audit_log')
        .selectAll()
        .where('chain', '=', org.orgId)
        .orderBy('seq', 'desc')
        .executeTakeFirstOrThrow();
      await db.deleteFrom('audit_log').where('id', '=', last.id).execute();
      const tail = await verify();
      assert.equal(tail.ok, false);
      assert.equal(tail.broken[0]?.seq, last.seq);
      assert.match(tail.broken[0]!.problem, /missing at its end/);
      await db.insertInto('audit_log').values(last).execute();
      assert.equal((await verify()).ok, true);

      const middle = await db
        .selectFrom('audit_log')
        .selectAll()
        .where('chain', '=', org.orgId)
        .where('seq', '=', 5)
        .executeTakeFirstOrThrow();
      await db.deleteFrom('audit_log').where('id', '=', middle.id).execute();
      const gap = await verify();
      assert.equal(gap.broken[0]?.seq, 6);
      assert.match(gap.broken[0]!.problem, /entries are missing/);
      await db.insertInto('audit_log').values(middle).execute();
      assert.equal((await verify()).ok, true);
    });

    it('prunes only entries past the retention, and the chain still verifies from its first kept entry', async () => {
      const { audit } = a.ctx.services;
      const db = a.ctx.database.db;
      const none = await audit.prune({ ctx: a.ctx.operator, input: {} });
      assert.equal(none.deleted, 0);
      clock.set(new Date('2026-06-01T13:00:00.000Z'));
      const young = await a.request('POST', '/v1/screen', { key: orgs[0]!.key, body: { name: 'Rustam Karimov' } });
      assert.equal(young.status, 200, young.text);
      await a.ctx.jobs.auditSeal.sealNow();
      clock.set(new Date('2036-06-01T12:00:00.000Z'));
      const total = Number(
        (
          await db
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      const dry = await audit.prune({ ctx: a.ctx.operator, input: { dryRun: true } });
      assert.equal(dry.deleted, total - 1, 'every entry but the young screening is past ten years');
      const pruned = await audit.prune({ ctx: a.ctx.operator, input: {} });
      assert.equal(pruned.deleted, total - 1);
      assert.equal(pruned.before, '2026-06-01T12:00:00.000Z');
      const kept = await db.selectFrom('audit_log').select(['subject', 'event']).execute();
      assert.ok(kept.some((e) => e.subject === young.body.data.screeningId));
      assert.ok(kept.filter((e) => e.event === 'audit.pruned').length >= 2);
      const report = await audit.verify({ ctx: a.ctx.operator, input: {} });
      assert.equal(report.ok, true, JSON.stringify(report.broken));
      // A chain whose first entries were deleted without a prune entry is broken.
      const first = await db
        .selectFrom('audit_log')
        .selectAll()
        .where('chain', '=', orgs[0]!.orgId)
        .orderBy('seq')
        .executeTakeFirstOrThrow();
      await db.deleteFrom('audit_log').where('id', '=', first.id).execute();
      const cut = await audit.verify({ ctx: a.ctx.operator, input: { org: orgs[0]!.slug } });
      assert.equal(cut.ok, false);
      assert.match(cut.broken[0]!.problem, /not pruned/);
    });
  });
}

for (const { engine, skip } of ENGINES) {
  describe(`audit seals (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    const clock = new ManualClock('2026-06-01T10:00:00.000Z');

    before(async () => {
      t = await startTestApp(engine, { clock, env: GENEROUS_LIMITS });
      org = await seedOrg(t.ctx);
      await loadSampleLists(t.ctx);
    });
    after(async () => {
      await t?.close();
    });

    const verify = () => t.ctx.services.audit.verify({ ctx: t.ctx.operator, input: { org: org.slug } });
    const screen = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const r = await t.request('POST', '/v1/screen', { key: org.key, body: { name: `Margaret Whitfield ${i}` } });
        assert.equal(r.status, 200, r.text);
      }
    };

    it('seals in batches: each seal follows the one before it, and a forged chain is found by its seal', async () => {
      await screen(3);
      const first = await t.ctx.jobs.auditSeal.sealNow();
      assert.equal(first?.placed, 3);
      clock.advance(1000);
      await screen(4);
      assert.equal((await verify()).unsealed, 4);
      await t.ctx.jobs.auditSeal.sealNow();
      const db = t.ctx.database.db;
      const seals = await db
        .selectFrom('audit_seals')
        .selectAll()
        .where('chain', '=', org.orgId)
        .orderBy('last_seq')
        .execute();
      assert.equal(seals.length, 2);
      assert.equal(seals[1]!.first_seq, seals[0]!.last_seq + 1);
      assert.equal(seals[1]!.prev_hash, seals[0]!.seal_hash);
      const ok = await verify();
      assert.deepEqual([ok.ok, ok.unsealed], [true, 0]);

      // Every hash after an altered entry recomputed, the head moved with them: only the seal can tell.
      const rows = await db.selectFrom('audit_log').selectAll().where('chain', '=', org.orgId).orderBy('seq').execute();
      const head = await db
        .selectFrom('audit_heads')
        .selectAll()
        .where('chain', '=', org.orgId)
        .executeTakeFirstOrThrow();
      const target = rows.find((r) => r.event === 'screening.created')!;
      let prev = target.prev_hash;
      for (const row of rows.filter((r) => r.seq >= target.seq)) {
        const data = row.id === target.id ? row.data.replace('Margaret', 'Marjorie') : row.data;
        const content = contentHash({ ...row, data });
        const hash = entryHash(prev, content);
        await db
          .updateTable('audit_log')
          .set({ data, prev_hash: prev, content_hash: content, entry_hash: hash })
          .where('id', '=', row.id)
          .execute();
        prev = hash;
      }
      await db.updateTable('audit_heads').set({ entry_hash: prev }).where('chain', '=', org.orgId).execute();
      const forged = await verify();
      assert.equal(forged.ok, false);
      assert.equal(forged.broken[0]?.seq, seals[0]!.last_seq);
      assert.match(forged.broken[0]!.problem, /do not match the seal of entries 1\.\./);
      for (const row of rows) await db.updateTable('audit_log').set(row).where('id', '=', row.id).execute();
      await db.updateTable('audit_heads').set(head).where('chain', '=', org.orgId).execute();
      assert.equal((await verify()).ok, true);

      // A seal altered, or one removed.
      await db
        .updateTable('audit_seals')
        .set({ sealed_at: '2026-01-01T00:00:00.000Z' })
        .where('chain', '=', org.orgId)
        .where('last_seq', '=', seals[1]!.last_seq)
        .execute();
      const altered = await verify();
      assert.match(altered.broken[0]!.problem, /seal of entries .* was altered/);
      await db
        .updateTable('audit_seals')
        .set(seals[1]!)
        .where('chain', '=', org.orgId)
        .where('last_seq', '=', seals[1]!.last_seq)
        .execute();
      await db
        .deleteFrom('audit_seals')
        .where('chain', '=', org.orgId)
        .where('last_seq', '=', seals[0]!.last_seq)
        .execute();
      const removed = await verify();
      assert.equal(removed.ok, false);
      assert.match(removed.broken[0]!.problem, /not the chain's first seal/);
      await db.insertInto('audit_seals').values(seals[0]!).execute();
      assert.equal((await verify()).ok, true);
    });

    it('a node that starts seals what an earlier one left pending, in its first round', async () => {
      await screen(2);
      assert.equal((await verify()).unsealed, 2);
      // A second node of the deployment starting its jobs (as after a crash and restart of the first).
      const restarted = await startTestApp(engine, { clock, shared: t.env });
      try {
        restarted.ctx.jobs.auditSeal.job.start();
        const deadline = Date.now() + 2000;
        while ((await verify()).unsealed > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        const report = await verify();
        assert.deepEqual([report.ok, report.unsealed], [true, 0]);
      } finally {
        await restarted.ctx.jobs.auditSeal.job.stop();
        await restarted.close();
      }
    });
  });
}
