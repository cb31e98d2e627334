/**
 * Streaming reader of GLEIF XML: LEI-CDF (lei:LEIRecord), RR-CDF (rr:RelationshipRecord) and the
 * reporting-exceptions file (counted, not used). Elements are matched by local name, so any
 * namespace prefix works. Memory stays flat whatever the file size: one record at a time.
 */
import { SaxesParser } from 'saxes';
import {
  emptyRawEntity,
  emptyRawRelationship,
  type GleifSink,
  type RawEntity,
  type RawRelationship,
} from './gleif-records.js';
import type { OwnershipFormat } from './model.js';

function local(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

export async function readGleifXml(chunks: AsyncIterable<string>, sink: GleifSink): Promise<OwnershipFormat> {
  const parser = new SaxesParser({ position: false });
  const stack: string[] = [];
  let text = '';
  let format: OwnershipFormat | undefined;
  let entity: RawEntity | undefined;
  let rel: RawRelationship | undefined;
  let otherNameType: string | undefined;
  let failure: Error | undefined;

  parser.on('error', (err) => {
    failure ??= err;
  });
  parser.on('opentag', (tag) => {
    const name = local(tag.name);
    if (stack.length === 0) {
      if (name === 'LEIData') format = 'gleif-lei-cdf-xml';
      else if (name === 'RelationshipData') format = 'gleif-rr-cdf-xml';
      else if (name === 'ReportingExceptionData') format = 'gleif-repex-xml';
    }
    stack.push(name);
    text = '';
    if (name === 'LEIRecord') entity = emptyRawEntity();
    else if (name === 'RelationshipRecord') rel = emptyRawRelationship();
    else if (name === 'RelationshipPeriod') rel?.periods.push({});
    else if (name === 'RelationshipQuantifier') rel?.quantifiers.push({});
    else if (name === 'OtherEntityName' || name === 'TransliteratedOtherEntityName') {
      const type = tag.attributes['type'];
      otherNameType = typeof type === 'string' ? type : undefined;
    }
  });
  parser.on('text', (t) => {
    text += t;
  });
  parser.on('cdata', (t) => {
    text += t;
  });
  parser.on('closetag', (tag) => {
    const name = local(tag.name);
    const parent = stack[stack.length - 2];
    const value = text.trim();
    text = '';
    if (name === 'ContentDate' && (parent === 'LEIHeader' || parent === 'Header')) sink.contentDate = value;
    else if (entity) closeEntity(entity, name, parent, value);
    else if (rel) closeRelationship(rel, name, parent, value);
    else if (name === 'Exception' && format === 'gleif-repex-xml') sink.records++;
    stack.pop();
  });

  function closeEntity(e: RawEntity, name: string, parent: string | undefined, value: string): void {
    switch (name) {
      case 'LEIRecord':
        sink.entity(e);
        entity = undefined;
        return;
      case 'LEI':
        if (parent === 'LEIRecord') e.lei = value;
        return;
      case 'LegalName':
        if (parent === 'Entity') e.name = value;
        return;
      case 'OtherEntityName':
      case 'TransliteratedOtherEntityName':
        if (value) {
          const other: RawEntity['otherNames'][number] = { name: value };
          if (otherNameType) other.type = otherNameType;
          if (name === 'TransliteratedOtherEntityName') other.transliterated = true;
          e.otherNames.push(other);
        }
        return;
      case 'Country':
        if (parent === 'LegalAddress') e.legalCountry = value;
        else if (parent === 'HeadquartersAddress') e.hqCountry = value;
        return;
      case 'LegalJurisdiction':
        e.jurisdiction = value;
        return;
      case 'EntityStatus':
        if (parent === 'Entity') e.status = value;
        return;
      case 'RegistrationStatus':
        if (parent === 'Registration') e.registrationStatus = value;
        return;
      case 'LastUpdateDate':
        if (parent === 'Registration') e.lastUpdate = value;
        return;
    }
  }

  function closeRelationship(r: RawRelationship, name: string, parent: string | undefined, value: string): void {
    const period = r.periods[r.periods.length - 1];
    const quantifier = r.quantifiers[r.quantifiers.length - 1];
    switch (name) {
      case 'RelationshipRecord':
        sink.relationship(r);
        rel = undefined;
        return;
      case 'NodeID':
        if (parent === 'StartNode') r.start = value;
        else if (parent === 'EndNode') r.end = value;
        return;
      case 'NodeIDType':
        if (parent === 'StartNode') r.startType = value;
        else if (parent === 'EndNode') r.endType = value;
        return;
      case 'RelationshipType':
        r.type = value;
        return;
      case 'RelationshipStatus':
        r.status = value;
        return;
      case 'StartDate':
        if (parent === 'RelationshipPeriod' && period) period.start = value;
        return;
      case 'EndDate':
        if (parent === 'RelationshipPeriod' && period) period.end = value;
        return;
      case 'PeriodType':
        if (parent === 'RelationshipPeriod' && period) period.type = value;
        return;
      case 'MeasurementMethod':
        if (quantifier) quantifier.method = value;
        return;
      case 'QuantifierAmount':
        if (quantifier) quantifier.amount = value;
        return;
      case 'QuantifierUnits':
        if (quantifier) quantifier.units = value;
        return;
      case 'RegistrationStatus':
        if (parent === 'Registration') r.registrationStatus = value;
        return;
      case 'LastUpdateDate':
        if (parent === 'Registration') r.lastUpdate = value;
        return;
    }
  }

  for await (const chunk of chunks) {
    parser.write(chunk);
    if (failure) throw failure;
  }
  parser.close();
  if (failure) throw failure;
  if (!format) throw new Error('not a GLEIF LEI-CDF, RR-CDF or reporting-exceptions document');
  return format;
}
