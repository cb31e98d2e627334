import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import {
  ENGINES,
  type SeededOrg,
  type TestApp,
  activateRecords,
  sampleRecords,
  seedOrg,
  startTestApp,
} from '../helpers/harness.js';
import { ConsoleClient, linkPath } from '../helpers/console-client.js';

/**
 * The console's work pages over plain HTTP, on both engines (the browser tests run on SQLite):
 * decisions through the decisions service, the multipart batch upload and its form token, and the
 * audit page's verify and export by role.
 */

const PASSWORD = 'correct horse battery staple';

for (const { engine, skip } of ENGINES) {
  describe(`console work pages over HTTP (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    let analyst: ConsoleClient;
    let auditor: ConsoleClient;

    const member = async (email: string, role: string) => {
      const link = await t.ctx.services.accounts.invite({ ctx: t.ctx.operator, input: { org: org.slug, email, role } });
      const client = new ConsoleClient(t.url);
      await client.get(linkPath(link.url));
      assert.equal((await client.post(linkPath(link.url), { password: PASSWORD, confirm: PASSWORD })).status, 303);
      assert.equal((await client.signIn(email, PASSWORD)).status, 303);
      await client.get('/console/screen');
      return client;
    };

    /** Posts the batch form as a browser does: multipart, the file and (unless left out) the form token. */
    const upload = async (client: ConsoleClient, csv: string, withToken: boolean) => {
      const form = new FormData();
      if (withToken) form.set('_csrf', client.formToken);
      form.set('file', new Blob([csv], { type: 'text/csv' }), 'people.csv');
      return fetch(`${t.url}/console/batches`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
        body: form,
      });
    };

    before(async () => {
      t = await startTestApp(engine, { clock: new ManualClock('2026-03-02T09:00:00.000Z') });
      const records = sampleRecords();
      await activateRecords(t.ctx, 'us_ofac', records.us_ofac);
      await activateRecords(t.ctx, 'un_csl', records.un_csl);
      org = await seedOrg(t.ctx, { slug: 'acme' });
      analyst = await member('ana@acme.test', 'analyst');
      auditor = await member('aud@acme.test', 'auditor');
    });
    after(async () => t?.close());

    it('records a decision from the screening page through the decisions service', async () => {
      const screened = await analyst.post('/console/screen', { name: 'Karimov Rustam', birthDate: '1961-04-12' });
      assert.equal(screened.status, 303, screened.text);
      const path = screened.location ?? '';
      const detail = await analyst.get(path);
      assert.match(detail.text, /False positive<\/button>/);
      assert.match(detail.text, /Latest decision:<\/strong>\s*none/);
      const entityId = /name="entityId" value="([^"]+)"/.exec(detail.text)?.[1] ?? '';
      const refused = await analyst.post(`${path}/decisions`, { entityId, decision: 'false_positive' });
      assert.equal(refused.status, 400);
      assert.match(refused.text, /reason: is required/);
      const other = await analyst.post(`${path}/decisions`, { entityId, decision: 'false_positive', reason: 'other' });
      assert.equal(other.status, 400);
      assert.match(other.text, /note: is required when the reason is other/);
      const done = await analyst.post(`${path}/decisions`, {
        entityId,
        decision: 'false_positive',
        reason: 'different_nationality',
      });
      assert.equal(done.status, 303, done.text);
      assert.match((await analyst.get(path)).text, /False positive \(different nationality\),\s*effective/);
      const { items } = await t.ctx.services.decisions.listAs({
        ctx: t.ctx.operator,
        input: { org: org.slug, page: 1, pageSize: 10 },
      });
      assert.deepEqual(
        items.map((d) => [d.entityId, d.decision, d.reason, d.decidedBy]),
        [[entityId, 'false_positive', 'different_nationality', 'ana@acme.test']],
      );
      // An auditor sees the decision, gets no buttons, and is refused a post.
      const seen = await auditor.get(path);
      assert.match(seen.text, /False positive \(different nationality\)/);
      assert.doesNotMatch(seen.text, /Confirm match<\/button>/);
      const forbidden = await auditor.post(`${path}/decisions`, { entityId, decision: 'confirmed' });
      assert.equal(forbidden.status, 403);
    });

    it('takes a multipart batch upload only with its form token, and serves its results as CSV', async () => {
      const csv = 'name,externalId\nKarimov Rustam,C-1\nJane Ordinary,C-2\n';
      const before = await t.ctx.services.batches.listBatches({
        ctx: { ...t.ctx.operator, caller: { orgId: org.orgId } } as never,
        input: { page: 1, pageSize: 10 },
      });
      const refused = await upload(analyst, csv, false);
      assert.equal(refused.status, 403);
      assert.match(await refused.text(), /form token/);
      const queued = await upload(analyst, csv, true);
      assert.equal(queued.status, 303, await queued.text());
      const location = queued.headers.get('location') ?? '';
      assert.match(location, /^\/console\/batches\/bat_/);
      await t.ctx.jobs.batches.job.runUntilIdle();
      const page = await analyst.get(location.split('?')[0]!);
      assert.match(page.text, /2 \/ 2\s*rows done/);
      const results = await analyst.get(`${location.split('?')[0]!}/results.csv`);
      assert.equal(results.status, 200);
      assert.match(results.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(results.text, /C-1,Karimov Rustam,done/);
      const after = await t.ctx.services.batches.listBatches({
        ctx: { ...t.ctx.operator, caller: { orgId: org.orgId } } as never,
        input: { page: 1, pageSize: 10 },
      });
      assert.equal(after.total, before.total + 1, 'the refused upload left nothing behind');
      // An auditor may read batches but not upload.
      assert.equal((await upload(auditor, csv, true)).status, 403);
    });

    it('verifies the audit chain for anyone, and exports it for auditors, not analysts', async () => {
      const verified = await analyst.get('/console/audit?verify=1');
      assert.match(verified.text, /The chain is intact: \d+ entries checked/);
      const query = '?from=2026-03-01&to=2026-03-02&format=csv';
      assert.equal((await analyst.get(`/console/audit/export${query}`)).status, 403);
      const exported = await auditor.get(`/console/audit/export${query}`);
      assert.equal(exported.status, 200);
      assert.match(exported.headers.get('content-disposition') ?? '', /attachment; filename="audit-acme-/);
      const lines = exported.text.trim().split('\n');
      assert.match(lines[0] ?? '', /^chain,seq,at,event,/);
      assert.ok(lines.some((l) => l.includes(',decision.created,')));
      const bad = await auditor.get('/console/audit/export?from=2026-03-05&to=2026-03-01&format=csv');
      assert.equal(bad.status, 400);
    });
  });
}
