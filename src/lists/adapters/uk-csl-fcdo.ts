/** United Kingdom: the FCDO UK Sanctions List XML, one Designation per target. */
import path from 'node:path';
import { emptyRecord, type ListRecord, type NameKind } from '../model.js';
import {
  addAlias,
  addDates,
  addIdentifier,
  addLabelledIdentifiers,
  addUnique,
  child,
  children,
  childText,
  countryList,
  descendantTexts,
  entityTypeOf,
  findDates,
  finishRecord,
  genderOf,
  IMO_LABEL,
  joinParts,
  makeAddress,
  parseDmy,
  streamXmlChildren,
  type XmlNode,
} from './kit/index.js';
import { BUSINESS_LABELS, qualityOf } from './uk-csl-labels.js';

/** The designation's references (UK, UN, OFSI group) and contact numbers and addresses. */
function addFcdoReferences(record: ListRecord, designation: XmlNode): void {
  addIdentifier(record, { type: 'uk_ref', value: record.id });
  for (const unReference of (childText(designation, 'UNReferenceNumber') ?? '').split(/[\s,;|]+/))
    addIdentifier(record, { type: 'un_ref', value: unReference });
  addIdentifier(record, {
    type: 'other',
    kind: 'list_reference',
    value: childText(designation, 'OFSIGroupID'),
    label: 'OFSI Group ID',
  });
  for (const phone of descendantTexts(child(designation, 'PhoneNumbers'), 'PhoneNumber'))
    addIdentifier(record, { type: 'other', kind: 'phone', value: phone, label: 'Phone number' });
  for (const email of descendantTexts(child(designation, 'EmailAddresses'), 'EmailAddress'))
    addIdentifier(record, { type: 'other', kind: 'email', value: email, label: 'Email address' });
  for (const site of descendantTexts(child(designation, 'Websites'), 'Website'))
    addIdentifier(record, { type: 'other', kind: 'website', value: site, label: 'Website' });
}

function addFcdoAddresses(record: ListRecord, designation: XmlNode): void {
  for (const addressNode of children(child(designation, 'Addresses'), 'Address')) {
    const lines = ['AddressLine1', 'AddressLine2', 'AddressLine3', 'AddressLine4', 'AddressLine5', 'AddressLine6'].map(
      (key) => childText(addressNode, key),
    );
    const text = joinParts([...lines, childText(addressNode, 'AddressPostalCode')], ', ');
    const address = makeAddress({ text, countryName: childText(addressNode, 'AddressCountry') });
    if (address) record.addresses.push(address);
  }
}

/** An individual's details: dates and places of birth, nationalities, gender, positions, documents. */
function addFcdoIndividual(record: ListRecord, individual: XmlNode): void {
  for (const dob of descendantTexts(child(individual, 'DOBs'), 'DOB'))
    addDates(record.birthDates, parseDmy(dob) ? [{ date: parseDmy(dob)! }] : findDates(dob));
  for (const nationality of descendantTexts(child(individual, 'Nationalities'), 'Nationality'))
    for (const code of countryList(nationality)) addUnique(record.nationalities, code);
  const gender = genderOf(descendantTexts(child(individual, 'Genders'), 'Gender')[0]);
  if (gender) record.gender = gender;
  const positions = descendantTexts(child(individual, 'Positions'), 'Position');
  if (positions.length) record.positions = positions;
  for (const passport of children(child(individual, 'PassportDetails'), 'Passport')) {
    const note = childText(passport, 'PassportAdditionalInformation');
    addIdentifier(record, { type: 'passport', value: childText(passport, 'PassportNumber') ?? '', note });
  }
  for (const nationalId of children(child(individual, 'NationalIdentifierDetails'), 'NationalIdentifier')) {
    const note = childText(nationalId, 'NationalIdentifierAdditionalInformation');
    addIdentifier(record, {
      type: 'national_id',
      value: childText(nationalId, 'NationalIdentifierNumber') ?? '',
      note,
    });
  }
  for (const loc of children(child(individual, 'BirthDetails'), 'Location')) {
    addUnique(
      record.birthPlaces,
      joinParts([childText(loc, 'TownOfBirth'), childText(loc, 'CountryOfBirth')], ', ') || undefined,
    );
  }
}

function fcdoRecord(designation: XmlNode, warnings: string[]): ListRecord | undefined {
  const id = childText(designation, 'UniqueID');
  const names = children(child(designation, 'Names'), 'Name').map((n) => ({
    name: joinParts(['Name1', 'Name2', 'Name3', 'Name4', 'Name5', 'Name6'].map((k) => childText(n, k))),
    type: (childText(n, 'NameType') ?? '').toLowerCase(),
    strength: childText(n, 'AliasStrength'),
  }));
  const primary = names.find((n) => n.type === 'primary name' && n.name) ?? names.find((n) => n.name);
  if (!id || !primary) {
    warnings.push(`Designation ${id ?? '?'} has no id or name; skipped`);
    return undefined;
  }
  const record = emptyRecord('uk_csl', id, entityTypeOf(childText(designation, 'IndividualEntityShip')), primary.name);
  for (const name of names) {
    if (name === primary) continue;
    const kind: NameKind = name.type.includes('variation') ? 'variation' : 'aka';
    addAlias(record, name.name, qualityOf(name.strength), kind);
  }
  for (const nonLatin of descendantTexts(child(designation, 'NonLatinNames'), 'NameNonLatinScript'))
    addAlias(record, nonLatin, 'strong', 'aka');
  const titles = descendantTexts(child(designation, 'Titles'), 'Title');
  if (titles.length) record.titles = titles;
  addUnique(record.programs, childText(designation, 'RegimeName'));
  record.listingDate = parseDmy(childText(designation, 'DateDesignated'));
  if (!record.listingDate) delete record.listingDate;
  addFcdoReferences(record, designation);
  addFcdoAddresses(record, designation);

  const individual = child(child(designation, 'IndividualDetails'), 'Individual');
  if (individual) addFcdoIndividual(record, individual);
  const ent = child(child(designation, 'EntityDetails'), 'Entity');
  for (const reg of descendantTexts(child(ent, 'BusinessRegistrationNumbers'), 'BusinessRegistrationNumber'))
    addLabelledIdentifiers(record, reg, BUSINESS_LABELS, {
      type: 'registration',
      label: 'Business registration number',
    });
  const ship = child(child(designation, 'ShipDetails'), 'Ship');
  for (const imo of descendantTexts(child(ship, 'IMONumbers'), 'IMONumber'))
    addLabelledIdentifiers(record, imo, IMO_LABEL, { type: 'imo', label: 'IMO number' });
  const remarks = [childText(designation, 'OtherInformation'), childText(designation, 'UKStatementofReasons')].filter(
    (x): x is string => !!x,
  );
  if (remarks.length) record.remarks = remarks.join('\n');
  return finishRecord(record);
}

export async function parseFcdo(
  file: string,
  warnings: string[],
): Promise<{ records: ListRecord[]; publishedAt?: string }> {
  const records: ListRecord[] = [];
  let publishedAt: string | undefined;
  await streamXmlChildren(file, {
    root(name) {
      if (name !== 'Designations')
        throw new Error(`${path.basename(file)}: root <${name}> is not an FCDO <Designations> list`);
    },
    child(node) {
      if (node.name === 'DateGenerated') publishedAt = parseDmy(node.text);
      else if (node.name === 'Designation') {
        const record = fcdoRecord(node, warnings);
        if (record) records.push(record);
      }
    },
  });
  return { records, publishedAt };
}
