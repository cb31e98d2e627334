/**
 * US OFAC: the SDN list plus the non-SDN Consolidated list, merged into one us_ofac record set.
 * For each list the richest format present wins: advanced XML, then classic XML, then legacy CSV.
 */
import path from 'node:path';
import type { ListRecord, ParsedList, PublisherFile, SourceAdapter } from '../model.js';
import { addIdentifier, type ListDir, readListDir } from './kit/index.js';
import { parseOfacAdvancedXml } from './us-ofac-advanced.js';
import { parseOfacClassicXml, parseOfacLegacyCsv, type LegacyFiles } from './us-ofac-legacy.js';

const EXPORTS = 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/';

export const OFAC_PUBLISHER_FILES: PublisherFile[] = [
  { fileName: 'SDN_ADVANCED.XML', url: `${EXPORTS}SDN_ADVANCED.XML` },
  { fileName: 'CONS_ADVANCED.XML', url: `${EXPORTS}CONS_ADVANCED.XML`, optional: true },
  { fileName: 'SDN.XML', url: `${EXPORTS}SDN.XML`, optional: true },
  { fileName: 'CONSOLIDATED.XML', url: `${EXPORTS}CONSOLIDATED.XML`, optional: true },
  { fileName: 'SDN.CSV', url: `${EXPORTS}SDN.CSV`, optional: true },
  { fileName: 'ADD.CSV', url: `${EXPORTS}ADD.CSV`, optional: true },
  { fileName: 'ALT.CSV', url: `${EXPORTS}ALT.CSV`, optional: true },
  { fileName: 'SDN_COMMENTS.CSV', url: `${EXPORTS}SDN_COMMENTS.CSV`, optional: true },
  { fileName: 'CONS_PRIM.CSV', url: `${EXPORTS}CONS_PRIM.CSV`, optional: true },
  { fileName: 'CONS_ADD.CSV', url: `${EXPORTS}CONS_ADD.CSV`, optional: true },
  { fileName: 'CONS_ALT.CSV', url: `${EXPORTS}CONS_ALT.CSV`, optional: true },
  { fileName: 'CONS_COMMENTS.CSV', url: `${EXPORTS}CONS_COMMENTS.CSV`, optional: true },
];

interface ListPart {
  records: ListRecord[];
  publishedAt?: string;
  files: string[];
  format: string;
}

async function parseList(
  files: ListDir,
  names: { advanced: string; classic: string[]; csv: [string, string, string, string] },
  warnings: string[],
): Promise<ListPart | undefined> {
  const advanced = files.named(names.advanced);
  if (advanced) {
    const parsed = await parseOfacAdvancedXml(advanced, warnings);
    return { ...parsed, files: [path.basename(advanced)], format: 'OFAC advanced XML' };
  }
  const classic = files.named(...names.classic);
  if (classic) {
    const parsed = await parseOfacClassicXml(classic, warnings);
    return { ...parsed, files: [path.basename(classic)], format: 'OFAC XML' };
  }
  const [primary, add, alt, comments] = names.csv.map((n) => files.named(n));
  if (!primary) return undefined;
  const legacy: LegacyFiles = { primary };
  if (add) legacy.add = add;
  if (alt) legacy.alt = alt;
  if (comments) legacy.comments = comments;
  const used = [primary, add, alt, comments].filter((f): f is string => !!f).map((f) => path.basename(f));
  return { records: await parseOfacLegacyCsv(legacy, warnings), files: used, format: 'OFAC legacy CSV' };
}

export async function parseOfacDir(dir: string): Promise<ParsedList> {
  const files = await readListDir(dir);
  const warnings: string[] = [];
  const sdn = await parseList(
    files,
    { advanced: 'SDN_ADVANCED.XML', classic: ['SDN.XML'], csv: ['SDN.CSV', 'ADD.CSV', 'ALT.CSV', 'SDN_COMMENTS.CSV'] },
    warnings,
  );
  const cons = await parseList(
    files,
    {
      advanced: 'CONS_ADVANCED.XML',
      classic: ['CONSOLIDATED.XML', 'CONS_XML.XML'],
      csv: ['CONS_PRIM.CSV', 'CONS_ADD.CSV', 'CONS_ALT.CSV', 'CONS_COMMENTS.CSV'],
    },
    warnings,
  );
  const parts = [sdn, cons].filter((p): p is ListPart => !!p);
  if (parts.length === 0) throw new Error(`us_ofac: no SDN or consolidated list file in ${dir}`);

  const byId = new Map<string, ListRecord>();
  for (const part of parts) {
    for (const record of part.records) {
      if (byId.has(record.id)) {
        // SDN and non-SDN uids do not collide in practice; if one does, the SDN entry stays.
        warnings.push(`us_ofac: uid ${record.id} appears in more than one list; one kept`);
        continue;
      }
      addIdentifier(record, { type: 'ofac_uid', value: record.id, label: 'OFAC UID' });
      record.list = part === sdn ? 'SDN' : 'Consolidated (non-SDN)';
      byId.set(record.id, record);
    }
  }
  // The SDN list's date is the list's date; the consolidated list's only when alone.
  const publishedAt = sdn ? sdn.publishedAt : cons?.publishedAt;
  const result: ParsedList = {
    source: 'us_ofac',
    files: parts.flatMap((p) => p.files),
    format: parts.map((p) => `${p.format} (${p === sdn ? 'SDN' : 'consolidated non-SDN'})`).join(' + '),
    records: [...byId.values()],
    warnings,
  };
  if (publishedAt) result.publishedAt = publishedAt;
  return result;
}

export const usOfacAdapter: SourceAdapter = {
  source: 'us_ofac',
  label: 'US OFAC Specially Designated Nationals and Consolidated (non-SDN) lists',
  publisherFiles: OFAC_PUBLISHER_FILES,
  parse: parseOfacDir,
};
