import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { PublisherFile } from './model.js';

export interface FetchOptions {
  timeoutMs: number;
  retries: number;
  /** `source:filename` (lower-case) → URL, from LIST_URLS. */
  overrides: Record<string, string>;
}

export class DownloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DownloadError';
  }
}

const USER_AGENT = 'sanctions-screening/0.1 (+https://github.com/; list sync)';

async function downloadOne(url: string, target: string, options: FetchOptions): Promise<void> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(30_000, 1000 * 2 ** attempt)));
    try {
      const response = await fetch(url, {
        signal: AbortSignal.timeout(options.timeoutMs),
        headers: { 'user-agent': USER_AGENT },
        redirect: 'follow',
      });
      if (response.status === 404) throw new DownloadError(`${url} answered 404`);
      if (!response.ok || !response.body) throw new Error(`${url} answered ${response.status}`);
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(target));
      return;
    } catch (error) {
      lastError = error;
      await rm(target, { force: true });
      if (error instanceof DownloadError) break;
    }
  }
  throw new DownloadError(`download of ${url} failed: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
}

/**
 * Downloads a source's publisher files into `dir`, under the publishers' own names. A required file that
 * cannot be had fails the whole download; an optional one is skipped.
 */
export async function downloadSource(
  source: string,
  files: PublisherFile[],
  dir: string,
  options: FetchOptions,
): Promise<{ downloaded: string[]; skipped: string[] }> {
  await mkdir(dir, { recursive: true });
  const downloaded: string[] = [];
  const skipped: string[] = [];
  for (const file of files) {
    const url = options.overrides[`${source}:${file.fileName.toLowerCase()}`] ?? file.url;
    try {
      await downloadOne(url, join(dir, file.fileName), options);
      downloaded.push(file.fileName);
    } catch (error) {
      if (!file.optional) throw error;
      skipped.push(file.fileName);
    }
  }
  if (downloaded.length === 0) throw new DownloadError(`no file of ${source} could be downloaded`);
  return { downloaded, skipped };
}
