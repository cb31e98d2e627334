/**
 * Test-only helpers to compare the identifiers an adapter read with those found in the raw file by
 * other means: both sides become sets of "record id|normalized value" per kind.
 */
import assert from 'node:assert/strict';
import { normalizeIdentifier, type IdentifierKind } from '../../src/identifiers/index.js';
import type { ListRecord } from '../../src/lists/model.js';

export type Census = Map<IdentifierKind, Set<string>>;

/** What the adapter read, by kind. */
export function censusOf(records: ListRecord[]): Census {
  const out: Census = new Map();
  for (const r of records) {
    for (const id of r.identifiers) {
      const kind = id.kind ?? 'other';
      const key = id.currency ? `${r.id}|${id.currency}|${id.normalized}` : `${r.id}|${id.normalized}`;
      if (!out.has(kind)) out.set(kind, new Set());
      out.get(kind)!.add(key);
    }
  }
  return out;
}

/** Identifier entries by kind, as the README's table counts them. */
export function countsByKind(records: ListRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of records) for (const id of r.identifiers) out[id.kind ?? 'other'] = (out[id.kind ?? 'other'] ?? 0) + 1;
  return out;
}

/** A set being built from the raw file: values normalized the way a screening compares them. */
export class RawCensus {
  readonly census: Census = new Map();
  add(kind: IdentifierKind, recordId: string, value: string, currency?: string): void {
    const normalized = normalizeIdentifier(kind, value);
    if (!normalized) return;
    if (!this.census.has(kind)) this.census.set(kind, new Set());
    this.census.get(kind)!.add(currency ? `${recordId}|${currency}|${normalized}` : `${recordId}|${normalized}`);
  }
}

/** The two sides hold the same identifiers of `kind`; the first differences are named when not. */
export function assertSameKind(read: Census, raw: RawCensus, kind: IdentifierKind, atLeast = 1): void {
  const a = read.get(kind) ?? new Set<string>();
  const b = raw.census.get(kind) ?? new Set<string>();
  const missing = [...b].filter((k) => !a.has(k));
  const extra = [...a].filter((k) => !b.has(k));
  assert.deepEqual(
    { missing: missing.slice(0, 5), extra: extra.slice(0, 5) },
    { missing: [], extra: [] },
    `${kind}: ${missing.length} in the file not read, ${extra.length} read not in the file`,
  );
  assert.ok(b.size >= atLeast, `${kind}: at least ${atLeast} in the file (found ${b.size})`);
}
