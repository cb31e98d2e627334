import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { PublisherFile } from './model.js';
import type { FileValidator } from './poll-state.js';

export interface FetchOptions {
  timeoutMs: number;
  retries: number;
  /** `source:filename` (lower-case) → URL, from LIST_URLS. */
  overrides: Record<string, string>;
  /**
   * The validators the publisher gave for each file last time (by file name): the request is
   * conditional (If-None-Match, If-Modified-Since) and a 304 downloads nothing.
   */
  validators?: Record<string, FileValidator>;
}

export class DownloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DownloadError';
  }
}

const USER_AGENT = 'sanctions-screening/0.1 (+https://github.com/; list sync)';

/** The validators of a response, to send back next time. */
function validatorOf(headers: Headers): FileValidator {
  const etag = headers.get('etag');
  const lastModified = headers.get('last-modified');
  return { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
}

function conditionalHeaders(validator: FileValidator | undefined): Record<string, string> {
  return {
    ...(validator?.etag ? { 'if-none-match': validator.etag } : {}),
    ...(validator?.lastModified ? { 'if-modified-since': validator.lastModified } : {}),
  };
}

async function downloadOne(
  url: string,
  target: string,
  options: FetchOptions,
  validator?: FileValidator,
): Promise<{ notModified: boolean; validator: FileValidator }> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(30_000, 1000 * 2 ** attempt)));
    try {
      const response = await fetch(url, {
        signal: AbortSignal.timeout(options.timeoutMs),
        headers: { 'user-agent': USER_AGENT, ...conditionalHeaders(validator) },
        redirect: 'follow',
      });
      if (response.status === 304 && validator) {
        await response.body?.cancel();
        return { notModified: true, validator };
      }
      if (response.status === 404) throw new DownloadError(`${url} answered 404`);
      if (!response.ok || !response.body) throw new Error(`${url} answered ${response.status}`);
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(target));
      return { notModified: false, validator: validatorOf(response.headers) };
    } catch (error) {
      lastError = error;
      await rm(target, { force: true });
      if (error instanceof DownloadError) break;
    }
  }
  throw new DownloadError(
    `download of ${url} failed: ${lastError instanceof Error ? lastError.message : String(lastError)}`,
  );
}

/** Finds the newest link on a publisher's page whose file name matches the pattern. */
async function discoverLink(
  pageUrl: string,
  pattern: RegExp,
  options: FetchOptions,
): Promise<{ url: string; fileName: string }> {
  const response = await fetch(pageUrl, {
    signal: AbortSignal.timeout(options.timeoutMs),
    headers: { 'user-agent': USER_AGENT },
  });
  if (!response.ok) throw new DownloadError(`${pageUrl} answered ${response.status}`);
  const html = await response.text();
  const links = [...html.matchAll(/href\s*=\s*["']([^"']+)["']/gi)]
    .map((m) => new URL(m[1] as string, pageUrl))
    .map((u) => ({ url: u.toString(), fileName: decodeURIComponent(u.pathname.split('/').pop() ?? '') }))
    .filter((l) => pattern.test(l.fileName))
    .sort((a, b) => a.fileName.localeCompare(b.fileName));
  const newest = links.at(-1);
  if (!newest) throw new DownloadError(`${pageUrl} links to no file matching ${pattern}`);
  return newest;
}

export interface DownloadResult {
  downloaded: string[];
  skipped: string[];
  /** Every file answered 304 to a conditional request: nothing was downloaded. */
  notModified: boolean;
  /** What the publisher said of each file downloaded, for the next conditional request. */
  validators: Record<string, FileValidator>;
}

/**
 * Downloads a source's publisher files into `dir`, under the publishers' own names. A required file that
 * cannot be had fails the whole download; an optional one is skipped. With validators, each request
 * is conditional: when every file answers 304 nothing is downloaded; when only some do, those are
 * fetched again in full, since a version is parsed from all its files together.
 */
export async function downloadSource(
  source: string,
  files: PublisherFile[],
  dir: string,
  options: FetchOptions,
): Promise<DownloadResult> {
  await mkdir(dir, { recursive: true });
  const downloaded: string[] = [];
  const skipped: string[] = [];
  const unmodified: { url: string; fileName: string }[] = [];
  const validators: Record<string, FileValidator> = {};
  for (const file of files) {
    let url = options.overrides[`${source}:${file.fileName.toLowerCase()}`] ?? file.url;
    let fileName = file.fileName;
    try {
      if (file.linkPattern) ({ url, fileName } = await discoverLink(url, new RegExp(file.linkPattern, 'i'), options));
      const got = await downloadOne(url, join(dir, fileName), options, options.validators?.[fileName]);
      validators[fileName] = got.validator;
      if (got.notModified) unmodified.push({ url, fileName });
      else downloaded.push(fileName);
    } catch (error) {
      if (!file.optional) throw error;
      skipped.push(file.fileName);
    }
  }
  if (unmodified.length > 0 && downloaded.length === 0) {
    return { downloaded, skipped, notModified: true, validators };
  }
  for (const { url, fileName } of unmodified) {
    validators[fileName] = (await downloadOne(url, join(dir, fileName), options)).validator;
    downloaded.push(fileName);
  }
  if (downloaded.length === 0) throw new DownloadError(`no file of ${source} could be downloaded`);
  return { downloaded, skipped, notModified: false, validators };
}
