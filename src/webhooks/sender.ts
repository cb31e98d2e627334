import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { ForbiddenAddressError, isForbiddenAddress, safeLookup, urlHost } from './ssrf.js';

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivateAddresses: boolean;
}

export interface SendResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
}

const USER_AGENT = 'sanctions-screening-webhooks/1';

/**
 * One POST of a webhook. Success is a 2xx response within the time-out (api-v1.md 6.4); redirects
 * are not followed and count as failures, so a receiver cannot bounce a delivery to an internal
 * address. The connection goes through the SSRF-checking lookup, and an IP-literal host (which skips
 * DNS) is checked directly.
 */
export function sendWebhook(request: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const done = (ok: boolean, status: number | null, error: string | null): SendResult => ({
    ok,
    status,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return Promise.resolve(done(false, null, 'invalid webhook URL'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return Promise.resolve(done(false, null, 'webhook URL must be http or https'));
  const host = urlHost(url);
  if (!request.allowPrivateAddresses && isIP(host) && isForbiddenAddress(host)) {
    return Promise.resolve(done(false, null, new ForbiddenAddressError(host, host).message));
  }

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(url, {
      method: 'POST',
      agent: false,
      lookup: safeLookup(request.allowPrivateAddresses),
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'content-length': String(Buffer.byteLength(request.body)),
        ...request.headers,
      },
    });
    const timer = setTimeout(() => {
      finish(done(false, null, `no response within ${request.timeoutMs} ms`));
      req.destroy();
    }, request.timeoutMs);
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      // The body is not needed; drain it so the socket closes cleanly.
      res.resume();
      res.on('error', () => undefined);
      if (status >= 200 && status < 300) finish(done(true, status, null));
      else if (status >= 300 && status < 400) finish(done(false, status, `redirect (${status}) not followed`));
      else finish(done(false, status, `HTTP ${status}`));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      finish(
        done(
          false,
          null,
          error instanceof ForbiddenAddressError ? error.message : `${error.code ?? 'error'}: ${error.message}`,
        ),
      );
    });
    req.end(request.body);
  });
}
