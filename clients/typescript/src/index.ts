import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

/**
 * The typed client of the Sanctions Screening Service API: openapi-fetch over the types that
 * openapi-typescript generates from the service's OpenAPI document (./schema.ts), with what a caller
 * needs around it: the API key on every request, and a retry on 429 after the Retry-After the service
 * sends, for requests that can be repeated safely. A POST is repeated only when it carries an
 * Idempotency-Key (POST /v1/screen stores a screening and counts against the quota: repeating one
 * without its key could screen twice); GET, PUT, DELETE and HEAD are repeated.
 */

export type { components, operations, paths };
export type Schemas = components['schemas'];
/** The error envelope every failure uses; `error.code` is one of the service's codes. */
export type ApiError = Schemas['ErrorEnvelope'];
export type ErrorCode = ApiError['error']['code'];
export type ScreenRequest = Schemas['ScreenRequest'];

export interface ClientOptions {
  /** Where the service is, e.g. https://screening.example.com (the paths carry /v1). */
  baseUrl: string;
  apiKey: string;
  /** Retries of one request after a 429 (default 3); 0 turns retrying off. */
  maxRetries?: number;
  /** A 429 asking to wait longer than this is returned to the caller instead (seconds, default 60). */
  maxRetryAfterSeconds?: number;
  /** The fetch to use (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
  /** How to wait before a retry (default: a timer); tests and schedulers may pass their own. */
  sleep?: (ms: number) => Promise<void>;
  /** Told of every retry it makes: the request, the attempt (1-based) and the seconds it waits. */
  onRetry?: (info: { method: string; url: string; attempt: number; waitSeconds: number }) => void;
}

export type SanctionsClient = Client<paths>;

/** A new Idempotency-Key: one per screening the caller means to run once, reused for its retries. */
export function idempotencyKey(): string {
  return crypto.randomUUID();
}

/** Retry-After as seconds: a whole number of seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSeconds(response: Response, now: number = Date.now()): number | undefined {
  const value = response.headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** Whether repeating the request cannot do a second time what the first did. */
export function mayRepeat(request: Request): boolean {
  const method = request.method.toUpperCase();
  if (method === 'POST') return request.headers.has('idempotency-key');
  return method !== 'PATCH';
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createSanctionsClient(options: ClientOptions): SanctionsClient {
  const maxRetries = options.maxRetries ?? 3;
  const maxWait = options.maxRetryAfterSeconds ?? 60;
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sleep = options.sleep ?? wait;

  async function fetchWithRetry(request: Request): Promise<Response> {
    const repeatable = mayRepeat(request);
    for (let attempt = 0; ; attempt++) {
      // The body of a request can be read once: each attempt sends a copy.
      const response = await send(repeatable ? request.clone() : request);
      if (response.status !== 429 || !repeatable || attempt >= maxRetries) return response;
      const seconds = retryAfterSeconds(response);
      if (seconds === undefined || seconds > maxWait) return response;
      await response.body?.cancel();
      options.onRetry?.({ method: request.method, url: request.url, attempt: attempt + 1, waitSeconds: seconds });
      await sleep(seconds * 1000);
    }
  }

  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { 'x-api-key': options.apiKey },
    fetch: fetchWithRetry,
  });
}
