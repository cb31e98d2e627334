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
  const record = obj(v);
  return record && typeof record['$'] === 'string' ? record['$'] : undefined;
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
    const record = obj(value);
    if (!record) return;
    if (key === 'meta') {
      const published = str(obj(obj(record['goldenCopy']))?.['publishDate']);
      if (published) sink.contentDate = published;
    } else if (key === 'Header' || key === 'LEIHeader') {
      const date = text(record['ContentDate']);
      if (date) sink.contentDate = date;
    } else if (key === 'records') {
      if (record['LEI'] !== undefined && record['Entity'] !== undefined) {
        sink.entity(goldenEntity(record));
        format = 'gleif-golden-copy-json';
      } else if (record['Relationship'] !== undefined) {
        sink.relationship(goldenRelationship(record));
        format = 'gleif-golden-copy-json';
      }
    } else if (key === 'data') {
      const attributes = obj(record['attributes']);
      if (!attributes) return;
      if (record['type'] === 'lei-records') {
        sink.entity(apiEntity(attributes));
        format = 'gleif-api-json';
      } else if (record['type'] === 'relationship-records') {
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
  const raw = emptyRawEntity();
  raw.lei = text(o['LEI']);
  const entity = obj(o['Entity']) ?? {};
  raw.name = text(entity['LegalName']);
  for (const [holder, item, transliterated] of [
    ['OtherEntityNames', 'OtherEntityName', false],
    ['TransliteratedOtherEntityNames', 'TransliteratedOtherEntityName', true],
  ] as const) {
    for (const otherName of list(obj(entity[holder])?.[item])) {
      const name = text(otherName);
      if (!name) continue;
      const other: RawEntity['otherNames'][number] = { name };
      const type = str(obj(otherName)?.['@type']);
      if (type) other.type = type;
      if (transliterated) other.transliterated = true;
      raw.otherNames.push(other);
    }
  }
  raw.legalCountry = text(obj(entity['LegalAddress'])?.['Country']);
  raw.hqCountry = text(obj(entity['HeadquartersAddress'])?.['Country']);
  raw.jurisdiction = text(entity['LegalJurisdiction']);
  raw.status = text(entity['EntityStatus']);
  const registration = obj(o['Registration']) ?? {};
  raw.registrationStatus = text(registration['RegistrationStatus']);
  raw.lastUpdate = text(registration['LastUpdateDate']);
  return raw;
}

function goldenRelationship(o: Json): RawRelationship {
  const relationship = emptyRawRelationship();
  const rel = obj(o['Relationship']) ?? {};
  const start = obj(rel['StartNode']) ?? {};
  const end = obj(rel['EndNode']) ?? {};
  relationship.start = text(start['NodeID']);
  relationship.startType = text(start['NodeIDType']);
  relationship.end = text(end['NodeID']);
  relationship.endType = text(end['NodeIDType']);
  relationship.type = text(rel['RelationshipType']);
  relationship.status = text(rel['RelationshipStatus']);
  for (const periodJson of list(obj(rel['RelationshipPeriods'])?.['RelationshipPeriod'])) {
    const period = obj(periodJson) ?? {};
    relationship.periods.push({
      start: text(period['StartDate']),
      end: text(period['EndDate']),
      type: text(period['PeriodType']),
    });
  }
  for (const quantifierJson of list(obj(rel['RelationshipQuantifiers'])?.['RelationshipQuantifier'])) {
    const quantifier = obj(quantifierJson) ?? {};
    relationship.quantifiers.push({
      method: text(quantifier['MeasurementMethod']),
      amount: text(quantifier['QuantifierAmount']),
      units: text(quantifier['QuantifierUnits']),
    });
  }
  const registration = obj(o['Registration']) ?? {};
  relationship.registrationStatus = text(registration['RegistrationStatus']);
  relationship.lastUpdate = text(registration['LastUpdateDate']);
  return relationship;
}

function apiEntity(a: Json): RawEntity {
  const raw = emptyRawEntity();
  raw.lei = str(a['lei']);
  const entity = obj(a['entity']) ?? {};
  raw.name = str(obj(entity['legalName'])?.['name']);
  for (const [field, transliterated] of [
    ['otherNames', false],
    ['transliteratedOtherNames', true],
  ] as const) {
    for (const otherName of list(entity[field])) {
      const name = str(obj(otherName)?.['name']);
      if (!name) continue;
      const other: RawEntity['otherNames'][number] = { name };
      const type = str(obj(otherName)?.['type']);
      if (type) other.type = type;
      if (transliterated) other.transliterated = true;
      raw.otherNames.push(other);
    }
  }
  raw.legalCountry = str(obj(entity['legalAddress'])?.['country']);
  raw.hqCountry = str(obj(entity['headquartersAddress'])?.['country']);
  raw.jurisdiction = str(entity['jurisdiction']);
  raw.status = str(entity['status']);
  const registration = obj(a['registration']) ?? {};
  raw.registrationStatus = str(registration['status']);
  raw.lastUpdate = str(registration['lastUpdateDate']);
  return raw;
}

function apiRelationship(a: Json): RawRelationship {
  const relationship = emptyRawRelationship();
  const rel = obj(a['relationship']) ?? {};
  relationship.start = str(obj(rel['startNode'])?.['id']);
  relationship.startType = str(obj(rel['startNode'])?.['type']);
  relationship.end = str(obj(rel['endNode'])?.['id']);
  relationship.endType = str(obj(rel['endNode'])?.['type']);
  relationship.type = str(rel['type']);
  relationship.status = str(rel['status']);
  for (const periodJson of list(rel['periods'])) {
    const period = obj(periodJson) ?? {};
    relationship.periods.push({
      start: str(period['startDate']),
      end: str(period['endDate']),
      type: str(period['type']),
    });
  }
  // The API names the quantifier fields in camelCase; both spellings seen in GLEIF material are read.
  for (const quantifierJson of list(rel['quantifiers'])) {
    const quantifier = obj(quantifierJson) ?? {};
    relationship.quantifiers.push({
      method: str(quantifier['measurementMethod']),
      amount: str(quantifier['quantifierAmount'] ?? quantifier['amount']),
      units: str(quantifier['quantifierUnits'] ?? quantifier['units']),
    });
  }
  const registration = obj(a['registration']) ?? {};
  relationship.registrationStatus = str(registration['status']);
  relationship.lastUpdate = str(registration['lastUpdateDate']);
  return relationship;
}
