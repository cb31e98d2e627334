/**
 * New designations screened within minutes (issue 30), tried as a new user would: a publisher on
 * loopback serving the real UN list, LIST_POLL_INTERVAL=1m and a moved clock. The list jobs check the
 * publisher with conditional requests, back off after failures, put a changed file in force; the
 * change feed names what changed; the delta pass rescreens the monitored customer and its
 * organization's receiver gets a signed alert.created.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import { ConsoleClient, linkPath } from '../helpers/console-client.js';
import { assertDescribedByOpenApi } from '../helpers/openapi-webhooks.js';
import { GENEROUS_LIMITS, assertError } from '../helpers/http-assert.js';
import { ENGINES, SHARED_DATA, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';

const UN_FILE = resolve(SHARED_DATA, 'lists/un_csl/consolidated.xml');
const skipData = existsSync(UN_FILE) ? false : `${UN_FILE} is absent`;
const MINUTE = 60_000;
const ALIAS = 'Zorbanek Quillstrom';
const SECRET = 'list-updates-secret-0123456789';

interface Hit {
  path: string;
  ifNoneMatch: string | undefined;
}

/** A publisher that answers with an ETag and honours If-None-Match, as the list publishers' servers do. */
interface Publisher {
  url: string;
  body: Buffer;
  /** Answer every request with this status instead (an outage). */
  failWith?: number;
  hits: Hit[];
  close(): Promise<void>;
}

async function startPublisher(body: Buffer): Promise<Publisher> {
  const state: Partial<Publisher> & { hits: Hit[]; body: Buffer } = { hits: [], body };
  const server: Server = createServer((req, res) => {
    const ifNoneMatch = req.headers['if-none-match'];
    state.hits.push({ path: req.url ?? '', ifNoneMatch });
    if (state.failWith) {
      res.writeHead(state.failWith).end('upstream error');
      return;
    }
    const etag = `"${createHash('sha256').update(state.body).digest('hex').slice(0, 20)}"`;
    if (ifNoneMatch === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/xml', etag }).end(state.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((r) => server.close(() => r()));
  return state as Publisher;
}

/** The UN list with an alias added to ERIC BADEGE (DATAID 6907993). */
function withAlias(text: string, alias: string): Buffer {
  const changed = text.replace(
    /(<DATAID>6907993<\/DATAID>[\s\S]*?)(<INDIVIDUAL_ALIAS>)/,
    `$1<INDIVIDUAL_ALIAS><QUALITY>Good</QUALITY><ALIAS_NAME>${alias}</ALIAS_NAME></INDIVIDUAL_ALIAS>$2`,
  );
  assert.notEqual(changed, text, 'the UN file still lists DATAID 6907993');
  return Buffer.from(changed);
}

for (const { engine, skip } of ENGINES) {
  describe(`new designations within minutes (${engine})`, { skip: skip || skipData }, () => {
    const original = readFileSync(UN_FILE, 'utf8');
    let t: TestApp;
    let clock: ManualClock;
    let publisher: Publisher;
    let receiver: Receiver;
    let org: SeededOrg;
    let otherOrg: SeededOrg;
    let firstVersion: string;
    let monitorId: string;

    const round = () => t.ctx.jobs.lists.job.runUntilIdle();
    const unStatus = async () => {
      const health = await t.request('GET', '/health');
      assert.equal(health.status, 200, health.text);
      return health.body.data.sources.find((s: { source: string }) => s.source === 'un_csl');
    };
    const versionRows = () =>
      t.ctx.database.db.selectFrom('list_versions').select(['id', 'status']).where('source', '=', 'un_csl').execute();

    before(async () => {
      publisher = await startPublisher(Buffer.from(original));
      receiver = await startReceiver(SECRET);
      clock = new ManualClock('2026-03-10T12:00:00.000Z');
      t = await startTestApp(engine, {
        clock,
        env: {
          ...GENEROUS_LIMITS,
          LIST_POLL_INTERVAL: '1m',
          // Only the UN list is polled here: the others are switched off, not fetched from the internet.
          LIST_POLL_INTERVALS:
            'us_ofac=off,us_csl=off,eu_csl=off,uk_csl=off,au_dfat=off,ch_seco=off,ca_gac=off,jp_mof=off',
          LIST_POLL_BACKOFF: '2m',
          LIST_POLL_BACKOFF_MAX: '8m',
          LIST_HTTP_TIMEOUT: '10s',
          LIST_URLS: `un_csl:consolidated.xml=${publisher.url}/un.xml`,
          WEBHOOK_RETRY_DELAYS: '1s',
          METRICS_TOKEN: 'metrics-token-for-the-test',
        },
      });
      org = await seedOrg(t.ctx, { tier: 'professional', webhookUrl: receiver.url, webhookSecret: SECRET });
      // This organization opts in to lists.changed; a second one with a webhook does not.
      const optedIn = await t.ctx.services.tenants.updateOrganization({
        ctx: t.ctx.operator,
        input: { org: org.slug, listsChanged: true },
      });
      assert.equal(optedIn.webhookListsChanged, true);
      otherOrg = await seedOrg(t.ctx, { tier: 'professional', webhookUrl: receiver.url, webhookSecret: SECRET });
    });
    after(async () => {
      await t?.close();
      await publisher?.close();
      await receiver?.close();
    });

    it('the first check puts the list in force and schedules the next one a poll interval later', async () => {
      await round();
      const status = await unStatus();
      assert.ok(status.version, JSON.stringify(status));
      firstVersion = status.version;
      assert.equal(status.lastCheckStatus, 'updated');
      assert.equal(status.lastCheckAt, '2026-03-10T12:00:00.000Z');
      assert.equal(status.lastChangeAt, '2026-03-10T12:00:00.000Z');
      assert.equal(status.nextCheckAt, '2026-03-10T12:01:00.000Z');
      assert.equal(status.checkFailures, 0);
      assert.equal(publisher.hits.length, 1);
      assert.equal(publisher.hits[0]?.ifNoneMatch, undefined, 'nothing to be conditional on yet');
      // Sources whose polling is off show no next check.
      assert.equal((await t.request('GET', '/health')).body.data.sources[0].nextCheckAt, null);
    });

    it('asks nothing before the next check is due, then asks conditionally and stores no version on 304', async () => {
      const screening = await t.request('POST', '/v1/screen', { key: org.key, body: { name: ALIAS } });
      assert.equal(screening.status, 200, screening.text);
      assert.equal(screening.body.data.riskLevel, 'low');
      const monitor = await t.request('POST', '/v1/monitors', {
        key: org.key,
        body: { screeningId: screening.body.data.screeningId },
      });
      assert.equal(monitor.status, 201, monitor.text);
      monitorId = monitor.body.data.id;
      // A second customer the alias cannot affect.
      const other = await t.request('POST', '/v1/screen', { key: org.key, body: { name: 'Maria Fernanda Quintero' } });
      const second = await t.request('POST', '/v1/monitors', {
        key: org.key,
        body: { screeningId: other.body.data.screeningId },
      });
      assert.equal(second.status, 201, second.text);

      clock.advance(30_000);
      await round();
      assert.equal(publisher.hits.length, 1, 'not due yet');
      clock.advance(31_000);
      await round();
      assert.equal(publisher.hits.length, 2);
      assert.match(publisher.hits[1]?.ifNoneMatch ?? '', /^"[0-9a-f]{20}"$/, 'the request carries the ETag');
      const status = await unStatus();
      assert.equal(status.lastCheckStatus, 'not_modified');
      assert.equal(status.version, firstVersion);
      assert.equal(status.lastChangeAt, '2026-03-10T12:00:00.000Z', 'no change since the first check');
      assert.equal(status.nextCheckAt, '2026-03-10T12:02:01.000Z');
      assert.equal((await versionRows()).length, 1, 'a 304 writes no version row');
    });

    it('backs off with jitter while the publisher fails, shows it on /health, /metrics and the Lists page, and keeps screening', async () => {
      publisher.failWith = 503;
      clock.advance(MINUTE);
      await round();
      let status = await unStatus();
      assert.equal(status.lastCheckStatus, 'rejected');
      assert.equal(status.checkFailures, 1);
      assert.equal(status.stale, true);
      assert.match(status.lastError, /download failed: .*503/);
      assert.equal(status.version, firstVersion, 'the version in force stays');
      const health = await t.request('GET', '/health');
      assert.equal(health.body.data.status, 'degraded');
      const at = clock.now().getTime();
      const wait = (iso: string) => new Date(iso).getTime() - at;
      // LIST_POLL_BACKOFF=2m: the first retry within [1m, 2m] (equal jitter), the second within [2m, 4m].
      assert.ok(wait(status.nextCheckAt) >= MINUTE && wait(status.nextCheckAt) <= 2 * MINUTE, status.nextCheckAt);

      clock.set(status.nextCheckAt);
      await round();
      status = await unStatus();
      assert.equal(status.checkFailures, 2);
      const second = new Date(status.nextCheckAt).getTime() - clock.now().getTime();
      assert.ok(second >= 2 * MINUTE && second <= 4 * MINUTE, `second backoff ${second} ms`);

      const metrics = await fetch(`${t.url}/metrics`, {
        headers: { authorization: 'Bearer metrics-token-for-the-test' },
      });
      assert.equal(metrics.status, 200);
      const text = await metrics.text();
      assert.match(text, /sanctions_list_check_failures\{source="un_csl"\} 2/);
      assert.match(text, /sanctions_list_stale\{source="un_csl"\} 1/);
      assert.match(text, /sanctions_list_last_check_age_seconds\{source="un_csl"\} 0/);

      const screened = await t.request('POST', '/v1/screen', { key: org.key, body: { name: 'Eric Badege' } });
      assert.equal(screened.status, 200, 'screening goes on against the version in force');
      assert.equal(screened.body.data.entityId, 'un_csl:6907993');

      // The publisher is back with the same file: the stored ETag is still the good file's.
      publisher.failWith = undefined;
      clock.set(status.nextCheckAt);
      await round();
      status = await unStatus();
      assert.equal(status.lastCheckStatus, 'not_modified');
      assert.equal(status.checkFailures, 0);
      assert.equal(status.stale, false);
      assert.equal(status.lastError, null);
      assert.equal(new Date(status.nextCheckAt).getTime() - clock.now().getTime(), MINUTE);
    });

    it('a listing gains an alias: within the poll interval it is in force, in the feed as a major change, and the receiver gets a signed alert.created', async () => {
      publisher.body = withAlias(original, ALIAS);
      const changedAt = clock.now().getTime();
      clock.advance(MINUTE);
      await round();
      const status = await unStatus();
      assert.equal(status.lastCheckStatus, 'updated');
      assert.notEqual(status.version, firstVersion);
      assert.equal(new Date(status.lastChangeAt).getTime() - changedAt, MINUTE, 'found by the next check');
      assert.equal(t.ctx.runtime.current()?.versions.find((v) => v.source === 'un_csl')?.version, status.version);

      const report = await t.ctx.jobs.rescreen.job.runUntilIdle();
      assert.ok(report?.delta, `a delta pass ran first: ${JSON.stringify(report)}`);
      assert.equal(report.delta.entities, 1);
      assert.equal(report.delta.monitors, 1, 'only the monitor the alias can affect');
      assert.equal(report.delta.alerts, 1);
      await t.ctx.jobs.deliveries.job.runUntilIdle();
      const received = await receiver.waitFor(2);
      const delivery = received.find((d) => d.event === 'alert.created');
      assert.ok(delivery, JSON.stringify(received.map((d) => d.event)));
      assert.equal(delivery.signatureValid, true);
      assert.equal(delivery.json.alert.monitorId, monitorId);
      assert.equal(delivery.json.alert.entityId, 'un_csl:6907993');
      assert.equal(delivery.json.alert.newRiskLevel, 'high');
      // The opted-in organization also heard what changed: counts and a link to the feed, signed.
      const notice = received.find((d) => d.event === 'lists.changed');
      assert.ok(notice, JSON.stringify(received.map((d) => d.event)));
      assert.equal(notice.signatureValid, true);
      assert.equal(notice.json.organization.id, org.orgId);
      assert.deepEqual(
        { added: notice.json.lists.added, removed: notice.json.lists.removed, changed: notice.json.lists.changed },
        { added: 0, removed: 0, changed: 1 },
      );
      assert.equal(notice.json.lists.major, 1);
      assert.equal(notice.json.lists.versions[0].versionId, status.version);
      assert.equal(notice.json.lists.versions[0].previousVersionId, firstVersion);
      await assertDescribedByOpenApi(t, 'lists.changed', notice.json, true);
      await assertDescribedByOpenApi(t, 'alert.created', delivery.json, false);
      const feedLink = new URL(notice.json.lists.versions[0].feed, t.url);
      const linked = await t.request('GET', `${feedLink.pathname}${feedLink.search}`, { key: org.key });
      assert.equal(linked.status, 200, linked.text);
      assert.deepEqual(
        linked.body.data.map((c: { entityId: string }) => c.entityId),
        ['un_csl:6907993'],
      );
      const listsChanged = await t.ctx.database.db
        .selectFrom('webhook_deliveries')
        .select('org_id')
        .where('event', '=', 'lists.changed')
        .execute();
      assert.deepEqual(
        listsChanged.map((d) => d.org_id),
        [org.orgId],
        'only the organization that opted in, once',
      );
      assert.notEqual(otherOrg.orgId, org.orgId);

      const feed = await t.request('GET', `/v1/lists/changes?since=${firstVersion}`, { key: org.key });
      assert.equal(feed.status, 200, feed.text);
      assert.equal(feed.body.data.length, 1);
      const change = feed.body.data[0];
      assert.equal(change.entityId, 'un_csl:6907993');
      assert.equal(change.kind, 'changed');
      assert.equal(change.major, true);
      assert.deepEqual(change.fields, ['aliases']);
      assert.deepEqual(change.changes.aliases, { added: [ALIAS], removed: [] });
      assert.equal(change.versionId, status.version);
      assert.equal(feed.body.meta.hasMore, false);

      // The console's Lists page shows the check schedule and the change.
      const link = await t.ctx.services.accounts.invite({
        ctx: t.ctx.operator,
        input: { org: org.slug, email: 'viewer@updates.test', role: 'auditor' },
      });
      const client = new ConsoleClient(t.url);
      await client.get(linkPath(link.url));
      const password = 'correct horse battery staple';
      await client.post(linkPath(link.url), { password, confirm: password });
      assert.equal((await client.signIn('viewer@updates.test', password)).status, 303);
      const page = await client.get('/console/lists');
      assert.equal(page.status, 200);
      assert.match(page.text, /Latest changes/);
      assert.match(page.text, new RegExp(`${ALIAS}`));
      assert.match(page.text, /un_csl:6907993/);
      assert.match(page.text, /Next check/);
    });

    it('the feed pages with a cursor that stays valid, filters, and refuses bad parameters naming them', async () => {
      // A second change: the alias is removed again, and a new alias on the same listing.
      publisher.body = withAlias(original, 'Quillstrom Other');
      clock.advance(MINUTE);
      await round();
      const first = await t.request('GET', '/v1/lists/changes?pageSize=1', { key: org.key });
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.data.length, 1);
      assert.equal(first.body.meta.hasMore, true);
      const second = await t.request('GET', `/v1/lists/changes?pageSize=1&cursor=${first.body.meta.next}`, {
        key: org.key,
      });
      assert.equal(second.body.data.length, 1);
      assert.equal(second.body.meta.hasMore, false);
      assert.deepEqual(second.body.data[0].changes.aliases, { added: ['Quillstrom Other'], removed: [ALIAS] });
      assert.ok(second.body.data[0].activatedAt > first.body.data[0].activatedAt, 'newest last');
      // At the end, the cursor is kept: polling with it later returns only what came after.
      const idle = await t.request('GET', `/v1/lists/changes?cursor=${second.body.meta.next}`, { key: org.key });
      assert.deepEqual(idle.body.data, []);
      assert.equal(idle.body.meta.next, second.body.meta.next);
      // The same first page again: the cursor names the same place.
      const again = await t.request('GET', `/v1/lists/changes?pageSize=1&cursor=${first.body.meta.next}`, {
        key: org.key,
      });
      assert.deepEqual(again.body.data, second.body.data);

      const byTime = await t.request(
        'GET',
        `/v1/lists/changes?since=${encodeURIComponent(first.body.data[0].activatedAt)}`,
        {
          key: org.key,
        },
      );
      assert.deepEqual(
        byTime.body.data.map((c: { id: string }) => c.id),
        [second.body.data[0].id],
      );
      const other = await t.request('GET', '/v1/lists/changes?source=us_ofac', { key: org.key });
      assert.deepEqual(other.body.data, []);
      const added = await t.request('GET', '/v1/lists/changes?kind=added', { key: org.key });
      assert.deepEqual(added.body.data, []);

      assertError(await t.request('GET', '/v1/lists/changes'), 401, 'UNAUTHORIZED');
      assertError(
        await t.request('GET', '/v1/lists/changes?since=yesterday', { key: org.key }),
        400,
        'VALIDATION_ERROR',
        {
          field: 'since',
        },
      );
      assertError(
        await t.request('GET', '/v1/lists/changes?since=lv_nope', { key: org.key }),
        400,
        'VALIDATION_ERROR',
        {
          field: 'since',
        },
      );
      assertError(await t.request('GET', '/v1/lists/changes?cursor=abc', { key: org.key }), 400, 'VALIDATION_ERROR', {
        field: 'cursor',
      });
      assertError(await t.request('GET', '/v1/lists/changes?kind=renamed', { key: org.key }), 400, 'VALIDATION_ERROR', {
        field: 'kind',
      });
      assertError(await t.request('GET', '/v1/lists/changes?pageSize=101', { key: org.key }), 400, 'VALIDATION_ERROR', {
        field: 'pageSize',
      });
    });

    it('a truncated file is never put in force, and its ETag is not kept', async () => {
      const before = await unStatus();
      publisher.body = Buffer.from(original.slice(0, 300_000));
      clock.advance(MINUTE);
      await round();
      const status = await unStatus();
      assert.equal(status.lastCheckStatus, 'rejected');
      assert.match(status.lastError, /parse failed/);
      assert.equal(status.version, before.version);
      // The next check is conditional on the last good file's ETag, so the bad copy is fetched again.
      publisher.body = withAlias(original, 'Quillstrom Other');
      const hits = publisher.hits.length;
      clock.set(status.nextCheckAt);
      await round();
      assert.equal(publisher.hits.length, hits + 1);
      assert.equal((await unStatus()).lastCheckStatus, 'not_modified');
    });
  });
}
