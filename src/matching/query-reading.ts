/**
 * Reading a query against the lists' vocabulary, before candidates are sought: parts glued together
 * that the lists hold apart are split ("KYAWmaung", "SiemensAG"), and an abbreviated legal form
 * with a slip at an end of an organization's name is read as the form ("SOLINVEST LD").
 */
import type { EntityType } from '../lists/index.js';
import type { CandidateIndex } from './candidate-index.js';
import type { ScoredPart } from './part-similarity.js';
import { isLegalWord, legalSlip } from './legal-forms.js';
import { HONORIFICS, isHonorific, isParticle, isPatronymicForm } from './name-structure.js';
import { normalizeName, type NamePart } from './normalize.js';
import { levenshtein, withinOneSlip } from './similarity.js';

/** A word the lists hold more often than this is a name part, never read as a legal form with a slip. */
const LEGAL_SLIP_MAX_DF = 3;
/** Query parts read at most: a longer "name" is a sentence, and its tail would only add noise and time. */
const MAX_QUERY_PARTS = 16;
const ARTICLE_START = /^(al|el)[a-z]/;

/** true for a person, false for another type, undefined when the query does not say. */
export function isPersonFlag(t: EntityType | undefined): boolean | undefined {
  return t === undefined ? undefined : t === 'person';
}

/**
 * The parts of a query as the lists read them. `listed`: the parts of the one listed name a pair
 * check compares with, known to the lists for the occasion.
 */
export function readQuery(
  index: CandidateIndex,
  name: string,
  type: EntityType | undefined,
  listed?: NamePart[],
): ScoredPart[] {
  const person = isPersonFlag(type);
  const parts: NamePart[] = [];
  for (const part of normalizeName(name, person).parts) {
    // (A given name glued to a patronymic reads as a patronymic: Andreikonstantinovich.)
    const split =
      part.kind === 'word' || part.kind === 'patronymic' ? splitGlued(index, part.text, person, listed) : undefined;
    if (split)
      for (const piece of split)
        parts.push(part.translit ? Object.assign({}, piece, { translit: part.translit }) : piece);
    else parts.push(part);
  }
  // An abbreviated legal form with a slip, first or last in a name that is not a person's, is a
  // legal form unless the lists hold the word as a name part ("SOLINVEST LD", "LzLC ALFA"): they
  // hold such slips themselves a few times (LD, LC, LMTD), name parts more often (OO, TOM). A vessel
  // or an aircraft has no legal form: its name or registration mark is all name (EP-LDC, not EP LLC).
  const slips = new Set<number>();
  if (person !== true && type !== 'vessel' && type !== 'aircraft' && parts.length >= 2) {
    for (const edge of [0, parts.length - 1]) {
      const part = parts[edge]!;
      if (
        part.kind !== 'word' ||
        part.translit !== undefined ||
        (index.documentFrequency(part.text) ?? 0) > LEGAL_SLIP_MAX_DF ||
        listed?.some((l) => l.text === part.text)
      )
        continue;
      const form = legalSlip(part.text, edge === 0);
      // (Never the name's last word part: "LD LC" stays a name.)
      if (form !== undefined && parts.some((o, j) => j !== edge && o.kind === 'word')) {
        parts[edge] = { text: form, kind: 'legal' };
        slips.add(edge);
      }
    }
  }
  return parts.slice(0, MAX_QUERY_PARTS).map((p, i) => {
    const scored = index.scored(p.text, p.kind, p.translit);
    if (slips.has(i)) scored.slip = true;
    return scored;
  });
}

/**
 * A query part unknown to the lists that is two listed parts glued together ("FORENINGENal",
 * "KYAWmaung", "DOOnovi") is read as those two parts; each side must be a listed part, a
 * particle or a legal form, and at least one a listed part of four letters or more.
 */
function splitGlued(
  index: CandidateIndex,
  t: string,
  person: boolean | undefined,
  listed?: NamePart[],
): NamePart[] | undefined {
  if (t.length < 6) return undefined;
  const named = honorificOff(index, t, person);
  if (named) return named;
  // Two parts a listed name has side by side are in the vocabulary as one token too (to find
  // candidates by), and are left whole: the comparison pairs them with the two listed parts. A given
  // name glued to a patronymic is split all the same, where the listed name splits it
  // ("Andreikonstantinovich"): read whole, it would weigh as a patronymic.
  if (index.hasToken(t)) return !index.hasWord(t) && isPatronymicForm(t) ? splitListedPair(index, t) : undefined;
  // A spelling variant of a listed part is not a glued pair ("mokhamed" is not "mok hamed")...
  const fold = index.fold(t);
  if (index.hasToken(fold) || index.hasFold(fold)) return undefined;
  // ...nor, as two words, is a listed part with one slip in it ("Macrosoft" / "Microsoft",
  // "UnitedWealth" / "UnitedHealth"); a legal form glued to a listed part still comes off.
  let near: boolean | undefined;
  const isNear = (): boolean => (near ??= nearListed(index, t, false, listed));
  // A short legal form is the end (or start) of many a word with a slip in it (Ivnest / Invest is not
  // Ivn Est, Tatinna / Tatiana not Tat Inna); a listed part one letter shorter does not count here,
  // the letter more may be the legal form's (JSCrawenstvo / Scrawenstvo).
  let nearLegal: boolean | undefined;
  const isNearLegal = (): boolean => (nearLegal ??= nearListed(index, t, true, listed));
  for (let i = 2; i <= t.length - 2; i++) {
    const head = t.slice(0, i);
    const tail = t.slice(i);
    const lKnown = head.length >= 4 && index.hasWord(head);
    const rKnown = tail.length >= 4 && index.hasWord(tail);
    // A legal form glued to the end of an organization's name needs no listed partner ("SiemensAG").
    const legalEnd = isLegalWord(tail) && head.length >= 3 && (tail.length >= 3 || person === false);
    // ...and one glued to its front needs a listed remainder ("JSCrawenstvo", "COMPANYlex").
    const legalStart = isLegalWord(head) && head.length >= 3 && tail.length >= 2 && index.hasWord(tail);
    if (!legalEnd && !legalStart) {
      if (!lKnown && !rKnown) continue;
      if (
        !(lKnown || isParticle(head) || isHonorific(head)) ||
        !(rKnown || isParticle(tail) || isLegalWord(tail) || isHonorific(tail))
      )
        continue;
      if (isNear()) continue;
    } else if (isNearLegal()) continue;
    const parts = normalizeName(`${head} ${tail}`, person, true).parts;
    // One side an honorific dropped by normalization ("Sayyedjabar").
    if (
      parts.length === 1 &&
      parts[0]!.kind === 'word' &&
      ((lKnown && parts[0]!.text === head) || (rKnown && parts[0]!.text === tail))
    )
      return parts;
    if (parts.length === 2) return parts;
  }
  // The Arabic article written onto its word with a slip where the hyphen was ("ALkMATAR", "ALwHAMZI"):
  // the article and the listed word after the stray letter.
  if (t.length >= 7 && ARTICLE_START.test(t) && index.hasWord(t.slice(3)) && !isNear())
    return [
      { text: t.slice(0, 2), kind: 'particle' },
      { text: t.slice(3), kind: 'word' },
    ];
  return undefined;
}

/**
 * An honorific written onto the name after it ("SAYYEDmohammed", "HAJImuhammad"): the name, the
 * honorific dropped as it is when written apart. Asked before the vocabulary's joined pairs, which
 * hold such an honorific with its name ("sayyedmohammad") where the listed names' parts do not. Only
 * a word the lists do not hold, an honorific of four letters or more, and a listed word of four or
 * more after it that is not the tail of a compound name (Hafizullah, Hajizadeh are one name).
 */
function honorificOff(index: CandidateIndex, t: string, person: boolean | undefined): NamePart[] | undefined {
  if (index.hasWord(t)) return undefined;
  for (const title of GLUED_HONORIFICS) {
    if (!t.startsWith(title)) continue;
    const rest = t.slice(title.length);
    if (rest.length < 4 || !index.hasWord(rest) || ENDINGS_NOT_NAMES.has(rest)) continue;
    const parts = normalizeName(`${title} ${rest}`, person, true).parts;
    if (parts.length === 1 && parts[0]!.kind === 'word' && parts[0]!.text === rest) return parts;
  }
  return undefined;
}
/** The religious titles Persian and South Asian names write onto the name after them (Hajimohammad). */
const GLUED_HONORIFICS = `sheikh shaikh sheik shaykh haji hajji hadji alhaj mullah mulla maulana maulvi mawlawi mawlavi
   qari hafiz imam ayatollah sayed sayyed sayyid syed seyed`
  .split(/\s+/)
  .filter((h) => HONORIFICS.has(h));
/** What follows a title in one name, not a name of its own: Hafizullah, Imamuddin, Hajizadeh. */
const ENDINGS_NOT_NAMES = new Set(
  'ullah ulla allah alla uddin uddeen eddin eddine addin udin ullo zadeh zada zade pour abadi nejad nezhad'.split(' '),
);

/** `t` read as a listed given name and a listed patronymic. */
function splitListedPair(index: CandidateIndex, t: string): NamePart[] | undefined {
  for (let i = 2; i <= t.length - 2; i++) {
    const head = t.slice(0, i);
    const tail = t.slice(i);
    if (index.hasWord(head) && index.hasWord(tail) && isPatronymicForm(tail) && !isParticle(head) && !isHonorific(head))
      return [
        { text: head, kind: 'word' },
        { text: tail, kind: 'patronymic' },
      ];
  }
  return undefined;
}

/**
 * A listed part that is `t` less one letter, or one of six letters or more one slip away (a word of
 * `listed` too, the one listed name of a pair check); with `sameOrLonger`, only parts as long as `t`
 * or longer.
 */
function nearListed(index: CandidateIndex, t: string, sameOrLonger: boolean, listed?: NamePart[]): boolean {
  for (const other of index.oneEditTokens(t)) {
    if (sameOrLonger && other.length < t.length) continue;
    if (other.length === t.length - 1 && levenshtein(other, t, 1) <= 1) return true;
    if (other.length >= 6 && withinOneSlip(other, t)) return true;
  }
  return (
    listed?.some(
      (p) =>
        p.kind === 'word' &&
        p.text.length >= 6 &&
        (!sameOrLonger || p.text.length >= t.length) &&
        withinOneSlip(p.text, t),
    ) ?? false
  );
}
