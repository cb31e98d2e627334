/**
 * Japan: the Ministry of Finance workbook shisantouketsu<YYYYMMDD>.xlsx (資産凍結等経済制裁対象者リスト).
 * One sheet per regime; each sheet has a few title rows, then a header row starting 告示日付, with
 * columns that differ from sheet to sheet, so they are mapped by their header text.
 */
import path from 'node:path';
import {
  type Address,
  emptyRecord,
  type ListRecord,
  type NameKind,
  type NameQuality,
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
  finishRecord,
  firstFullDate,
  type IdentifierClass,
  numbersIn,
  parseDateCell,
  readListDir,
  readXlsxRows,
  scriptOf,
  splitEnumerated,
} from './kit/index.js';

const LIST_PAGE =
  'https://www.mof.go.jp/policy/international_policy/gaitame_kawase/gaitame/economic_sanctions/list.html';

type Field =
  | 'date'
  | 'number'
  | 'ja'
  | 'en'
  | 'alias'
  | 'former'
  | 'weak'
  | 'title'
  | 'position'
  | 'dob'
  | 'pob'
  | 'nationality'
  | 'passport'
  | 'idnumber'
  | 'phone'
  | 'address'
  | 'unref'
  | 'remarks';

/** Header text (whitespace removed) to field; the first matching rule wins. */
function fieldOf(header: string): Field | undefined {
  const h = header.replace(/\s+/g, '');
  if (!h) return undefined;
  if (h.startsWith('告示日付')) return 'date';
  if (h.startsWith('告示番号')) return 'number';
  if (h.startsWith('日本語表記')) return 'ja';
  if (h.startsWith('英語表記')) return 'en';
  if (h.includes('確定に十分でない')) return 'weak';
  if (h.includes('過去の別名') || h.startsWith('旧称')) return 'former';
  if (h.includes('別名') || h.includes('別称')) return 'alias';
  if (h.startsWith('称号')) return 'title';
  if (h.startsWith('役職')) return 'position';
  if (h.startsWith('生年月日')) return 'dob';
  if (h.startsWith('出生地')) return 'pob';
  if (h.startsWith('国籍')) return 'nationality';
  if (h.startsWith('旅券')) return 'passport';
  if (h.includes('身分証') || h.includes('身分登録') || /^ID番号/i.test(h)) return 'idnumber';
  if (h.startsWith('電話')) return 'phone';
  if (h.includes('住所') || h.includes('所在地') || h.includes('活動地域')) return 'address';
  if (h.startsWith('国連参照番号')) return 'unref';
  if (h.startsWith('その他') || h.startsWith('詳細') || h.includes('根拠')) return 'remarks';
  return undefined;
}

/** Japanese country names as MOF writes them in 国籍 (nationality), which often has no English. */
const JA_COUNTRIES: [string, string][] = Object.entries({
  朝鮮民主主義人民共和国: 'KP',
  北朝鮮: 'KP',
  大韓民国: 'KR',
  韓国: 'KR',
  南スーダン: 'SS',
  中央アフリカ: 'CF',
  コンゴ民主共和国: 'CD',
  コンゴ共和国: 'CG',
  アフガニスタン: 'AF',
  イラク: 'IQ',
  イラン: 'IR',
  ロシア: 'RU',
  ベラルーシ: 'BY',
  シリア: 'SY',
  パキスタン: 'PK',
  サウジアラビア: 'SA',
  エジプト: 'EG',
  ヨルダン: 'JO',
  リビア: 'LY',
  ソマリア: 'SO',
  イエメン: 'YE',
  マリ: 'ML',
  ハイチ: 'HT',
  ウクライナ: 'UA',
  クウェート: 'KW',
  カタール: 'QA',
  レバノン: 'LB',
  チュニジア: 'TN',
  アルジェリア: 'DZ',
  モロッコ: 'MA',
  インドネシア: 'ID',
  フィリピン: 'PH',
  マレーシア: 'MY',
  中国: 'CN',
  トルコ: 'TR',
  ドイツ: 'DE',
  フランス: 'FR',
  英国: 'GB',
  イギリス: 'GB',
  米国: 'US',
  アメリカ: 'US',
  オーストラリア: 'AU',
  カナダ: 'CA',
  ケニア: 'KE',
  エリトリア: 'ER',
  エチオピア: 'ET',
  ナイジェリア: 'NG',
  バーレーン: 'BH',
  アラブ首長国連邦: 'AE',
  オマーン: 'OM',
  イスラエル: 'IL',
  パレスチナ: 'PS',
  ボスニア: 'BA',
  セルビア: 'RS',
  モンテネグロ: 'ME',
  クロアチア: 'HR',
  ジョージア: 'GE',
  グルジア: 'GE',
  アゼルバイジャン: 'AZ',
  アルメニア: 'AM',
  カザフスタン: 'KZ',
  ウズベキスタン: 'UZ',
  タジキスタン: 'TJ',
  キルギス: 'KG',
  トルクメニスタン: 'TM',
  インド: 'IN',
  バングラデシュ: 'BD',
  ミャンマー: 'MM',
  ベトナム: 'VN',
  日本: 'JP',
  スイス: 'CH',
  オランダ: 'NL',
  ベルギー: 'BE',
  イタリア: 'IT',
  スペイン: 'ES',
  ブルガリア: 'BG',
  キプロス: 'CY',
  ギリシャ: 'GR',
  ラトビア: 'LV',
  リトアニア: 'LT',
  エストニア: 'EE',
  モルドバ: 'MD',
  ベネズエラ: 'VE',
  ニカラグア: 'NI',
  キューバ: 'CU',
  ジンバブエ: 'ZW',
  ルワンダ: 'RW',
  ウガンダ: 'UG',
  ブルンジ: 'BI',
  チャド: 'TD',
  ニジェール: 'NE',
  ブルキナファソ: 'BF',
  セネガル: 'SN',
  モーリタニア: 'MR',
  リベリア: 'LR',
  シエラレオネ: 'SL',
  コートジボワール: 'CI',
  タンザニア: 'TZ',
  南アフリカ: 'ZA',
  ジブチ: 'DJ',
  アンゴラ: 'AO',
  カメルーン: 'CM',
  ガーナ: 'GH',
  トリニダード・トバゴ: 'TT',
  シンガポール: 'SG',
  タイ: 'TH',
  カンボジア: 'KH',
  ラオス: 'LA',
  モンゴル: 'MN',
  台湾: 'TW',
  香港: 'HK',
  スウェーデン: 'SE',
  ノルウェー: 'NO',
  フィンランド: 'FI',
  デンマーク: 'DK',
  ポーランド: 'PL',
  チェコ: 'CZ',
  スロバキア: 'SK',
  ハンガリー: 'HU',
  ルーマニア: 'RO',
  オーストリア: 'AT',
  アイルランド: 'IE',
  ポルトガル: 'PT',
  ブラジル: 'BR',
  アルゼンチン: 'AR',
  メキシコ: 'MX',
  コロンビア: 'CO',
  スリランカ: 'LK',
  ネパール: 'NP',
  コモロ: 'KM',
  マルタ: 'MT',
  アルバニア: 'AL',
  北マケドニア: 'MK',
  コソボ: 'XK',
  スーダン: 'SD',
  ギニア: 'GN',
  ガンビア: 'GM',
  ベナン: 'BJ',
  トーゴ: 'TG',
  ソ連: 'SU',
}).sort((a, b) => b[0].length - a[0].length);

/**
 * Numbers the remarks (その他の情報) give with a label, after NFKC: "IMO番号:9123456", "ロシア国家
 * 登録番号:1027700456024", "パキスタン納税番号:(a)1774308 (b)0980338", "電話番号は+96...". Other
 * numbered things the remarks cite (decisions, warrants, prisoner numbers) are not identifiers.
 */
const REMARK_LABELS =
  /IMO(?:番号)?\s*[:は]?\s*|[^\s:、。()]{0,12}?(?:旅券番号|パスポート番号|国家登録番号|会社番号|IDカード番号|ID番号|識別番号|社会保障番号|納税番号|ライセンス番号|電話番号|FAX番号|Identification Number)\s*(?:\([^)]*\))?\s*[:は]\s*/gu;

const LATIN = /[A-Za-z]/;
const JAPANESE = /[\p{Script=Katakana}\p{Script=Hiragana}\p{Script=Han}]/u;

/** Lines of a bilingual cell, each without wrapping brackets and "a.k.a." prefixes. */
/** Brackets in the text pair up: "(a)x(y" is not a line in brackets, "(x (y))" is. */
function balanced(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === '(' || ch === '（') depth++;
    else if ((ch === ')' || ch === '）') && --depth < 0) return false;
  }
  return depth === 0;
}

function lines(text: string): string[] {
  return text
    .split(/\n+/)
    .map((l) =>
      l
        .trim()
        .replace(/^[（(]\s*(.*?)\s*[）)]$/, (whole, inner: string) => (balanced(inner) ? inner : whole))
        .replace(/^(?:a\.?k\.?a\.?|f\.?k\.?a\.?)\s*[:,]?\s*/i, '')
        .trim(),
    )
    .filter(Boolean);
}

/** Alias cells join names with 、 ； ; and (a)…(b)…, Latin lists also with commas. */
function splitNames(text: string): string[] {
  const out: string[] = [];
  for (const line of lines(text)) {
    // "Mullah(ムラー)": a gloss in the other script is a name of its own.
    const unglossed = line.replace(/\(([^()]*)\)/g, (whole, inner: string) =>
      /^[a-z]$/i.test(inner) || /^\d+$/.test(inner) ? whole : `、${inner}、`,
    );
    for (const enumerated of splitEnumerated(unglossed)) {
      // An item of an enumeration that runs over several lines keeps its marker ("b)「カワ」"), and
      // nicknames stand in quotation marks: neither belongs to the name.
      const item = enumerated.replace(/^\(?(?:[a-z]|\d{1,2})\)\s*/, '').replace(/[「」“”]/g, ' ');
      const seps = JAPANESE.test(item) ? /\s*[、；;]\s*/ : /\s*[;；,、]\s*/;
      for (const n of item.split(seps)) {
        const c = clean(n.replace(/^[（(]|[）)]$/g, '').replace(/^(?:a\.?k\.?a\.?|f\.?k\.?a\.?)\s*/i, ''));
        if (c && c.length > 1) out.push(c);
      }
    }
  }
  return out;
}

function entityTypeFor(sheetName: string, row: Partial<Record<Field, string>>): 'person' | 'organization' {
  if (/個人/.test(sheetName)) return 'person';
  if (/団体|銀行/.test(sheetName)) return 'organization';
  return row.dob || row.passport || row.nationality || row.title ? 'person' : 'organization';
}

interface SheetState {
  sheetNo: string;
  program: string;
  columns: Map<number, Field>;
}

function rowFields(
  state: SheetState,
  cells: CellValue[],
): { text: Partial<Record<Field, string>>; dobCell?: CellValue } {
  const text: Partial<Record<Field, string>> = {};
  let dobCell: CellValue | undefined;
  for (const [i, field] of state.columns) {
    const v = cells[i];
    // NFKC turns full-width brackets, letters and digits into ASCII, so "（ａ）" splits like "(a)".
    const t = cellText(v).normalize('NFKC');
    if (!t) continue;
    if (field === 'dob' && dobCell === undefined) dobCell = v ?? null;
    text[field] = text[field] ? `${text[field]}\n${t}` : t;
  }
  return { text, dobCell };
}

function applyRow(
  r: ListRecord,
  f: Partial<Record<Field, string>>,
  dobCell: CellValue | undefined,
  combinedDobPlace: boolean,
): void {
  const addNames = (t: string | undefined, quality: NameQuality, kind: NameKind): void => {
    if (!t) return;
    for (const n of splitNames(t)) addAlias(r, n, quality, kind, scriptOf(n));
  };
  if (f.ja) for (const l of lines(f.ja)) addAlias(r, l, 'strong', 'aka', scriptOf(l) ?? 'Japanese');
  if (f.en && clean(f.en) !== r.name) for (const l of lines(f.en)) addAlias(r, l, 'strong', 'aka');
  addNames(f.alias, 'strong', 'aka');
  addNames(f.former, 'strong', 'fka');
  addNames(f.weak, 'weak', 'aka');
  if (f.title) {
    r.titles ??= [];
    for (const t of splitNames(f.title)) addUnique(r.titles, t);
  }
  if (f.position) {
    r.positions ??= [];
    for (const l of lines(f.position)) for (const p of splitEnumerated(l)) addUnique(r.positions, clean(p));
  }
  if (dobCell !== undefined) {
    const dates =
      typeof dobCell === 'string' && combinedDobPlace
        ? parseDateCell(dobCell.split(/出生地|Place of birth/i)[0] ?? '')
        : parseDateCell(dobCell);
    addDates(r.birthDates, dates);
  }
  if (f.pob) {
    const latin = lines(f.pob).filter((l) => LATIN.test(l) && !JAPANESE.test(l));
    for (const l of latin.length ? latin : lines(f.pob))
      for (const p of splitEnumerated(l)) addUnique(r.birthPlaces, clean(p));
  }
  if (f.nationality) {
    const resolved: string[] = [];
    for (const l of lines(f.nationality)) {
      for (const c of countryList(l)) if (/^[A-Z]{2}$/.test(c)) addUnique(resolved, c);
      let rest = l;
      for (const [ja, iso] of JA_COUNTRIES) {
        if (!rest.includes(ja)) continue;
        addUnique(resolved, iso);
        rest = rest.split(ja).join(' ');
      }
    }
    if (resolved.length) resolved.forEach((c) => addUnique(r.nationalities, c));
    else addUnique(r.nationalities, clean(f.nationality));
  }
  if (f.address) {
    const latin = lines(f.address).filter((l) => LATIN.test(l) && !JAPANESE.test(l));
    for (const l of latin.length ? latin : [lines(f.address).join(' ')]) {
      for (const a of splitEnumerated(l)) {
        const text = clean(a);
        if (!text || r.addresses.some((x) => x.text === text)) continue;
        const address: Address = { text };
        const last = clean(text.split(',').pop());
        const iso = countryCode(last);
        if (iso) {
          address.country = iso;
          address.countryName = last!;
        }
        r.addresses.push(address);
      }
    }
  }
  const columns: [string | undefined, IdentifierClass][] = [
    [f.passport, { type: 'passport' }],
    [f.idnumber, { type: 'national_id' }],
    [f.phone, { type: 'other', kind: 'phone' }],
  ];
  for (const [text, as] of columns) {
    for (const n of numbersIn(text))
      addIdentifier(r, { ...as, value: n.value, note: n.context === n.value ? undefined : n.context });
  }
  for (const m of `${f.unref ?? ''}\n${f.remarks ?? ''}`.matchAll(/\b([A-Z]{2,3}[a-z]?\.\d{3})\b/g)) {
    // Only the UN reference column is authoritative; in remarks the pattern also cites other entries.
    if (f.unref?.includes(m[1]!)) addIdentifier(r, { type: 'un_ref', value: m[1]! });
  }
  for (const text of [f.remarks, f.alias]) addLabelledIdentifiers(r, text, REMARK_LABELS);
  if (f.remarks) {
    const text = f.remarks.trim();
    if (!(r.remarks ?? '').includes(text)) r.remarks = r.remarks ? `${r.remarks}\n${text}` : text;
  }
}

/** shisantouketsu20260305.xlsx → 2026-03-05. */
function fileDate(file: string): string | undefined {
  const m = /(\d{4})(\d{2})(\d{2})/.exec(path.basename(file));
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

export const jpMofAdapter: SourceAdapter = {
  source: 'jp_mof',
  label: SOURCE_LABELS.jp_mof,
  publisherFiles: [
    // MOF links a dated file from its list page; the sync layer resolves the newest link there.
    { fileName: 'shisantouketsu.xlsx', url: LIST_PAGE, linkPattern: 'shisantouketsu\\d{8}\\.xlsx' },
  ],
  async parse(dir: string): Promise<ParsedList> {
    const warnings: string[] = [];
    const files = (await readListDir(dir)).matching(/\.xlsx$/);
    const dated = files
      .filter((f) => /^shisantouketsu\d{8}\.xlsx$/i.test(path.basename(f)))
      .sort((a, b) => (fileDate(a) ?? '').localeCompare(fileDate(b) ?? ''));
    const file = dated[dated.length - 1] ?? files.find((f) => /^shisantouketsu/i.test(path.basename(f))) ?? files[0];
    if (!file) throw new Error(`jp_mof: no shisantouketsu<YYYYMMDD>.xlsx in ${dir}`);
    for (const other of files) if (other !== file) warnings.push(`ignored ${path.basename(other)}`);

    const records = new Map<string, ListRecord>();
    let state: SheetState | undefined;
    let stateSheet = '';
    let current: ListRecord | undefined;
    let deleted = 0;
    let combinedDobPlace = false;
    const skippedSheets = new Set<string>();
    for await (const row of readXlsxRows(file)) {
      if (row.sheetName !== stateSheet) {
        stateSheet = row.sheetName;
        state = undefined;
        current = undefined;
      }
      const name = row.sheetName.trim();
      if (name.includes('【解除】') || !/^\d+\s*[.．]/.test(name)) {
        // Wholly revoked regimes and the index sheet hold no listings.
        skippedSheets.add(name);
        continue;
      }
      const first = cellText(row.cells[0]).replace(/\s+/g, '');
      if (!state) {
        if (first === '告示日付') {
          const columns = new Map<number, Field>();
          row.cells.forEach((c, i) => {
            const f = fieldOf(cellText(c));
            if (f && ![...columns.values()].includes(f)) columns.set(i, f);
            else if (f && ['alias', 'remarks', 'address'].includes(f)) columns.set(i, f);
          });
          combinedDobPlace = row.cells.some((c) => /生年月日・出生地/.test(cellText(c)));
          state = {
            sheetNo: /^(\d+)/.exec(name)![1]!,
            program: name.replace(/^\d+\s*[.．]\s*/, '').trim(),
            columns,
          };
        }
        continue;
      }
      const { text, dobCell } = rowFields(state, row.cells);
      const number = clean(text.number?.replace(/\s+/g, ''));
      if (text.date?.includes('削除')) {
        deleted++;
        current = undefined;
        continue;
      }
      if (!number && !text.date) {
        // Rows under a merged 告示日付/告示番号 cell continue the entry above.
        if (current) applyRow(current, text, dobCell, combinedDobPlace);
        continue;
      }
      if (!number) {
        warnings.push(`${name} row ${row.rowNumber}: 告示日付 without 告示番号; skipped`);
        current = undefined;
        continue;
      }
      const id = `${state.sheetNo}-${number}`;
      let r = records.get(id);
      if (!r) {
        const en = text.en ? lines(text.en)[0] : undefined;
        const primary = clean(en) ?? clean(text.ja ? lines(text.ja)[0] : undefined);
        if (!primary) {
          warnings.push(`${name} row ${row.rowNumber}: no name; skipped`);
          current = undefined;
          continue;
        }
        r = emptyRecord('jp_mof', id, entityTypeFor(name, text), primary);
        r.programs.push(state.program);
        const listed = firstFullDate(text.date?.replace(/(\d{4})\.(\d{1,2})\.(\d{1,2})/g, '$1-$2-$3'));
        if (listed) r.listingDate = listed;
        r.sourceUrl = LIST_PAGE;
        records.set(id, r);
      }
      current = r;
      applyRow(r, text, dobCell, combinedDobPlace);
    }
    if (records.size === 0)
      throw new Error(`jp_mof: ${path.basename(file)} has no sheet with a 告示日付 header and listings`);
    if (deleted) warnings.push(`${deleted} deleted (削除) entries skipped`);
    if (skippedSheets.size) warnings.push(`sheets without listings skipped: ${[...skippedSheets].join(', ')}`);
    return {
      source: 'jp_mof',
      publishedAt: fileDate(file),
      files: [path.basename(file)],
      format: 'MOF economic sanctions workbook XLSX',
      records: [...records.values()].map(finishRecord),
      warnings,
    };
  },
};
