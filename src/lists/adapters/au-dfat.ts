/**
 * Australia DFAT Consolidated List: regulation8_consolidated.xlsx, one row per name. Alias rows
 * share the numeric part of the reference ("2" is the listing, "2a", "2b" its other names).
 */
import path from 'node:path';
import {
  emptyRecord,
  type ListRecord,
  type NameKind,
  type ParsedList,
  SOURCE_LABELS,
  type SourceAdapter,
} from '../model.js';
import {
  addAlias,
  addDates,
  addIdentifier,
  addLabelledIdentifiers,
  addUnique,
  cellText,
  type CellValue,
  clean,
  countryCode,
  countryList,
  emailsIn,
  entityTypeOf,
  excelSerialToIso,
  finishRecord,
  firstFullDate,
  IMO_LABEL,
  isoDate,
  parseDateCell,
  promoteToPrimary,
  readListDir,
  readXlsxRows,
  splitEnumerated,
  websitesIn,
} from './kit/index.js';

const COLUMNS = {
  reference: 'reference',
  name: 'name of individual or entity',
  type: 'type',
  nameType: 'name type',
  dob: 'date of birth',
  pob: 'place of birth',
  citizenship: 'citizenship',
  address: 'address',
  info: 'additional information',
  listing: 'listing information',
  committees: 'committees',
  control: 'control date',
} as const;

/** Name Type is typed by hand: "aka", "Aka ", "Original script", "Formerly known as", ... */
function nameKind(value: string): { primary: boolean; kind: NameKind; original: boolean } {
  const lowered = value.toLowerCase().replace(/\s+/g, ' ').trim();
  if (lowered.startsWith('primary')) return { primary: true, kind: 'variation', original: false };
  if (lowered.startsWith('original')) return { primary: false, kind: 'aka', original: true };
  if (lowered.startsWith('formerly') || lowered.startsWith('previously') || lowered === 'fka')
    return { primary: false, kind: 'fka', original: false };
  return { primary: false, kind: 'aka', original: false };
}

/** "Title: a) Mullah b) Haji. Designation: a) ... b) ..." inside Additional Information. */
function labelled(info: string, label: string): string[] {
  const match = new RegExp(`\\b${label}:\\s*([^]*?)(?=\\.\\s+[A-Z][A-Za-z' ]{2,40}:|\\.\\s*$|$)`).exec(info);
  if (!match) return [];
  const items = splitEnumerated(match[1]!);
  // The last item runs on into the next sentence of free text ("... Omar. A close associate ...").
  const last = items.length - 1;
  if (last >= 0) items[last] = items[last]!.split(/\.\s+(?=[A-Z][a-z])/)[0]!;
  return items.map((s) => clean(s.replace(/\.$/, ''))).filter((s): s is string => !!s);
}

function controlDate(value: CellValue | undefined): string | undefined {
  if (value instanceof Date) return isoDate(value);
  if (typeof value === 'number') return excelSerialToIso(value);
  return firstFullDate(cellText(value));
}

/**
 * Document numbers in Additional Information, always after a label and a colon: "Passport no.: a)
 * Tunisian passport number E590976 ... b) ...", "National identification no: 1047503170", "Tax
 * ID: ...", "State registration number: ...", "BIC: INAKRU41"; IMO numbers with or without the colon.
 */
const INFO_LABELS =
  /\b(?:[A-Z][a-z]+ )?(?:passport|national identification(?: card)?|identity card|id card|(?:company|business) identification|tax id(?:entification)?|pakistan national tax|italian fiscal code|(?:state )?registration(?: id)?|government gazette|swift(?:\/bic)?|bic|mmsi|ration card|(?:tel(?:ephone)?|phone|fax|facsimile)(?: numbers?)?)(?:\s*(?:no\.?|number|#))?\)?\s*:\s*/gi;

/** Identifiers in Additional Information: labelled numbers, e-mail addresses, websites after their label. */
function addInfoIdentifiers(r: ListRecord, info: string): void {
  addLabelledIdentifiers(r, info, INFO_LABELS);
  addLabelledIdentifiers(r, info, IMO_LABEL);
  for (const email of emailsIn(info)) addIdentifier(r, { type: 'other', kind: 'email', value: email, label: 'Email' });
  for (const match of info.matchAll(/\bweb\s?sites?\s*:\s*([^\n]*)/gi))
    for (const site of websitesIn(match[1]))
      addIdentifier(r, { type: 'other', kind: 'website', value: site, label: 'Website' });
}

interface Group {
  record: ListRecord;
  hasPrimary: boolean;
  firstKind: NameKind;
}

export const auDfatAdapter: SourceAdapter = {
  source: 'au_dfat',
  label: SOURCE_LABELS.au_dfat,
  publisherFiles: [
    {
      fileName: 'regulation8_consolidated.xlsx',
      url: 'https://www.dfat.gov.au/sites/default/files/regulation8_consolidated.xlsx',
    },
  ],
  async parse(dir: string): Promise<ParsedList> {
    const warnings: string[] = [];
    const file = (await readListDir(dir)).choose(/\.xlsx$/, /^regulation8_consolidated\.xlsx$/i, warnings);
    if (!file) throw new Error(`au_dfat: no regulation8_consolidated.xlsx in ${dir}`);

    const groups = new Map<string, Group>();
    let col: Record<keyof typeof COLUMNS, number> | undefined;
    let sheet = '';
    let published: string | undefined;
    for await (const row of readXlsxRows(file)) {
      const text = (k: keyof typeof COLUMNS): string => (col && col[k] >= 0 ? cellText(row.cells[col[k]]) : '');
      if (!col) {
        const headers = row.cells.map((c) => cellText(c).toLowerCase());
        if (headers.includes(COLUMNS.reference) && headers.includes(COLUMNS.name)) {
          col = Object.fromEntries(Object.entries(COLUMNS).map(([k, h]) => [k, headers.indexOf(h)])) as Record<
            keyof typeof COLUMNS,
            number
          >;
          sheet = row.sheetName;
        }
        continue;
      }
      if (row.sheetName !== sheet) break;
      const reference = text('reference');
      const name = clean(text('name'));
      const groupId = /^\d+/.exec(reference)?.[0];
      if (!groupId || !name) {
        if (reference || name) warnings.push(`row ${row.rowNumber}: no numeric reference or no name; skipped`);
        continue;
      }
      const kind = nameKind(text('nameType'));
      let group = groups.get(groupId);
      if (!group) {
        const record = emptyRecord('au_dfat', groupId, entityTypeOf(text('type')), name);
        group = { record, hasPrimary: kind.primary, firstKind: kind.kind };
        groups.set(groupId, group);
      } else if (kind.primary && !group.hasPrimary) {
        promoteToPrimary(group.record, name, { quality: 'strong', kind: group.firstKind });
        group.hasPrimary = true;
      }
      const into = group.record;
      if (into.name !== name) addAlias(into, name, 'strong', kind.kind);

      // The listing's details repeat on every alias row; reading each row keeps what differs.
      addDates(into.birthDates, parseDateCell(col.dob >= 0 ? row.cells[col.dob] : null));
      for (const place of splitEnumerated(text('pob'))) addUnique(into.birthPlaces, clean(place));
      for (const country of countryList(text('citizenship'))) addUnique(into.citizenships, country);
      for (const address of splitEnumerated(text('address'))) {
        const cleaned = clean(address);
        if (!cleaned || into.addresses.some((x) => x.text === cleaned)) continue;
        const last = cleaned.split(',').pop();
        const iso = countryCode(last);
        into.addresses.push(iso ? { text: cleaned, country: iso, countryName: clean(last)! } : { text: cleaned });
      }
      const info = clean(text('info'));
      if (info && !(into.remarks ?? '').includes(info)) into.remarks = into.remarks ? `${into.remarks}\n${info}` : info;
      if (info) {
        const titles = labelled(info, 'Title');
        if (titles.length) into.titles = [...new Set([...(into.titles ?? []), ...titles])];
        const positions = labelled(info, 'Designation');
        if (positions.length) into.positions = [...new Set([...(into.positions ?? []), ...positions])];
        addInfoIdentifiers(into, info);
      }
      const listed = firstFullDate(text('listing'));
      if (listed && (!into.listingDate || listed < into.listingDate)) into.listingDate = listed;
      for (const committee of text('committees').split(/\n/)) addUnique(into.programs, clean(committee));
      const control = controlDate(col.control >= 0 ? row.cells[col.control] : null);
      if (control && (!published || control > published)) published = control;
    }
    if (!col)
      throw new Error(`${path.basename(file)}: no header row with "Reference" and "Name of Individual or Entity"`);
    const records = [...groups.values()].map((g) => {
      if (!g.hasPrimary) warnings.push(`reference ${g.record.id}: no row marked Primary Name; used the first name`);
      return finishRecord(g.record);
    });
    if (records.length === 0) throw new Error(`au_dfat: ${path.basename(file)} holds no listings`);
    return {
      source: 'au_dfat',
      // DFAT prints no publication date; the latest Control Date is the newest change in the file.
      publishedAt: published,
      files: [path.basename(file)],
      format: 'DFAT consolidated list XLSX',
      records,
      warnings,
    };
  },
};
