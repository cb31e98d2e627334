import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/infra/config.js';
import { sendWebhook } from '../../src/webhooks/sender.js';
import { assertWebhookUrlAllowed, isForbiddenAddress } from '../../src/webhooks/ssrf.js';
import { type Receiver, startReceiver } from './receiver.js';

describe('webhook SSRF rules', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver('secret-secret-secret');
  });
  after(async () => receiver.close());

  it('classifies loopback, private, link-local, metadata and mapped addresses as forbidden, public ones as allowed', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '224.0.0.1',
    ]) {
      assert.equal(isForbiddenAddress(a), true, a);
    }
    for (const a of ['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
      assert.equal(isForbiddenAddress(a), false, a);
    }
  });

  it('refuses such URLs when saved, unless private addresses are allowed', async () => {
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/',
      'http://10.0.0.5/hook',
      'http://localhost:9000/',
      'ftp://example.com/',
      'http://user:pw@93.184.215.14/',
    ]) {
      await assert.rejects(
        assertWebhookUrlAllowed(url, false),
        (e: { code?: string; field?: string }) => e.code === 'VALIDATION_ERROR' && e.field === 'webhook-url',
        url,
      );
    }
    await assertWebhookUrlAllowed('https://93.184.215.14/hooks', false);
    await assertWebhookUrlAllowed('http://127.0.0.1:8080/x', true);
    // WEBHOOK_ALLOW_PRIVATE_ADDRESSES is what start/services.ts hands the check when a URL is saved.
    const strict = loadConfig({ DATA_DIR: '/tmp/x' }).webhooks.allowPrivateAddresses;
    await assert.rejects(assertWebhookUrlAllowed('http://192.168.0.10/', strict));
    const relaxed = loadConfig({ DATA_DIR: '/tmp/x', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' }).webhooks;
    await assertWebhookUrlAllowed('http://192.168.0.10/', relaxed.allowPrivateAddresses);
  });

  it('checks the DNS answer when connecting: a host name resolving to loopback is refused, the receiver hears nothing', async () => {
    const port = new URL(receiver.url).port;
    const request = { body: '{}', headers: {}, timeoutMs: 2000, allowPrivateAddresses: false };
    const byName = await sendWebhook({ ...request, url: `http://localhost:${port}/hooks` });
    assert.equal(byName.ok, false);
    assert.match(byName.error ?? '', /loopback, private/);
    const byAddress = await sendWebhook({ ...request, url: `http://127.0.0.1:${port}/hooks` });
    assert.equal(byAddress.ok, false);
    assert.match(byAddress.error ?? '', /loopback, private/);
    assert.equal(receiver.received.length, 0);
    // The same request goes through when the operator allows private addresses.
    const allowed = await sendWebhook({
      ...request,
      url: `http://localhost:${port}/hooks`,
      allowPrivateAddresses: true,
    });
    assert.equal(allowed.ok, true, allowed.error ?? '');
    assert.equal(receiver.received.length, 1);
  });
});
