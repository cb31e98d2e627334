/**
 * Japan MOF workbook: which column holds what (by its header text), and the Japanese country names
 * that 国籍 (nationality) cells use.
 */
export type Field =
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
export function fieldOf(header: string): Field | undefined {
  const compact = header.replace(/\s+/g, '');
  if (!compact) return undefined;
  if (compact.startsWith('告示日付')) return 'date';
  if (compact.startsWith('告示番号')) return 'number';
  if (compact.startsWith('日本語表記')) return 'ja';
  if (compact.startsWith('英語表記')) return 'en';
  if (compact.includes('確定に十分でない')) return 'weak';
  if (compact.includes('過去の別名') || compact.startsWith('旧称')) return 'former';
  if (compact.includes('別名') || compact.includes('別称')) return 'alias';
  if (compact.startsWith('称号')) return 'title';
  if (compact.startsWith('役職')) return 'position';
  if (compact.startsWith('生年月日')) return 'dob';
  if (compact.startsWith('出生地')) return 'pob';
  if (compact.startsWith('国籍')) return 'nationality';
  if (compact.startsWith('旅券')) return 'passport';
  if (compact.includes('身分証') || compact.includes('身分登録') || /^ID番号/i.test(compact)) return 'idnumber';
  if (compact.startsWith('電話')) return 'phone';
  if (compact.includes('住所') || compact.includes('所在地') || compact.includes('活動地域')) return 'address';
  if (compact.startsWith('国連参照番号')) return 'unref';
  if (compact.startsWith('その他') || compact.startsWith('詳細') || compact.includes('根拠')) return 'remarks';
  return undefined;
}

/** Japanese country names as MOF writes them in 国籍 (nationality), which often has no English. */
export const JA_COUNTRIES: [string, string][] = Object.entries({
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
