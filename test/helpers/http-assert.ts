/**
 * Assertions shared by the HTTP integration tests: the error envelope of api-v1.md 2.1 / section 7
 * and the headers section 8 puts on every response, errors included.
 */
import assert from 'node:assert/strict';
import type { AppContext } from '../../src/start/context.js';
import { type TestResponse, activateRecords, sampleRecords } from './harness.js';

/** X-Request-Id and the three X-RateLimit-* headers, as integers where the contract says so. */
export function assertCommonHeaders(res: TestResponse, options: { rateLimit?: boolean } = {}): void {
  assert.match(res.headers.get('x-request-id') ?? '', /^req_[0-9a-z]+$/, `X-Request-Id on ${res.status}`);
  if (options.rateLimit === false) return;
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    const value = res.headers.get(name);
    assert.ok(value !== null, `${name} missing on a ${res.status} response: ${res.text}`);
    assert.match(value, /^\d+$/, `${name} is an integer`);
  }
}

/** A failed response: status, the envelope with exactly success/error, the code, and the common headers. */
export function assertError(
  res: TestResponse,
  status: number,
  code: string,
  options: { field?: string; rateLimit?: boolean } = {},
): void {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status}: ${res.text}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.ok(res.body && typeof res.body === 'object', `body is JSON: ${res.text}`);
  assert.equal(res.body.success, false);
  assert.equal(res.body.data, undefined);
  assert.equal(res.body.error.code, code);
  assert.equal(typeof res.body.error.message, 'string');
  assert.ok(res.body.error.message.length > 0);
  // Never a stack trace or a file path on any error.
  assert.doesNotMatch(res.text, /\n\s+at |\.ts:\d+|\.js:\d+|node_modules/);
  if (options.field !== undefined) {
    assert.equal(res.body.error.field, options.field, `error.field: ${res.text}`);
    assert.ok(
      res.body.error.message.includes(options.field),
      `the message names ${options.field}: ${res.body.error.message}`,
    );
  }
  assertCommonHeaders(res, options.rateLimit === false ? { rateLimit: false } : {});
}

/** Puts the two-list sample fixture in force; returns the version ids by source. */
export async function loadSampleLists(ctx: AppContext): Promise<{ us_ofac: string; un_csl: string }> {
  const records = sampleRecords();
  const us_ofac = await activateRecords(ctx, 'us_ofac', records.us_ofac);
  const un_csl = await activateRecords(ctx, 'un_csl', records.un_csl);
  return { us_ofac, un_csl };
}

/** Env for suites that send many requests with one key and are not about the rate limit. */
export const GENEROUS_LIMITS = { RATE_LIMIT_PER_MINUTE: '100000', AUTH_FAILURE_LIMIT_PER_MINUTE: '100000' };
