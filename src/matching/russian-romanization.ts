/**
 * A Russian name in the German (Duden) or French romanization, known by its patronymic (-owitsch,
 * -owna; -ovitch) or, in German, by an -ow/-ew surname beside another sign of the German spelling,
 * is read in the English one the lists use (Sergej Wiktorowitsch Schoigu, Wladislaw Surkow; Vladimir
 * Vladimirovitch Poutine). Only such names: in others, w, j, z and ch are what they are.
 */
import { inLegalForm } from './legal-forms.js';

const GERMAN_PATRONYMIC = /^[a-z]+(o|e|je)w(itsch|na)$/;
const GERMAN_SURNAME = /^[a-z]{3,}(o|e|je)wa?$/;
const GERMAN_SIGN = /^w|sch|[aei]j$/;
const FRENCH_PATRONYMIC = /^[a-z]+(ovitch|evitch)$/;

export function readRussianRomanization(tokens: string[]): string[] {
  if (tokens.length < 2) return tokens;
  let german = false;
  let french = false;
  for (const token of tokens) {
    if (GERMAN_PATRONYMIC.test(token)) german = true;
    else if (FRENCH_PATRONYMIC.test(token)) french = true;
  }
  // (Not in an organization's name: Credit Bank of Moscow.)
  if (!german && !french && tokens.some((t) => GERMAN_SURNAME.test(t)) && !tokens.some(inLegalForm)) {
    german = tokens.some((t) => GERMAN_SIGN.test(t) && !GERMAN_SURNAME.test(t));
  }
  if (german) {
    return tokens.map((t) =>
      t
        .replace(/schtsch/g, 'shch')
        .replace(/tsch/g, '\u0001')
        .replace(/dsch/g, '\u0002')
        .replace(/sch/g, 'sh')
        .replace(/ch/g, 'kh')
        .replace(/w/g, 'v')
        .replace(/z/g, 'ts')
        .replace(/j/g, 'y')
        .replace(/\u0001/g, 'ch')
        .replace(/\u0002/g, 'dzh'),
    );
  }
  if (french) {
    return tokens.map((t) =>
      t
        .replace(/chtch/g, 'shch')
        .replace(/tch/g, '\u0001')
        .replace(/ch/g, 'sh')
        .replace(/\u0001/g, 'ch')
        .replace(/dj/g, '\u0002')
        .replace(/j/g, 'zh')
        .replace(/\u0002/g, 'dzh')
        .replace(/ou/g, 'u')
        .replace(/([a-z]{3})ine$/, '$1in'),
    );
  }
  return tokens;
}
