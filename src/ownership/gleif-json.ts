/**
 * GLEIF JSON in its two shapes: the golden-copy JSON (the XML turned into JSON, `$` for text and
 * `@name` for attributes, records under `records`) and the GLEIF API's JSON:API documents
 * (`lei-records` and `relationship-records` under `data`, publish date in `meta`).
 */
import {
  emptyRawEntity,
  emptyRawRelationship,
  type GleifSink,
  type RawEntity,
  type RawRelationship,
} from './gleif-records.js';
import { JsonRecordSplitter } from './json-stream.js';
import type { OwnershipFormat } from './model.js';

type Json = Record<string, unknown>;

function obj(v: unknown): Json | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}
function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
}
/** Text of a golden-copy node (`{"$": "…"}`) or a plain string. */
function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  const o = obj(v);
  return o && typeof o['$'] === 'string' ? o['$'] : undefined;
}
function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

export interface JsonReadResult {
  format: OwnershipFormat | undefined;
}

export async function readGleifJson(chunks: AsyncIterable<string>, sink: GleifSink): Promise<JsonReadResult> {
  let format: OwnershipFormat | undefined;
  const splitter = new JsonRecordSplitter(new Set(['records', 'data', 'meta', 'Header', 'LEIHeader']), (key, value) => {
    const o = obj(value);
    if (!o) return;
    if (key === 'meta') {
      const published = str(obj(obj(o['goldenCopy']))?.['publishDate']);
      if (published) sink.contentDate = published;
    } else if (key === 'Header' || key === 'LEIHeader') {
      const date = text(o['ContentDate']);
      if (date) sink.contentDate = date;
    } else if (key === 'records') {
      if (o['LEI'] !== undefined && o['Entity'] !== undefined) {
        sink.entity(goldenEntity(o));
        format = 'gleif-golden-copy-json';
      } else if (o['Relationship'] !== undefined) {
        sink.relationship(goldenRelationship(o));
        format = 'gleif-golden-copy-json';
      }
    } else if (key === 'data') {
      const attributes = obj(o['attributes']);
      if (!attributes) return;
      if (o['type'] === 'lei-records') {
        sink.entity(apiEntity(attributes));
        format = 'gleif-api-json';
      } else if (o['type'] === 'relationship-records') {
        sink.relationship(apiRelationship(attributes));
        format = 'gleif-api-json';
      }
    }
  });
  for await (const chunk of chunks) splitter.write(chunk);
  splitter.end();
  return { format };
}

function goldenEntity(o: Json): RawEntity {
  const e = emptyRawEntity();
  e.lei = text(o['LEI']);
  const entity = obj(o['Entity']) ?? {};
  e.name = text(entity['LegalName']);
  for (const [holder, item, transliterated] of [
    ['OtherEntityNames', 'OtherEntityName', false],
    ['TransliteratedOtherEntityNames', 'TransliteratedOtherEntityName', true],
  ] as const) {
    for (const n of list(obj(entity[holder])?.[item])) {
      const name = text(n);
      if (!name) continue;
      const other: RawEntity['otherNames'][number] = { name };
      const type = str(obj(n)?.['@type']);
      if (type) other.type = type;
      if (transliterated) other.transliterated = true;
      e.otherNames.push(other);
    }
  }
  e.legalCountry = text(obj(entity['LegalAddress'])?.['Country']);
  e.hqCountry = text(obj(entity['HeadquartersAddress'])?.['Country']);
  e.jurisdiction = text(entity['LegalJurisdiction']);
  e.status = text(entity['EntityStatus']);
  const registration = obj(o['Registration']) ?? {};
  e.registrationStatus = text(registration['RegistrationStatus']);
  e.lastUpdate = text(registration['LastUpdateDate']);
  return e;
}

function goldenRelationship(o: Json): RawRelationship {
  const r = emptyRawRelationship();
  const rel = obj(o['Relationship']) ?? {};
  const start = obj(rel['StartNode']) ?? {};
  const end = obj(rel['EndNode']) ?? {};
  r.start = text(start['NodeID']);
  r.startType = text(start['NodeIDType']);
  r.end = text(end['NodeID']);
  r.endType = text(end['NodeIDType']);
  r.type = text(rel['RelationshipType']);
  r.status = text(rel['RelationshipStatus']);
  for (const p of list(obj(rel['RelationshipPeriods'])?.['RelationshipPeriod'])) {
    const period = obj(p) ?? {};
    r.periods.push({
      start: text(period['StartDate']),
      end: text(period['EndDate']),
      type: text(period['PeriodType']),
    });
  }
  for (const q of list(obj(rel['RelationshipQuantifiers'])?.['RelationshipQuantifier'])) {
    const quantifier = obj(q) ?? {};
    r.quantifiers.push({
      method: text(quantifier['MeasurementMethod']),
      amount: text(quantifier['QuantifierAmount']),
      units: text(quantifier['QuantifierUnits']),
    });
  }
  const registration = obj(o['Registration']) ?? {};
  r.registrationStatus = text(registration['RegistrationStatus']);
  r.lastUpdate = text(registration['LastUpdateDate']);
  return r;
}

function apiEntity(a: Json): RawEntity {
  const e = emptyRawEntity();
  e.lei = str(a['lei']);
  const entity = obj(a['entity']) ?? {};
  e.name = str(obj(entity['legalName'])?.['name']);
  for (const [field, transliterated] of [
    ['otherNames', false],
    ['transliteratedOtherNames', true],
  ] as const) {
    for (const n of list(entity[field])) {
      const name = str(obj(n)?.['name']);
      if (!name) continue;
      const other: RawEntity['otherNames'][number] = { name };
      const type = str(obj(n)?.['type']);
      if (type) other.type = type;
      if (transliterated) other.transliterated = true;
      e.otherNames.push(other);
    }
  }
  e.legalCountry = str(obj(entity['legalAddress'])?.['country']);
  e.hqCountry = str(obj(entity['headquartersAddress'])?.['country']);
  e.jurisdiction = str(entity['jurisdiction']);
  e.status = str(entity['status']);
  const registration = obj(a['registration']) ?? {};
  e.registrationStatus = str(registration['status']);
  e.lastUpdate = str(registration['lastUpdateDate']);
  return e;
}

function apiRelationship(a: Json): RawRelationship {
  const r = emptyRawRelationship();
  const rel = obj(a['relationship']) ?? {};
  r.start = str(obj(rel['startNode'])?.['id']);
  r.startType = str(obj(rel['startNode'])?.['type']);
  r.end = str(obj(rel['endNode'])?.['id']);
  r.endType = str(obj(rel['endNode'])?.['type']);
  r.type = str(rel['type']);
  r.status = str(rel['status']);
  for (const p of list(rel['periods'])) {
    const period = obj(p) ?? {};
    r.periods.push({ start: str(period['startDate']), end: str(period['endDate']), type: str(period['type']) });
  }
  // The API names the quantifier fields in camelCase; both spellings seen in GLEIF material are read.
  for (const q of list(rel['quantifiers'])) {
    const quantifier = obj(q) ?? {};
    r.quantifiers.push({
      method: str(quantifier['measurementMethod']),
      amount: str(quantifier['quantifierAmount'] ?? quantifier['amount']),
      units: str(quantifier['quantifierUnits'] ?? quantifier['units']),
    });
  }
  const registration = obj(a['registration']) ?? {};
  r.registrationStatus = str(registration['status']);
  r.lastUpdate = str(registration['lastUpdateDate']);
  return r;
}
