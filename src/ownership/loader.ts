/**
 * Reads every file under OWNERSHIP_DIR into one ownership graph. Formats are recognized by
 * content, not by file name, so publishers' own names (or renamed copies) work; files of other
 * kinds are listed as ignored. Each file is read once, as a stream, and hashed on the way, so the
 * data version (sha256) costs no second pass.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { isStakesHeader, readStakesCsv } from './csv-stakes.js';
import { readGleifJson } from './gleif-json.js';
import { GleifSink } from './gleif-records.js';
import { readGleifXml } from './gleif-xml.js';
import { OwnershipGraphBuilder, type OwnershipGraph } from './graph.js';
import type { OwnershipEntity, OwnershipFileInfo, RelationshipKind, Stake } from './model.js';

export interface OwnershipData {
  graph: OwnershipGraph;
  /** LEI reference data: lei -> legal name, other names, country. */
  entities: {
    readonly size: number;
    get(lei: string): OwnershipEntity | undefined;
    [Symbol.iterator](): Iterator<OwnershipEntity>;
  };
  /** Relationships after de-duplication, counted (`kind: 'stake'`) or not. */
  stakes: {
    readonly length: number;
    at(i: number): Stake;
    [Symbol.iterator](): Iterator<Stake>;
  };
  /** Latest content date over the files, YYYY-MM-DD. */
  asOf?: string;
  files: OwnershipFileInfo[];
  warnings: string[];
  /** SHA-256 over the recognized files (relative path and content), in path order. */
  sha256: string;
  counts: {
    entities: number;
    relationships: number;
    /** Relationship records replaced by a later record of the same relationship. */
    superseded: number;
    byKind: Record<RelationshipKind, number>;
  };
}

const HEAD_BYTES = 1 << 20;

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(dir, prefix), { withFileTypes: true });
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith('.')) continue;
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

interface OpenedFile {
  head: string;
  chunks: AsyncIterable<string>;
  close(): void;
}

async function openText(file: string, hash: Hash): Promise<OpenedFile> {
  const stream = createReadStream(file, { highWaterMark: HEAD_BYTES });
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const decoder = new StringDecoder('utf8');
  const first = await iterator.next();
  let head = '';
  if (!first.done) {
    hash.update(first.value);
    head = decoder.write(first.value).replace(/^\uFEFF/, '');
  }
  async function* chunks(): AsyncGenerator<string> {
    if (head) yield head;
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      hash.update(next.value);
      yield decoder.write(next.value);
    }
    const tail = decoder.end();
    if (tail) yield tail;
  }
  return { head, chunks: chunks(), close: () => stream.destroy() };
}

type Detected = 'xml' | 'json' | 'csv' | undefined;

function detect(head: string): Detected {
  const start = head.trimStart();
  if (start.startsWith('<'))
    return /<(?:\w+:)?(?:LEIData|RelationshipData|ReportingExceptionData)[\s>]/.test(head) ? 'xml' : undefined;
  if (start.startsWith('{') || start.startsWith('[')) {
    return /"(?:records|data)"\s*:/.test(head) && /"(?:LEI|Relationship|lei-records|relationship-records)"/.test(head)
      ? 'json'
      : undefined;
  }
  const firstLine = start.split(/\r?\n/, 1)[0] ?? '';
  return isStakesHeader(firstLine) ? 'csv' : undefined;
}

export interface LoadOptions {
  /** Files over this many bytes are refused with a warning (default: no limit). */
  maxFileBytes?: number;
}

/** Reads one recognized file into the graph: a stakes CSV, or GLEIF XML or JSON. */
async function readOwnershipFile(
  rel: string,
  kind: 'xml' | 'json' | 'csv',
  opened: OpenedFile,
  context: { builder: OwnershipGraphBuilder; warnings: string[] },
): Promise<OwnershipFileInfo> {
  const { builder, warnings } = context;
  const warn = (message: string): void => {
    warnings.push(`${rel}: ${message}`);
  };
  try {
    if (kind === 'csv') {
      const result = await readStakesCsv(opened.chunks, builder, warn);
      const entry: OwnershipFileInfo = { file: rel, format: 'stakes-csv', records: result.rows };
      if (result.contentDate) entry.contentDate = result.contentDate;
      return entry;
    }
    const sink = new GleifSink(builder, (m) => warnings.push(m));
    const format =
      kind === 'xml' ? await readGleifXml(opened.chunks, sink) : (await readGleifJson(opened.chunks, sink)).format;
    sink.flushProblems(rel);
    const entry: OwnershipFileInfo = { file: rel, format: format ?? 'ignored', records: sink.records };
    const date = (sink.contentDate ?? sink.latestRecordDate)?.slice(0, 10);
    if (date && format) entry.contentDate = date;
    return entry;
  } catch (err) {
    opened.close();
    throw new Error(`${rel}: ${(err as Error).message}`, { cause: err });
  }
}

/** The finished graph with its views, counts, the newest content date and the digest of the files read. */
function ownershipData(
  graph: OwnershipGraph,
  read: { files: OwnershipFileInfo[]; warnings: string[]; digests: string[] },
): OwnershipData {
  const { files, warnings, digests } = read;
  const total = createHash('sha256');
  for (const digest of digests) total.update(digest);
  let asOf: string | undefined;
  for (const file of files) if (file.contentDate && (!asOf || file.contentDate > asOf)) asOf = file.contentDate;
  if (digests.length === 0)
    warnings.push('no ownership file recognized (GLEIF LEI-CDF/RR-CDF XML or JSON, stakes CSV)');
  const over = graph.overOwned();
  if (over.length > 0) {
    warnings.push(
      `${over.length} entit(ies) whose recorded stakes add up to more than 100%, e.g. ${over.slice(0, 5).join(', ')}`,
    );
  }
  let entityCount = 0;
  for (const _ of graph.entities()) entityCount++;
  const data: OwnershipData = {
    graph,
    entities: {
      size: entityCount,
      get: (lei) => graph.entity(lei),
      [Symbol.iterator]: () => graph.entities(),
    },
    stakes: {
      length: graph.edgeCount,
      at: (i) => graph.stakeAt(i),
      [Symbol.iterator]: () => graph.stakes(),
    },
    files,
    warnings,
    sha256: total.digest('hex'),
    counts: {
      entities: entityCount,
      relationships: graph.edgeCount,
      superseded: graph.superseded,
      byKind: graph.countByKind(),
    },
  };
  if (asOf) data.asOf = asOf;
  return data;
}

export async function loadOwnershipDir(dir: string, options: LoadOptions = {}): Promise<OwnershipData> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new Error(`ownership directory not found: ${dir}`);
  const builder = new OwnershipGraphBuilder();
  const warnings: string[] = [];
  const files: OwnershipFileInfo[] = [];
  const digests: string[] = [];

  for (const rel of await listFiles(dir)) {
    const full = path.join(dir, rel);
    const size = (await stat(full)).size;
    if (options.maxFileBytes !== undefined && size > options.maxFileBytes) {
      warnings.push(`${rel}: ${size} bytes, over the limit; not read`);
      files.push({ file: rel, format: 'ignored', records: 0 });
      continue;
    }
    const hash = createHash('sha256');
    const opened = await openText(full, hash);
    const kind = detect(opened.head);
    if (!kind) {
      opened.close();
      files.push({ file: rel, format: 'ignored', records: 0 });
      continue;
    }
    const entry = await readOwnershipFile(rel, kind, opened, { builder, warnings });
    files.push(entry);
    if (entry.format !== 'ignored') digests.push(`${rel}\0${hash.digest('hex')}\n`);
  }
  return ownershipData(builder.finish(), { files, warnings, digests });
}
