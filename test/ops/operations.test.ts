/**
 * Operating the service (issue 17), in process over real HTTP on both engines: /metrics behind its
 * token (and off by default), the readiness checks, errors of Node's HTTP parser in the envelope,
 * the OpenAPI servers entry, webhook secrets sealed at rest and their rotation, API keys' last use.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { after, afterEach, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import { loadConfig } from '../../src/infra/config.js';
import { SecretBox, SecretError } from '../../src/infra/secrets.js';
import { nodeOperations, startMetricsListener } from '../../src/start/operations.js';
import { rotateWebhookSecrets } from '../../src/tenants/secret-rotation.js';
import { ENGINES, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { GENEROUS_LIMITS, assertError, loadSampleLists } from '../helpers/http-assert.js';
import { startReceiver } from '../webhooks/receiver.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const key = () => randomBytes(32).toString('base64');

/** The value of one series in Prometheus text, or undefined. */
function series(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

/** One raw HTTP exchange, for what fetch cannot send (oversized or malformed request lines). */
function raw(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let out = '';
    socket.on('data', (c: Buffer) => (out += c.toString('utf8')));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

describe('secrets at rest (AES-256-GCM)', () => {
  it('seals with a random IV and the key id, opens with the current or a previous key, refuses others', () => {
    const [k1, k2] = [key(), key()];
    const box = new SecretBox({ secretKey: k1, previousSecretKeys: [] });
    const a = box.seal('webhook-secret-0123456789');
    const b = box.seal('webhook-secret-0123456789');
    assert.match(a, /^enc:v1:[0-9a-f]{8}:/);
    assert.notEqual(a, b, 'a fresh IV per value');
    assert.equal(box.open(a), 'webhook-secret-0123456789');
    assert.equal(box.open('clear-text-secret'), 'clear-text-secret', 'clear text passes through');
    const rotated = new SecretBox({ secretKey: k2, previousSecretKeys: [k1] });
    assert.equal(rotated.open(a), 'webhook-secret-0123456789');
    assert.ok(rotated.needsRotation(a));
    assert.ok(!rotated.needsRotation(rotated.seal('x')));
    assert.throws(() => new SecretBox({ secretKey: k2, previousSecretKeys: [] }).open(a), SecretError);
    const tampered = a.slice(0, -2) + (a.endsWith('A') ? 'BB' : 'AA');
    assert.throws(() => box.open(tampered), /does not authenticate/);
    assert.equal(new SecretBox({ previousSecretKeys: [] }).seal('plain'), 'plain', 'no key: stored as given');
  });
});

describe('operations settings', () => {
  it('are validated at start-up, naming the variable', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ SECRET_KEY: 'short' }, /SECRET_KEY must be 32 bytes/],
      [{ SECRET_KEY: key(), SECRET_KEY_PREVIOUS: 'nope' }, /SECRET_KEY_PREVIOUS must be 32 bytes/],
      [{ SECRET_KEY_PREVIOUS: key() }, /SECRET_KEY_PREVIOUS needs SECRET_KEY/],
      [{ METRICS_TOKEN: 'too-short' }, /METRICS_TOKEN must be at least 16/],
      [{ METRICS_PORT: '70000' }, /METRICS_PORT must be between/],
      [{ SHUTDOWN_TIMEOUT: 'soon' }, /SHUTDOWN_TIMEOUT must be a duration/],
      [{ PUBLIC_URL: 'screening.example.com' }, /PUBLIC_URL must be an http\(s\) address/],
    ];
    for (const [env, message] of bad) assert.throws(() => loadConfig(env), message);
    const ok = loadConfig({ METRICS_PORT: '9464', SECRET_KEY: 'ab'.repeat(32), SHUTDOWN_TIMEOUT: '45s' });
    assert.deepEqual(
      [ok.ops.metricsPort, ok.ops.metricsHost, ok.ops.shutdownTimeoutMs, ok.ops.metricsToken],
      [9464, '127.0.0.1', 45_000, undefined],
    );
    assert.equal(loadConfig({}).ops.shutdownTimeoutMs, 30_000);
  });
});

for (const { engine, skip } of ENGINES) {
  describe(`operations (${engine})`, { skip }, () => {
    const apps: TestApp[] = [];
    afterEach(async () => {
      for (const a of apps.splice(0)) await a.close();
    });
    after(async () => {
      for (const a of apps.splice(0)) await a.close();
    });
    const start = async (env: Record<string, string> = {}, clock?: ManualClock) => {
      const t = await startTestApp(engine, { env: { ...GENEROUS_LIMITS, ...env }, ...(clock ? { clock } : {}) });
      apps.push(t);
      return t;
    };

    it('GET /metrics is off by default: 404 in the envelope', async () => {
      const t = await start();
      assertError(await t.request('GET', '/metrics'), 404, 'NOT_FOUND', { rateLimit: true });
    });

    it('GET /metrics with METRICS_TOKEN: 401 without the bearer token, the metrics with it; a list made stale shows', async () => {
      const clock = new ManualClock();
      const t = await start({ METRICS_TOKEN: TOKEN }, clock);
      const org = await seedOrg(t.ctx, { tier: 'enterprise' });
      await loadSampleLists(t.ctx);
      const denied = await t.request('GET', '/metrics');
      assertError(denied, 401, 'UNAUTHORIZED');
      assert.equal(denied.headers.get('www-authenticate'), 'Bearer');
      assertError(
        await t.request('GET', '/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789' } }),
        401,
        'UNAUTHORIZED',
      );

      const scrape = async () => {
        const res = await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
        assert.equal(res.status, 200, res.text);
        assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
        return res.text;
      };
      const before = await scrape();
      const highBefore = series(before, 'sanctions_screenings_total', 'risk_level="high"') ?? 0;
      const s = await t.request('POST', '/v1/screen', {
        key: org.key,
        body: { name: 'Rustam Karimov', birthDate: '1961-04-12' },
      });
      assert.equal(s.body.data.riskLevel, 'high');
      for (let i = 0; i < 2; i++) await t.request('GET', '/v1/screenings/scr_missing', { key: org.key });
      const text = await scrape();
      assert.equal(series(text, 'sanctions_screenings_total', 'risk_level="high"'), highBefore + 1);
      assert.ok((series(text, 'sanctions_screening_source_matches_total', 'source="un_csl"') ?? 0) >= 1);
      assert.ok((series(text, 'sanctions_matching_duration_seconds_count') ?? 0) >= 1);
      assert.ok(
        (series(
          text,
          'sanctions_http_request_duration_seconds_count',
          'route="/v1/screenings/:id",method="GET",status="404"',
        ) ?? 0) >= 2,
        'requests by route pattern and status',
      );
      assert.equal(series(text, 'sanctions_list_records', 'source="us_ofac"'), 3);
      assert.equal(series(text, 'sanctions_list_stale', 'source="us_ofac"'), 0);
      assert.equal(series(text, 'sanctions_lists_loaded'), 1);
      assert.equal(series(text, 'sanctions_webhook_outbox_due'), 0);
      for (const name of [
        'process_resident_memory_bytes',
        'nodejs_eventloop_lag_seconds',
        'sanctions_matching_queue_depth',
      ]) {
        assert.ok(series(text, name) !== undefined, `${name} is exported`);
      }
      // 49 hours without a sync: the "list stale" rule's series turn.
      clock.advance(49 * 3600 * 1000);
      const stale = await scrape();
      assert.equal(series(stale, 'sanctions_list_stale', 'source="us_ofac"'), 1);
      assert.ok((series(stale, 'sanctions_list_version_age_seconds', 'source="us_ofac"') ?? 0) >= 49 * 3600);
    });

    it('counts rate-limit refusals', async () => {
      const t = await start({ METRICS_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: '2' });
      const org = await seedOrg(t.ctx);
      const metric = async () =>
        series(
          (await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text,
          'sanctions_refusals_total',
          'reason="rate_limited"',
        ) ?? 0;
      const before = await metric();
      for (let i = 0; i < 4; i++) await t.request('GET', '/v1/screenings', { key: org.key });
      assert.equal(await metric(), before + 2);
    });

    it('METRICS_PORT serves /metrics on its own listener, behind the token when one is set', async () => {
      const t = await start({ METRICS_PORT: '1', METRICS_TOKEN: TOKEN });
      assertError(await t.request('GET', '/metrics'), 404, 'NOT_FOUND');
      const ops = nodeOperations(t.ctx);
      const listener = await startMetricsListener(
        { ...t.ctx.config.ops, metricsPort: 0 } as never,
        ops.deps.sample,
        () => t.clock.now(),
      );
      assert.ok(listener);
      try {
        const denied = await fetch(listener.url);
        assert.equal(denied.status, 401);
        assert.match(denied.headers.get('x-request-id') ?? '', /^req_/);
        const ok = await fetch(listener.url, { headers: { authorization: `Bearer ${TOKEN}` } });
        assert.equal(ok.status, 200);
        assert.match(await ok.text(), /sanctions_webhook_outbox_oldest_due_age_seconds/);
      } finally {
        await listener.close();
      }
    });

    it('/health/live answers; /health/ready is 503 until the lists are loaded, then 200; /health is unchanged', async () => {
      const t = await start();
      const live = await t.request('GET', '/health/live');
      assert.equal(live.status, 200);
      assert.equal(live.body.data.status, 'live');
      const notReady = await t.request('GET', '/health/ready');
      assert.equal(notReady.status, 503);
      assert.deepEqual(
        { ...notReady.body.data },
        { status: 'not_ready', database: true, listsLoaded: false, matchingThreads: true, draining: false },
      );
      await loadSampleLists(t.ctx);
      const ready = await t.request('GET', '/health/ready');
      assert.equal(ready.status, 200, ready.text);
      assert.equal(ready.body.data.status, 'ready');
      assert.match(ready.headers.get('x-request-id') ?? '', /^req_/);
      const health = await t.request('GET', '/health');
      assert.equal(health.status, 200);
      assert.equal(health.body.data.listsReady, true);
    });

    it('oversized headers: 431 and a malformed request line: 400, both in the envelope with X-Request-Id', async () => {
      const t = await start();
      const big = await raw(t.url, `GET /v1/screenings?q=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      assert.match(big, /^HTTP\/1\.1 431 /);
      assert.match(big, /\r\nX-Request-Id: req_[0-9a-z]+\r\n/i);
      const bigBody = JSON.parse(big.split('\r\n\r\n')[1] ?? '') as { success: boolean; error: { code: string } };
      assert.deepEqual([bigBody.success, bigBody.error.code], [false, 'HEADERS_TOO_LARGE']);
      const bad = await raw(t.url, 'GARBAGE\r\n\r\n');
      assert.match(bad, /^HTTP\/1\.1 400 /);
      assert.match(bad, /\r\nX-Request-Id: req_[0-9a-z]+\r\n/i);
      assert.equal(
        (JSON.parse(bad.split('\r\n\r\n')[1] ?? '') as { error: { code: string } }).error.code,
        'BAD_REQUEST',
      );
    });

    it('a NUL character in an id, a query value or a body field: 400 naming the field (found by the fuzzing)', async () => {
      const t = await start();
      const org = await seedOrg(t.ctx);
      await loadSampleLists(t.ctx);
      assertError(await t.request('GET', '/v1/screenings/%00', { key: org.key }), 400, 'VALIDATION_ERROR', {
        field: 'id',
      });
      assertError(await t.request('GET', '/v1/screenings?search=a%00b', { key: org.key }), 400, 'VALIDATION_ERROR', {
        field: 'search',
      });
      assertError(
        await t.request('POST', '/v1/screen', { key: org.key, body: { name: 'Ana\u0000Lopez' } }),
        400,
        'VALIDATION_ERROR',
        { field: 'name' },
      );
    });

    it('the OpenAPI servers entry is relative, or PUBLIC_URL when set', async () => {
      const relative = await start();
      assert.deepEqual(
        ((await relative.request('GET', '/openapi.json')).body.servers as { url: string }[]).map((s) => s.url),
        ['/'],
      );
      const t = await start({ PUBLIC_URL: 'https://screening.example.com/' });
      assert.deepEqual(
        ((await t.request('GET', '/openapi.json')).body.servers as { url: string }[]).map((s) => s.url),
        ['https://screening.example.com'],
      );
    });

    it('with SECRET_KEY the webhook secret is stored sealed, deliveries are signed with it, and rotation re-seals it', async () => {
      const secret = 'rotation-secret-0123456789';
      const receiver = await startReceiver(secret);
      try {
        const [k1, k2] = [key(), key()];
        const t = await start({ SECRET_KEY: k1 });
        const org = await seedOrg(t.ctx, { webhookUrl: receiver.url, webhookSecret: secret });
        const stored = async () =>
          (
            await t.ctx.database.db
              .selectFrom('organizations')
              .select('webhook_secret')
              .where('id', '=', org.orgId)
              .executeTakeFirstOrThrow()
          ).webhook_secret ?? '';
        const first = await stored();
        assert.match(first, /^enc:v1:/);
        assert.ok(!first.includes(secret));
        const sent = await t.ctx.services.webhooks.sendTest({ ctx: t.ctx.operator, input: { org: org.slug } });
        assert.equal(sent.delivered, true, JSON.stringify(sent));
        assert.equal(receiver.received.at(-1)?.signatureValid, true);

        // Rotation: the new key current, the old one previous.
        const report = await rotateWebhookSecrets(
          t.ctx.operator,
          new SecretBox({ secretKey: k2, previousSecretKeys: [k1] }),
        );
        assert.equal(report.rotated, 1);
        assert.deepEqual(report.failed, []);
        const second = await stored();
        assert.equal(SecretBox.keyIdOf(second), new SecretBox({ secretKey: k2, previousSecretKeys: [] }).currentKeyId);
        assert.equal(new SecretBox({ secretKey: k2, previousSecretKeys: [] }).open(second), secret);
        const again = await rotateWebhookSecrets(
          t.ctx.operator,
          new SecretBox({ secretKey: k2, previousSecretKeys: [k1] }),
        );
        assert.deepEqual([again.rotated, again.unchanged], [0, 1]);
        // Without the key that sealed it, a delivery fails with a reason and sends nothing unsigned.
        const withoutKey = await rotateWebhookSecrets(
          t.ctx.operator,
          new SecretBox({ secretKey: key(), previousSecretKeys: [] }),
        );
        assert.equal(withoutKey.failed.length, 1);
        assert.equal(await stored(), second, 'a secret that cannot be opened is left as it was');
      } finally {
        await receiver.close();
      }
    });

    it('last_used_at: written on use, at most once a minute per key', async () => {
      const clock = new ManualClock('2026-03-01T10:00:00.000Z');
      const t = await start({}, clock);
      const org = await seedOrg(t.ctx);
      const lastUsed = async () => {
        await new Promise((r) => setImmediate(r));
        const keys = await t.ctx.services.tenants.listApiKeys({ ctx: t.ctx.operator, input: { org: org.slug } });
        return keys[0]?.lastUsedAt ?? null;
      };
      assert.equal(await lastUsed(), null);
      await t.request('GET', '/v1/screenings', { key: org.key });
      await waitFor(async () => (await lastUsed()) === '2026-03-01T10:00:00.000Z');
      clock.advance(30_000);
      await t.request('GET', '/v1/screenings', { key: org.key });
      assert.equal(await lastUsed(), '2026-03-01T10:00:00.000Z', 'not written again within the minute');
      clock.advance(31_000);
      await t.request('GET', '/v1/screenings', { key: org.key });
      await waitFor(async () => (await lastUsed()) === '2026-03-01T10:01:01.000Z');
    });
  });
}

/** Polls `check` (the write is not awaited by the request) until it holds, for at most 5 s. */
async function waitFor(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail('condition not reached within 5 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}
