/**
 * Transliteration of non-Latin scripts into lowercase ASCII Latin. The aim is not a scholarly
 * romanization but one that lands close to how Western lists spell the same names, so that the
 * fuzzy and phonetic comparison can finish the job. Input is expected NFKC + lowercased.
 * Scripts without a table of their own here (Khmer, Myanmar, the Indic scripts other than
 * Devanagari, Sinhala, Lao, Tibetan, Mongolian...) and Han characters outside the name table go
 * through any-ascii, whose readings are context-aware within a run of letters.
 */
import anyAscii from 'any-ascii';
import { devanagari, ethiopic, hangulSyllable, isDevanagari, isEthiopic, readKhmer, table } from './script-readers.js';

// Russian, Ukrainian, Belarusian, Serbian/Macedonian, Bulgarian, Kazakh extras. BGN/PCGN-like,
// with the spellings Western lists use (х = kh, щ = shch, ц = ts).
const CYRILLIC = table(`
а=a б=b в=v г=g д=d е=e ё=yo ж=zh з=z и=i й=y к=k л=l м=m н=n о=o п=p р=r с=s т=t у=u ф=f х=kh ц=ts ч=ch
ш=sh щ=shch ъ= ы=y ь= э=e ю=yu я=ya і=i ї=yi є=ye ґ=g ў=u ђ=dj ј=j љ=lj њ=nj ћ=c џ=dz ѓ=gj ќ=kj ѕ=dz
ә=a ғ=g қ=k ң=n ө=o ұ=u ү=u һ=h
`);

const GREEK = table(`
α=a β=v γ=g δ=d ε=e ζ=z η=i θ=th ι=i κ=k λ=l μ=m ν=n ξ=x ο=o π=p ρ=r σ=s ς=s τ=t υ=y φ=f χ=ch ψ=ps ω=o
ά=a έ=e ή=i ί=i ό=o ύ=y ώ=o ϊ=i ϋ=y ΐ=i ΰ=y
`);

// Arabic and Persian/Urdu letters. Short vowels are unwritten; the consonant-skeleton phonetic key
// compensates. Long vowels: alif = a, waw/ya between consonants = u/i.
const ARABIC = table(`
ا=a أ=a إ=i آ=a ٱ=a ء= ؤ=u ئ=i ب=b ت=t ث=th ج=j ح=h خ=kh د=d ذ=dh ر=r ز=z س=s ش=sh ص=s ض=d ط=t ظ=z
ع= غ=gh ف=f ق=q ك=k ل=l م=m ن=n ه=h ة=a و=w ي=y ى=a پ=p چ=ch ژ=zh گ=g ک=k ی=y ٹ=t ڈ=d ڑ=r ں=n ھ=h ے=e ۀ=a
`);

const HEBREW = table(`
א=a ב=v ג=g ד=d ה=h ו=o ז=z ח=ch ט=t י=i כ=k ך=k ל=l מ=m ם=m נ=n ן=n ס=s ע=a פ=p ף=f צ=ts ץ=ts ק=k ר=r ש=sh ת=t
`);

const ARMENIAN = table(`
ա=a բ=b գ=g դ=d ե=e զ=z է=e ը=y թ=t ժ=zh ի=i լ=l խ=kh ծ=ts կ=k հ=h ձ=dz ղ=gh ճ=ch մ=m յ=y ն=n շ=sh ո=o
չ=ch պ=p ջ=j ռ=r ս=s վ=v տ=t ր=r ց=ts ւ=v փ=p ք=k օ=o ֆ=f և=ev
`);

const GEORGIAN = table(`
ა=a ბ=b გ=g დ=d ე=e ვ=v ზ=z თ=t ი=i კ=k ლ=l მ=m ნ=n ო=o პ=p ჟ=zh რ=r ს=s ტ=t უ=u ფ=p ქ=k ღ=gh ყ=q შ=sh
ჩ=ch ც=ts ძ=dz წ=ts ჭ=ch ხ=kh ჯ=j ჰ=h
`);

// Thai consonants and vowel signs, RTGS-like, ignoring tone marks and inherent vowels.
const THAI = table(`
ก=k ข=kh ฃ=kh ค=kh ฅ=kh ฆ=kh ง=ng จ=ch ฉ=ch ช=ch ซ=s ฌ=ch ญ=y ฎ=d ฏ=t ฐ=th ฑ=th ฒ=th ณ=n ด=d ต=t ถ=th
ท=th ธ=th น=n บ=b ป=p ผ=ph ฝ=f พ=ph ฟ=f ภ=ph ม=m ย=y ร=r ล=l ว=w ศ=s ษ=s ส=s ห=h ฬ=l อ=o ฮ=h
ะ=a ั=a า=a ำ=am ิ=i ี=i ึ=ue ื=ue ุ=u ู=u เ=e แ=ae โ=o ใ=ai ไ=ai
`);

// Hiragana and katakana (Hepburn); small kana and the long-vowel mark handled in code.
const KANA_BASE = table(`
あ=a い=i う=u え=e お=o か=ka き=ki く=ku け=ke こ=ko さ=sa し=shi す=su せ=se そ=so た=ta ち=chi つ=tsu て=te と=to
な=na に=ni ぬ=nu ね=ne の=no は=ha ひ=hi ふ=fu へ=he ほ=ho ま=ma み=mi む=mu め=me も=mo や=ya ゆ=yu よ=yo
ら=ra り=ri る=ru れ=re ろ=ro わ=wa を=o ん=n が=ga ぎ=gi ぐ=gu げ=ge ご=go ざ=za じ=ji ず=zu ぜ=ze ぞ=zo
だ=da ぢ=ji づ=zu で=de ど=do ば=ba び=bi ぶ=bu べ=be ぼ=bo ぱ=pa ぴ=pi ぷ=pu ぺ=pe ぽ=po ゔ=vu
ぁ=a ぃ=i ぅ=u ぇ=e ぉ=o
`);

// A compact pinyin table: the commonest Chinese surnames and given-name characters (and the
// characters of names that recur on sanctions lists). Other Han characters take any-ascii's
// Mandarin reading.
const HAN = table(`
王=wang 李=li 张=zhang 張=zhang 刘=liu 劉=liu 陈=chen 陳=chen 杨=yang 楊=yang 黄=huang 黃=huang 赵=zhao 趙=zhao
吴=wu 吳=wu 周=zhou 徐=xu 孙=sun 孫=sun 马=ma 馬=ma 朱=zhu 胡=hu 郭=guo 何=he 高=gao 林=lin 罗=luo 羅=luo
郑=zheng 鄭=zheng 梁=liang 谢=xie 謝=xie 宋=song 唐=tang 许=xu 許=xu 韩=han 韓=han 冯=feng 馮=feng 邓=deng
鄧=deng 曹=cao 彭=peng 曾=zeng 肖=xiao 田=tian 董=dong 袁=yuan 潘=pan 于=yu 蒋=jiang 蔣=jiang 蔡=cai 余=yu
杜=du 叶=ye 葉=ye 程=cheng 苏=su 蘇=su 魏=wei 吕=lu 呂=lu 丁=ding 任=ren 沈=shen 姚=yao 卢=lu 盧=lu 姜=jiang
崔=cui 钟=zhong 鍾=zhong 谭=tan 譚=tan 陆=lu 陸=lu 汪=wang 范=fan 金=jin 石=shi 廖=liao 贾=jia 賈=jia 夏=xia
韦=wei 付=fu 方=fang 白=bai 邹=zou 孟=meng 熊=xiong 秦=qin 邱=qiu 江=jiang 尹=yin 薛=xue 闫=yan 段=duan 雷=lei
侯=hou 龙=long 龍=long 史=shi 陶=tao 黎=li 贺=he 賀=he 顾=gu 毛=mao 郝=hao 龚=gong 邵=shao 万=wan 钱=qian
錢=qian 严=yan 嚴=yan 覃=qin 武=wu 戴=dai 莫=mo 孔=kong 向=xiang 汤=tang 湯=tang 习=xi 習=xi 朴=piao 安=an
伟=wei 偉=wei 芳=fang 娜=na 敏=min 静=jing 靜=jing 丽=li 麗=li 强=qiang 強=qiang 磊=lei 军=jun 軍=jun 洋=yang
勇=yong 艳=yan 杰=jie 傑=jie 娟=juan 涛=tao 濤=tao 明=ming 超=chao 秀=xiu 英=ying 华=hua 華=hua 慧=hui 建=jian
国=guo 國=guo 平=ping 近=jin 红=hong 紅=hong 文=wen 玉=yu 兰=lan 蘭=lan 云=yun 雲=yun 峰=feng 春=chun 海=hai
东=dong 東=dong 志=zhi 刚=gang 剛=gang 辉=hui 輝=hui 小=xiao 成=cheng 德=de 新=xin 永=yong 光=guang 庆=qing
慶=qing 生=sheng 荣=rong 榮=rong 宏=hong 天=tian 中=zhong 正=zheng 恩=en 日=ri 哲=zhe 浩=hao 宇=yu 俊=jun
鹏=peng 鵬=peng 飞=fei 飛=fei 斌=bin 林=lin 晓=xiao 曉=xiao 燕=yan 霞=xia 萍=ping 婷=ting 雪=xue 琳=lin 颖=ying
穎=ying 金=jin 善=shan 哲=zhe 成=cheng 日=ri 一=yi 大=da 山=shan 川=chuan 龍=long 泽=ze 澤=ze 民=min 克=ke
强=qiang 立=li 利=li 力=li 世=shi 福=fu 贵=gui 貴=gui 仁=ren 义=yi 義=yi 信=xin 忠=zhong 和=he 安=an 泰=tai
普=pu 京=jing 弗=fu 拉=la 基=ji 米=mi 尔=er 爾=er 亚=ya 亞=ya 历=li 歷=li 山=shan 大=da 克=ke 斯=si 特=te
`);

// Korean surnames: the spellings lists actually use, not Revised Romanization's (Kim, not Gim).
const KOREAN_SURNAMES = table(`
김=kim 이=lee 리=ri 박=park 최=choi 정=jong 강=kang 조=cho 윤=yun 장=jang 임=lim 한=han 오=oh 서=so 신=shin
권=kwon 황=hwang 안=ahn 송=song 류=ryu 전=jon 홍=hong 고=ko 문=mun 양=yang 손=son 배=bae 백=paek 허=ho
유=yu 남=nam 심=sim 노=no 하=ha 곽=kwak 성=song 차=cha 주=ju 우=u 구=ku 민=min 진=jin 나=na 지=ji 엄=om
채=chae 원=won 천=chon 방=pang 공=kong 현=hyon 함=ham 변=pyon 염=yom 여=yo 추=chu 도=do 소=so 석=sok
선=son 설=sol 마=ma 길=kil 연=yon 위=wi 표=pyo 명=myong 기=ki 반=pan 왕=wang 금=kum 옥=ok 육=yuk 인=in
`);

// Hangul jamo, McCune-Reischauer-like (the romanization North Korean entries on lists use).

function kana(ch: string): string | undefined {
  let code = ch.charCodeAt(0);
  // Katakana block mirrors hiragana at +0x60.
  if (code >= 0x30a1 && code <= 0x30f6) code -= 0x60;
  return KANA_BASE.get(String.fromCharCode(code));
}

const HARAKAT = /[\u064b-\u065f\u0670]/g;

const SCRIPT_TABLES: Map<string, string>[] = [CYRILLIC, GREEK, ARABIC, HEBREW, ARMENIAN, GEORGIAN, THAI];

// The scripts read by code of their own below (code points).
const isHangul = (c: number): boolean => c >= 0xac00 && c <= 0xd7a3;
const isHan = (c: number): boolean => (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf);
const isKana = (c: number): boolean => c >= 0x3041 && c <= 0x30ff;

/** True when the string holds Chinese characters (read syllable by syllable, see `han` in normalize.ts). */
export function hasHan(s: string): boolean {
  for (const char of s) if (isHan(char.codePointAt(0)!)) return true;
  return false;
}

/** True when the string holds any letter outside the Latin blocks this file's tables leave as they are. */
export function hasNonLatin(s: string): boolean {
  return /[^\u0020-\u024f\u1e00-\u1eff\s\p{P}\p{S}\p{N}]/u.test(s);
}

const SCHWA = 0x259;

const OTHER_SCRIPT = /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;

/**
 * True when the string is written, at least in part, in a script other than Latin: a name read from
 * another script (see Translit in normalize.ts). Latin letters outside the basic blocks (Azerbaijani
 * ə in Rəşad, West African ɛ and ɔ) are still Latin: such a name is written as its bearer writes it.
 */
export function inOtherScript(s: string): boolean {
  return hasNonLatin(s) && OTHER_SCRIPT.test(s);
}

/**
 * Transliterate a lowercase string. Han runs are split into surname + joined given name
 * (Chinese names are one-syllable surname + one or two syllable given name), Hangul likewise.
 */
export function transliterate(input: string): string {
  if (!hasNonLatin(input)) return input;
  const chars = Array.from(foldDigraphs(input));
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    const code = char.codePointAt(0)!;
    // ə (Azerbaijani) is read by foldText as English romanization writes it: a (Əliyev, Aliyev).
    if (code < 0x250 || code === SCHWA) out += char;
    else if (isHangul(code) || isHan(code)) {
      const [text, last] = isHangul(code) ? hangulRun(chars, i) : hanRun(chars, i);
      out += text + ' ';
      i = last;
    } else if (isKana(code)) out = withKana(out, char, chars[i + 1]);
    else if (char === '・') out += ' ';
    else if (isEthiopic(code)) out += ethiopic(code);
    else if (isDevanagari(code)) {
      const [text, last] = devanagari(chars, i);
      out += text;
      i = last;
    } else {
      const [text, last] = tabledOrOther(chars, i);
      out += text;
      i = last;
    }
  }
  return out;
}

/**
 * Modern Greek and Armenian digraphs, read as lists romanize them (Πούτιν = Putin, Βλαντίμιρ =
 * Vladimir); Arabic vowel marks dropped and الله read whole; Hebrew vav as v where it is a consonant.
 */
function foldDigraphs(input: string): string {
  if (/[\u0370-\u03ff]/.test(input))
    input = input
      .replace(/ο[υύ]/g, 'u')
      .replace(/(^|\s)μπ/g, '$1b')
      .replace(/μπ/g, 'mb')
      .replace(/ντ/g, 'd')
      .replace(/γκ/g, 'g')
      .replace(/γγ/g, 'ng')
      .replace(/α[υύ]/g, 'av')
      .replace(/ε[υύ]/g, 'ev');
  if (/[\u0530-\u058f]/.test(input)) input = input.replace(/ու/g, 'u');
  // Arabic script: the vowel marks (harakat) are dropped, and الله (Allah, in names such as Abd Allah,
  // Hidayatullah) is one word, not the article before "lh".
  if (/[\u0600-\u06ff]/.test(input)) input = input.replace(HARAKAT, '').replace(/(^|\s)الل[هہة](?=\s|$)/g, '$1allah');
  // Hebrew vav is a consonant at the start of a word and when doubled (ולדימיר Vladimir, דווידוב
  // Davidov); elsewhere it writes o or u.
  if (/[\u0590-\u05ff]/.test(input)) input = input.replace(/וו/g, 'v').replace(/(^|\s)ו/g, '$1v');
  return input;
}

/** A run of Hangul syllables from `start`: a full name's surname apart. Returns the text and the run's last index. */
function hangulRun(chars: string[], start: number): [string, number] {
  let run = '';
  let end = start;
  for (; end < chars.length; end++) {
    const code = chars[end]!.codePointAt(0)!;
    if (!isHangul(code)) break;
    const syllable = chars[end]!;
    if (end === start && isNameRun(chars, end, isHangul))
      run += (KOREAN_SURNAMES.get(syllable) ?? hangulSyllable(code)) + ' ';
    else run += hangulSyllable(code);
  }
  return [run, end - 1];
}

/** A run of Han characters from `start`: a full name's surname apart. Returns the text and the run's last index. */
function hanRun(chars: string[], start: number): [string, number] {
  let run = '';
  let end = start;
  for (; end < chars.length; end++) {
    if (!isHan(chars[end]!.codePointAt(0)!)) break;
    run += HAN.get(chars[end]!) ?? hanReading(chars[end]!);
    if (end === start && isNameRun(chars, end, isHan)) run += ' ';
  }
  return [run, end - 1];
}

const SMALL_VOWELS = new Set(['ァ', 'ィ', 'ゥ', 'ェ', 'ォ', 'ぁ', 'ぃ', 'ぅ', 'ぇ', 'ぉ']);
const SMALL_Y = new Map([
  ['ャ', 'a'],
  ['ゃ', 'a'],
  ['ュ', 'u'],
  ['ゅ', 'u'],
  ['ョ', 'o'],
  ['ょ', 'o'],
]);

/** `out` with the kana `ch` read after it (`next`, the character after, for the small tsu). */
function withKana(out: string, ch: string, next: string | undefined): string {
  if (ch === 'ー') return out; // long-vowel mark
  if (ch === 'ッ' || ch === 'っ') {
    const doubled = kana(next ?? '');
    return doubled ? out + doubled[0] : out;
  }
  const reading = kana(ch);
  if (reading === undefined) return out + ' ';
  // Small ya/yu/yo after an i-syllable form a digraph (kya, sha...).
  if (reading.length === 1 && 'aiueo'.includes(reading) && SMALL_VOWELS.has(ch))
    return out.replace(/[aiueo]$/, '') + reading;
  const vowel = SMALL_Y.get(ch);
  if (vowel !== undefined) return /(sh|ch|j)i$/.test(out) ? out.slice(0, -1) + vowel : out.replace(/i$/, 'y') + vowel;
  return out + reading;
}

/**
 * A letter of a script with a table here (Cyrillic, Greek, Arabic, Hebrew, Armenian, Georgian, Thai),
 * a combining mark or separator, or a run of letters of a script without one. Returns the text and
 * the last index read.
 */
function tabledOrOther(chars: string[], i: number): [string, number] {
  const char = chars[i]!;
  let mapped: string | undefined;
  for (const scriptTable of SCRIPT_TABLES) {
    mapped = scriptTable.get(char);
    if (mapped !== undefined) break;
  }
  if (mapped !== undefined) return arabicWordStart(chars, i) ?? [mapped, i];
  // Combining marks after a letter read above (vowel points, harakat, accents) are dropped.
  if (MARK.test(char)) return ['', i];
  if (!LETTER.test(char)) return [' ', i];
  // A run of letters of a script without a table here: read as a whole, so that vowel signs,
  // viramas and inherent vowels are read in context.
  let end = i + 1;
  while (end < chars.length && (LETTER.test(chars[end]!) || MARK.test(chars[end]!)) && !hasOwnReading(chars[end]!))
    end++;
  const text = anyAscii(readKhmer(chars.slice(i, end)))
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ');
  return [text, end - 1];
}

/** ʿAyn or the definite article at the start of an Arabic word, read as Latin lists write them. */
function arabicWordStart(chars: string[], i: number): [string, number] | undefined {
  const char = chars[i]!;
  const wordStart = i === 0 || /\s/.test(chars[i - 1]!);
  // ʿAyn has no Latin letter and is dropped, except at the start of a word, where it carries the
  // word's first vowel and Latin spellings begin with that vowel (علي Ali, عمر Omar, عبد Abd).
  if (char === 'ع' && wordStart) return ['a', i];
  // Arabic definite article at word start becomes its own part ("al sisi"), as Latin lists write it;
  // not before a single letter, which no word is (الي is Ali written letter for letter).
  if (
    char === 'ا' &&
    chars[i + 1] === 'ل' &&
    wordStart &&
    !/^\s?$/.test(chars[i + 2] ?? '') &&
    !/^\s?$/.test(chars[i + 3] ?? '')
  )
    return ['al ', i + 1];
  return undefined;
}

const LETTER = /\p{L}/u;
const MARK = /\p{M}/u;

/** A Han character's Mandarin syllable; a character without one stays itself (it can still equal a listed one). */
function hanReading(ch: string): string {
  const romanized = anyAscii(ch).toLowerCase();
  return /^[a-z]+$/.test(romanized) ? romanized : ch;
}

/** True for a character the loop above reads itself (so a run of other letters stops before it). */
function hasOwnReading(ch: string): boolean {
  const code = ch.codePointAt(0)!;
  if (code < 0x250 || code === SCHWA) return true;
  if (isHangul(code) || isHan(code) || isKana(code) || isEthiopic(code) || isDevanagari(code)) return true;
  return SCRIPT_TABLES.some((t) => t.has(ch));
}

/**
 * The shape of an East Asian full name written together: a 3-character run, or a 2-character
 * run that is the whole input (a 2-character run beside other parts is a given name).
 */
function isNameRun(chars: string[], i: number, inScript: (code: number) => boolean): boolean {
  let count = 0;
  while (i + count < chars.length && inScript(chars[i + count]!.codePointAt(0)!)) count++;
  if (count === 3) return true;
  if (count !== 2) return false;
  const rest = chars.slice(0, i).join('') + chars.slice(i + 2).join('');
  return rest.trim() === '';
}
