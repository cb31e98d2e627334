/**
 * Every identifier the UN, EU, UK, Canadian, Australian, Japanese and CSL files print reaches
 * the records: identifiers counted by kind in ../shared/data/lists, against the raw files read by
 * other means (regular expressions over the XML and CSV text, unzip for the workbooks) where the
 * file says plainly what a number is, and named examples where it is free text.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseCsvSync } from 'csv-parse/sync';
import { auDfatAdapter } from '../../src/lists/adapters/au-dfat.js';
import { caGacAdapter } from '../../src/lists/adapters/ca-gac.js';
import { chSecoAdapter } from '../../src/lists/adapters/ch-seco.js';
import { euCslAdapter } from '../../src/lists/adapters/eu-csl.js';
import { jpMofAdapter } from '../../src/lists/adapters/jp-mof.js';
import { ukCslAdapter } from '../../src/lists/adapters/uk-csl.js';
import { unCslAdapter } from '../../src/lists/adapters/un-csl.js';
import { usCslAdapter } from '../../src/lists/adapters/us-csl.js';
import type { ListRecord, SourceAdapter } from '../../src/lists/model.js';
import { assertSameKind, censusOf, countsByKind, RawCensus } from './census.js';
import { hasUnzip, sharedStrings, sheetParts, sheetRows } from './xlsx-raw.js';

const LISTS = path.resolve(process.cwd(), '../shared/data/lists');
const absent = (file: string, needsUnzip = false): string | false =>
  !existsSync(file) ? `${file} absent` : needsUnzip && !hasUnzip() ? 'unzip not installed' : false;

const parsedBy = new Map<SourceAdapter, Promise<ListRecord[]>>();
function records(adapter: SourceAdapter, dir: string): Promise<ListRecord[]> {
  if (!parsedBy.has(adapter))
    parsedBy.set(
      adapter,
      adapter.parse(dir).then((p) => p.records),
    );
  return parsedBy.get(adapter)!;
}
function ids(r: ListRecord | undefined, kind: string): string[] {
  assert.ok(r, 'record present');
  return r.identifiers.filter((i) => i.kind === kind).map((i) => i.normalized!);
}
/** Rows of a workbook's sheet as { column letters -> text }, by row number. */
function workbookRows(file: string, sheet?: string): [number, Map<string, string>][] {
  const parts = sheetParts(file);
  const part = (sheet ? parts.find((p) => p.name === sheet) : parts[0])!.part;
  return [...sheetRows(file, part, sharedStrings(file))].sort((a, b) => a[0] - b[0]);
}

describe('un_csl identifiers', { skip: absent(path.join(LISTS, 'un_csl/consolidated.xml')) }, () => {
  const dir = path.join(LISTS, 'un_csl');
  it('reads every document, and the IMO, registration and passport numbers of the comments', async () => {
    const xml = readFileSync(path.join(dir, 'consolidated.xml'), 'utf8');
    const raw = new RawCensus();
    for (const [, block] of xml.matchAll(/<(?:INDIVIDUAL|ENTITY)>([\s\S]*?)<\/(?:INDIVIDUAL|ENTITY)>/g)) {
      const id = /<DATAID>(\d+)<\/DATAID>/.exec(block!)![1]!;
      for (const [, doc] of block!.matchAll(/<INDIVIDUAL_DOCUMENT>([\s\S]*?)<\/INDIVIDUAL_DOCUMENT>/g)) {
        const type = /<TYPE_OF_DOCUMENT>([^<]*)</.exec(doc!)?.[1] ?? '';
        const number = /<NUMBER>([^<]*)</.exec(doc!)?.[1];
        if (number)
          raw.add(/pas/i.test(type) ? 'passport' : /national/i.test(type) ? 'national_id' : 'other', id, number);
      }
      const comments = /<COMMENTS1>([\s\S]*?)<\/COMMENTS1>/.exec(block!)?.[1] ?? '';
      for (const m of comments.matchAll(/\bIMO\)?(?: [Nn]umber)?:? (\d{7})/g)) raw.add('imo', id, m[1]!);
      for (const m of comments.matchAll(/passport number (\d+)/g)) raw.add('passport', id, m[1]!);
      for (const m of comments.matchAll(/registration number\s+(\w+)/gi)) raw.add('registration', id, m[1]!);
    }
    const read = censusOf(await records(unCslAdapter, dir));
    for (const kind of ['passport', 'national_id', 'imo', 'registration'] as const) assertSameKind(read, raw, kind);
    assert.deepEqual(read.get('other'), undefined, 'every document is a passport or a national id');
  });

  it('reads the company IMO numbers as valid company numbers', async () => {
    const list = await records(unCslAdapter, dir);
    const korea = list.find((r) => r.identifiers.some((i) => i.normalized === '5342883'));
    assert.ok(korea && korea.entityType === 'organization');
    assert.deepEqual(
      korea.identifiers.filter((i) => i.kind === 'imo').map((i) => [i.normalized, i.valid]),
      [['5342883', true]],
    );
    assert.equal(countsByKind(list).imo, 16);
  });
});

describe('eu_csl identifiers', { skip: absent(path.join(LISTS, 'eu_csl')) }, () => {
  const dir = path.join(LISTS, 'eu_csl');
  const KINDS: Record<string, Parameters<RawCensus['add']>[0]> = {
    passport: 'passport',
    id: 'national_id',
    ssn: 'national_id',
    travelcardid: 'national_id',
    drivinglicence: 'national_id',
    regnumber: 'registration',
    swiftbic: 'bic',
  };
  it('reads every identification element by its type code', async () => {
    const file = readFileSync(path.join(dir, 'fsf_full_1_1_2022-03-18_first_1044_entities.xml'), 'utf8');
    const raw = new RawCensus();
    for (const [, open, body] of file.matchAll(/<sanctionEntity ([^>]*)>([\s\S]*?)<\/sanctionEntity>/g)) {
      const id = /logicalId="(\d+)"/.exec(open!)![1]!;
      for (const [tag] of body!.matchAll(/<identification [^>]*>/g)) {
        const attrs = Object.fromEntries([...tag.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
        raw.add(KINDS[attrs.identificationTypeCode ?? ''] ?? 'other', id, attrs.number ?? '');
      }
    }
    const read = censusOf(await records(euCslAdapter, dir));
    for (const kind of ['passport', 'national_id', 'registration', 'bic'] as const) assertSameKind(read, raw, kind);
  });
});

describe('uk_csl identifiers (ConList.xlsx)', { skip: absent(path.join(LISTS, 'uk_csl/ConList.xlsx'), true) }, () => {
  const dir = path.join(LISTS, 'uk_csl');
  const rows = () => workbookRows(path.join(dir, 'ConList.xlsx'), 'Data');
  it('reads every passport and national id number, one by one, and every IMO number', async () => {
    const all = rows();
    const header = new Map([...all.find(([n]) => n === 2)![1]].map(([col, name]) => [name, col]));
    const col = (row: Map<string, string>, name: string): string => row.get(header.get(name)!) ?? '';
    const raw = new RawCensus();
    for (const [n, row] of all) {
      if (n <= 2) continue;
      const group = col(row, 'Group ID');
      for (const [name, kind] of [
        ['Passport Number', 'passport'],
        ['National Identification Number', 'national_id'],
      ] as const) {
        // "8208 No. 555627" is a series and a number, "No34409/129" a number after its sign, "(Ukraine)"
        // a country; a piece labelled as a tax or register number ("TIN 782513826759") is not a document.
        for (const piece of col(row, name).split(/\(\d+\)/)) {
          if (!/\d/.test(piece) || /\b(?:INN|TIN|OGRN|OGRNIP|KPP)\b|tax/i.test(piece)) continue;
          const number = piece
            .replace(/\s*\([^)]*[a-z][^)]*\)/g, '')
            .trim()
            .replace(/\.$/, '');
          raw.add(kind, group, number.replace(/^No|No\. /, ''));
        }
      }
      const info = col(row, 'Other Information');
      const imoField = /\(IMO number\):([\s\S]*?)(?=\([A-Za-z][A-Za-z /]+\):|$)/.exec(info)?.[1] ?? '';
      for (const m of imoField.matchAll(/(?<!\d)(\d{7})(?!\d)/g)) raw.add('imo', group, m[1]!);
      // "with IMO Number: (a) Chol Ryong (Ryong Gun Bong) 8606173, (b) ...": every number up to the sentence's end.
      for (const m of info.matchAll(/\bIMO\b[^0-9]{0,20}([^;]*?)(?:\.\s|;|$)/g))
        for (const n of m[1]!.matchAll(/(?<!\d)(\d{7})(?!\d)/g)) raw.add('imo', group, n[1]!);
      for (const field of info.matchAll(/\(Email address\):([\s\S]*?)(?=\([A-Za-z][A-Za-z /]+\):|$)/g))
        for (const m of field[1]!.matchAll(/\S+@\S+\.\w+/g)) raw.add('email', group, m[0]);
    }
    const read = censusOf(await records(ukCslAdapter, dir));
    for (const kind of ['passport', 'national_id', 'imo', 'email'] as const) assertSameKind(read, raw, kind);
  });

  it('reads the business registers of every entity that prints them', async () => {
    const list = await records(ukCslAdapter, dir);
    const withField = list.filter((r) => /\(Business Reg No\)/.test(r.remarks ?? ''));
    assert.ok(withField.length > 200);
    const registers = ['registration', 'tax_id', 'bic', 'bank_code', 'other'];
    const without = withField.filter((r) => !r.identifiers.some((i) => registers.includes(i.kind!)));
    assert.deepEqual(
      without.map((r) => r.id),
      [],
    );
    // "(1) OGRN: 1027739090708 (2) INN: 7731018133"
    const r = list.find((x) => ids(x, 'registration').includes('1027739090708'));
    assert.deepEqual(ids(r, 'tax_id'), ['7731018133']);
  });
});

describe('ca_gac identifiers', { skip: absent(path.join(LISTS, 'ca_gac/sema-lmes.xml')) }, () => {
  it('reads every ShipIMONumber, as valid ship numbers', async () => {
    const dir = path.join(LISTS, 'ca_gac');
    const xml = readFileSync(path.join(dir, 'sema-lmes.xml'), 'utf8');
    const printed = [...xml.matchAll(/<ShipIMONumber>\s*([^<]*?)\s*<\/ShipIMONumber>/g)].map((m) => m[1]!);
    const list = await records(caGacAdapter, dir);
    const read = list.flatMap((r) => r.identifiers.filter((i) => i.kind === 'imo'));
    assert.equal(read.length, printed.filter((p) => /\d/.test(p)).length);
    assert.deepEqual(new Set(read.map((i) => i.normalized)), new Set(printed.map((p) => p.replace(/\D/g, ''))));
    assert.ok(
      read.every((i) => i.valid),
      'every IMO number Canada prints passes the check digit',
    );
  });
});

describe(
  'au_dfat identifiers',
  { skip: absent(path.join(LISTS, 'au_dfat/regulation8_consolidated.xlsx'), true) },
  () => {
    const dir = path.join(LISTS, 'au_dfat');
    it('reads every IMO number of Additional Information', async () => {
      const raw = new RawCensus();
      for (const [n, row] of workbookRows(path.join(dir, 'regulation8_consolidated.xlsx'))) {
        const ref = /^\d+/.exec(row.get('A') ?? '')?.[0];
        if (n === 1 || !ref) continue;
        for (const m of (row.get('I') ?? '').matchAll(/\bIMO\b[^0-9]{0,40}?(\d{7})\b/g)) raw.add('imo', ref, m[1]!);
      }
      assertSameKind(censusOf(await records(auDfatAdapter, dir)), raw, 'imo');
    });

    it('reads labelled documents from Additional Information, each number of an enumeration', async () => {
      const list = await records(auDfatAdapter, dir);
      const counts = countsByKind(list);
      for (const kind of ['passport', 'national_id', 'registration', 'tax_id', 'bic'])
        assert.ok((counts[kind] ?? 0) >= 5, `${kind}: ${counts[kind]}`);
      // Mohammad Hassan Akhund (2): "Passport no.: ..." ; reference 2831: "BIC: INAKRU41" and a Russian registration.
      const bank = list.find((r) => r.id === '2831');
      assert.deepEqual(ids(bank, 'bic'), ['INAKRU41']);
      assert.ok(ids(bank, 'registration').includes('1060200012685'));
      // "Passport no: a) South Sudan number S00004370 b) South Sudan number D00001369 c) Sudan number ..."
      const many = list.find((r) => ids(r, 'passport').includes('S00004370'));
      assert.ok(ids(many, 'passport').includes('D00001369'));
      // Every row that labels a passport number yields one on its listing.
      const labelled = new Set<string>();
      for (const [n, row] of workbookRows(path.join(dir, 'regulation8_consolidated.xlsx'))) {
        const ref = /^\d+/.exec(row.get('A') ?? '')?.[0];
        if (n > 1 && ref && /passport (?:no\.?|number)\s*:\s*[^:]*\d{5}/i.test(row.get('I') ?? '')) labelled.add(ref);
      }
      assert.ok(labelled.size > 100);
      const missing = [...labelled].filter(
        (ref) =>
          ids(
            list.find((r) => r.id === ref),
            'passport',
          ).length === 0,
      );
      assert.deepEqual(missing, []);
    });
  },
);

describe('jp_mof identifiers', { skip: absent(path.join(LISTS, 'jp_mof/shisantouketsu20260305.xlsx'), true) }, () => {
  const dir = path.join(LISTS, 'jp_mof');
  it('reads a number from every passport and ID cell that holds one', async () => {
    const file = path.join(dir, 'shisantouketsu20260305.xlsx');
    const list = await records(jpMofAdapter, dir);
    const byId = new Map(list.map((r) => [r.id, r]));
    const unread: string[] = [];
    let cells = 0;
    for (const { name } of sheetParts(file)) {
      if (!/^\d+\./.test(name) || name.includes('【解除】')) continue;
      const sheetNo = /^(\d+)/.exec(name)![1];
      const rows = workbookRows(file, name);
      const at = rows.findIndex(([, r]) => (r.get('A') ?? '').replace(/\s/g, '') === '告示日付');
      if (at < 0) continue;
      const header = rows[at]![1];
      const docCols = [...header].filter(([, h]) => /^(旅券|身分証|ID番号|身分登録)/.test(h.replace(/\s/g, '')));
      let current: string | undefined;
      for (const [, row] of rows.slice(at + 1)) {
        const number = (row.get('B') ?? '').replace(/\s/g, '');
        if ((row.get('A') ?? '').includes('削除')) current = undefined;
        else if (number) current = `${sheetNo}-${number}`;
        for (const [colName, h] of docCols) {
          const text = (row.get(colName) ?? '').normalize('NFKC');
          if (!current || !/\d{5}/.test(text)) continue;
          cells++;
          const kind = h.startsWith('旅券') ? 'passport' : 'national_id';
          if (ids(byId.get(current), kind).length === 0) unread.push(`${current}: ${text.slice(0, 40)}`);
        }
      }
    }
    assert.ok(cells > 100, `${cells} cells`);
    assert.deepEqual(unread, []);
  });

  it("reads named examples: a passport with its prefix, an ID enumeration, remarks, and MOF's run-together IMO", async () => {
    const list = await records(jpMofAdapter, dir);
    assert.ok(
      list.some((r) => ids(r, 'passport').includes('SE011697')),
      'アフガニスタン旅券：SEー011697',
    );
    const tazkira = list.find((r) => ids(r, 'national_id').includes('2132370'));
    assert.ok(ids(tazkira, 'national_id').includes('812673'), 'ＩＤカード(tazkira)番号: (a)2132370 (b)812673');
    assert.ok(
      list.some((r) => ids(r, 'tax_id').includes('3187777')),
      'パキスタン納税番号：(a)1774308 (b)0980338 (c)3187777',
    );
    const senat = list.find((r) => r.name === 'Senat Shipping Limited');
    assert.deepEqual(
      senat?.identifiers.filter((i) => i.kind === 'imo').map((i) => [i.value, i.valid]),
      [['51792455405737', false]],
    );
  });
});

describe('us_csl identifiers (ids column)', { skip: absent(path.join(LISTS, 'us_csl/consolidated.csv')) }, () => {
  it('reads every IMO, MMSI, LEI, BIC, passport and wallet the ids column prints', async () => {
    const dir = path.join(LISTS, 'us_csl');
    const rows = parseCsvSync(readFileSync(path.join(dir, 'consolidated.csv')), { columns: true, bom: true }) as Record<
      string,
      string
    >[];
    const raw = new RawCensus();
    const KINDS: [RegExp, Parameters<RawCensus['add']>[0]][] = [
      [/^Vessel Registration Identification$/, 'imo'],
      [/^(Identification|Company) Number$/, 'imo'],
      [/^MMSI$/, 'mmsi'],
      [/^Legal Entity Number$/, 'lei'],
      [/^SWIFT\/BIC$/, 'bic'],
      [/Passport$/, 'passport'],
    ];
    for (const row of rows) {
      for (const entry of (row.ids ?? '').split(/;\s+/)) {
        // "JO, 2014-08-30, 2009-08-31, K475336, Passport": country, the document's dates, number, type.
        const parts = entry.split(', ').filter((p) => !/^\d{4}-\d{2}-\d{2}$/.test(p));
        const label = parts.pop() ?? '';
        if (parts.length >= 2 && /^[A-Z]{2}$/.test(parts[0]!)) parts.shift();
        // "SY, D000000483, Diplomatic, Passport": the part with digits is the number.
        const value = parts.find((p) => /\d/.test(p)) ?? parts.join(', ');
        const currency = /^Digital Currency Address - (\w+)$/.exec(label)?.[1];
        if (currency) raw.add('crypto_wallet', row._id!, value, currency === 'XBT' ? 'BTC' : currency);
        for (const [re, kind] of KINDS) {
          // Shipping companies: "Identification Number" or "Company Number", "IMO 5342883".
          if (re.test(label) && (kind !== 'imo' || !/Number$/.test(label) || value.startsWith('IMO ')))
            raw.add(kind, row._id!, value);
        }
      }
    }
    const read = censusOf(await records(usCslAdapter, dir));
    for (const kind of ['imo', 'mmsi', 'lei', 'bic', 'passport', 'crypto_wallet'] as const)
      assertSameKind(read, raw, kind);
  });
});

describe('ch_seco identifiers (fixture in the published format)', () => {
  it('reads documents by their type and IMO numbers from other-information', async () => {
    const list = await chSecoAdapter.parse(path.resolve(process.cwd(), 'test/fixtures/lists/ch_seco/whole-list'));
    const counts = countsByKind(list.records);
    assert.equal(counts.passport, 2);
    assert.equal(counts.imo, 1);
    assert.ok(list.records.every((r) => r.identifiers.some((i) => i.kind === 'list_reference')));
  });
});
