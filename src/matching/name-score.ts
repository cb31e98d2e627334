/**
 * The name score: how much of both names an alignment covers, weighted by what each part tells
 * (its weight on the lists, its kind), with the rules that tell another person from the same one
 * (a different father's name, own and father's names swapped, a country in a company's name). And
 * its bound (scoreBound), worked out from the candidate pairs before any alignment.
 */
import {
  familyNameUnmatched,
  holdsSameWord,
  independentSlips,
  isCountryWord,
  nameParts,
  onePartOfMore,
  rolesSwapped,
  sameNumbers,
} from './alignment-rules.js';
import type { NameComparison, Pair } from './name-comparison.js';
import type { QueryParts } from './query-parts.js';
import type { ScoredPart } from './part-similarity.js';
import { COMMON_NAME_IDF, isCommonInAbjad } from './common-names.js';
import { SCORING } from './scoring-table.js';

/*
 * Weights of the name score. A part's weight is its information on the lists (IDF, nats) for words;
 * the other kinds weigh what they tell of identity.
 */
/** A patronymic tells little beside the given name it derives from (thousands of Ivanovichs). */
const PATRONYMIC_WEIGHT = SCORING.PATRONYMIC_WEIGHT.value;
/** Particles (al, bin, van, de) are connectors: they weigh almost nothing. */
const PARTICLE_WEIGHT = SCORING.PARTICLE_WEIGHT.value;
/** An initial narrows a name down by a letter: more than a particle, less than any word. */
const INITIAL_WEIGHT = SCORING.INITIAL_WEIGHT.value;
/** What a matched patronymic and a matched initial add to the information (see scoring.ts distinctiveness). */
const PATRONYMIC_INFORMATION = SCORING.PATRONYMIC_INFORMATION.value;
const INITIAL_INFORMATION = SCORING.INITIAL_INFORMATION.value;
/** Costs of an unpartnered part when judging a conflict (see conflictWeight). */
const INITIAL_CONFLICT = SCORING.INITIAL_CONFLICT.value;
const PARTICLE_CONFLICT = SCORING.PARTICLE_CONFLICT.value;
/** Even a common part (Abdul, Mohammad) replaced by another is a different father or tribe: it costs at least this. */
const MIN_WORD_CONFLICT = SCORING.MIN_WORD_CONFLICT.value;
/**
 * A query part the lists know keeps at least this share of its own weight when matched to a listed
 * part that weighs less (a common query name matched to a rare spelling does not become rare).
 */
const KNOWN_WEIGHT_SHARE = SCORING.KNOWN_WEIGHT_SHARE.value;
/** Parts present on both sides but different: evidence of another person, four times a missing part. */
const CONFLICT_COST = SCORING.CONFLICT_COST.value;
/** Parts only the query has; a one-word listed name found inside a longer query explains little of it. */
const EXTRA_QUERY_COST = SCORING.EXTRA_QUERY_COST.value;
const EXTRA_QUERY_COST_ONE_WORD = SCORING.EXTRA_QUERY_COST_ONE_WORD.value;
/** Parts only the listed name has: two are middle names (cheap), three or more a different, longer name. */
const MIDDLE_NAMES = SCORING.MIDDLE_NAMES.value;
const EXTRA_LISTED_COST = SCORING.EXTRA_LISTED_COST.value;
const EXTRA_LISTED_COST_LONGER = SCORING.EXTRA_LISTED_COST_LONGER.value;
/** The coverage is raised to this power: a name half covered scores about a third, not a half. */
const COVERAGE_EXPONENT = SCORING.COVERAGE_EXPONENT.value;
/** Own and father's names swapped ("Salman bin Muhammad" / "Muhammad bin Salman"): the son, not the man. */
const ROLES_SWAPPED_FACTOR = SCORING.ROLES_SWAPPED_FACTOR.value;
/** A country on one side only of an organization's name: another branch or subsidiary. */
const BRANCH_FACTOR = SCORING.BRANCH_FACTOR.value;

/**
 * A name that says it is a person's, or says nothing, against an organization's, vessel's or
 * aircraft's name, with no word of it the same: a company or ship is named with ordinary words and
 * given names (Negar, Jazmin, Group, Holding), which the parts of a person's name come close to by
 * chance. Resemblance alone is kept in view below the medium boundary. (A long word with one slip,
 * Rosoboronexprt, is still the word: few names come within one letter of a word that long.)
 */
const RESEMBLANCE_ONLY_FACTOR = SCORING.RESEMBLANCE_ONLY_FACTOR.value;
/**
 * One name part of a person's name of two or more, and nothing else: a given name or a surname
 * alone ("Zaur" / ISMAILOV, Zaur; "Tina Ilc" / KANDELAKI, Tina), or a one-word alias matched by one
 * part of a longer query ("Matej Plch" / alias MATE). OFAC's guidance on false hits says as much:
 * when just one of two or more names matches, it is not a valid match. It stays in view, below
 * the medium boundary; a birth date or country that agrees can still bring it to review.
 */
const ONE_PART_FACTOR = SCORING.ONE_PART_FACTOR.value;
/**
 * Two parts of a person's name each one slip from the listed ones, neither a spelling variant
 * (Hamid Saidov / SAIDOU, Habib; Mila Martin / MARTIC, Milan): every letter is written in both, and
 * a name two slips away in two of its parts is another person's (given names and surnames are
 * drawn from a pool of names, and near neighbours are common) more often than the same one
 * mistyped twice. A company's name is words of its own: two slips in it are still that company.
 */
const TWO_SLIPS_FACTOR = SCORING.TWO_SLIPS_FACTOR.value;
/** Weight of an unpartnered part when judging a conflict: a different patronymic or initial is a different person. */
export function conflictWeight(p: ScoredPart, w: number): number {
  if (p.kind === 'patronymic') return p.idf;
  if (p.kind === 'initial') return INITIAL_CONFLICT;
  if (p.kind === 'particle') return PARTICLE_CONFLICT;
  return Math.max(w, MIN_WORD_CONFLICT);
}

/** The weight of a part by its kind: a word's is its information on the lists. */
export function kindWeight(p: ScoredPart): number {
  switch (p.kind) {
    case 'word':
      return p.idf;
    case 'patronymic':
      return p.idf * PATRONYMIC_WEIGHT;
    case 'particle':
      return PARTICLE_WEIGHT;
    case 'initial':
      return INITIAL_WEIGHT;
    default:
      return 0;
  }
}

/** A part similarity below this is a doubtful pair (see partSimilarity's calibration). */
const DOUBTFUL = SCORING.DOUBTFUL.value;
/** Cost of a listed part left over when the alignment holds a doubtful pair of known names (see scoreAlignment). */
const DOUBTFUL_EXTRA_COST = SCORING.DOUBTFUL_EXTRA_COST.value;

let partnerScratch = new Float64Array(16);

/**
 * The most a comparison can score, from its candidate pairs alone: every query part some pair
 * covers counted as matched in full with the largest weight it can take, every other one as
 * unmatched. scoreAlignment's score is at most cov^1.5 (the other rules only lower it) with cov at
 * most matched weight / (matched weight + 0.6 x unmatched query weight), since similarities are at
 * most 1 and conflicts and unpartnered query parts cost 0.6 (EXTRA_QUERY_COST) or more each. Most candidates of a query
 * share one common part with it and nothing else; this tells them apart before the alignment.
 */
export function scoreBound(query: QueryParts, listed: ScoredPart[], listedContent: number[], pairs: Pair[]): number {
  const queryParts = query.parts;
  const queryContent = query.content;
  // One word against one word scores the part similarity itself.
  if (queryContent.length === 1 && listedContent.length === 1) return 1;
  if (partnerScratch.length < queryParts.length) partnerScratch = new Float64Array(queryParts.length);
  // The largest listed weight each query part could stand for; -1: no pair covers it.
  const partner = partnerScratch;
  partner.fill(-1, 0, queryParts.length);
  for (const pair of pairs) {
    let listedIdf = 0;
    for (let x = pair.ci; x <= pair.cj; x++) listedIdf += listed[x]!.idf;
    for (let x = pair.qi; x <= pair.qj; x++) if (listedIdf > partner[x]!) partner[x] = listedIdf;
  }
  let matched = 0;
  let unmatched = 0;
  for (const queryAt of queryContent) {
    const part = queryParts[queryAt]!;
    const known = query.known[queryAt];
    if (partner[queryAt]! >= 0) {
      // A known word weighs at most its own weight (uncapped for a company's, see companyKnown); an
      // unknown one takes its partner's.
      matched += part.kind === 'word' ? (query.companyKnown[queryAt] ?? partner[queryAt]!) : kindWeight(part);
      continue;
    }
    // A repeat of a part that may be matched may cost nothing (see scoreAlignment).
    let repeat = false;
    for (const otherAt of queryContent)
      if (partner[otherAt]! >= 0 && queryParts[otherAt]!.text === part.text) repeat = true;
    if (repeat) continue;
    unmatched += conflictWeight(part, part.kind === 'word' ? (known ?? query.maxIdf) : kindWeight(part));
  }
  if (matched <= 0) return 0;
  return Math.pow(matched / (matched + EXTRA_QUERY_COST * unmatched), COVERAGE_EXPONENT);
}

/** Doubtful part similarities count much less than near-certain ones. */
function eff(s: number): number {
  return s * s * s;
}

/** An alignment as compareParts found it; the arrays are its per-comparison scratch, indexed by part. */
export interface Alignment {
  query: QueryParts;
  listed: ScoredPart[];
  /** The listed name's content parts (indexes) and numbers. */
  listedContent: number[];
  listedNumbers: readonly string[];
  /** The listed party is not a person. */
  organization: boolean;
  /** The pairs taken, in the order they were taken. */
  chosen: Pair[];
  qUsed: Uint8Array;
  cUsed: Uint8Array;
  /** Similarity of each query part's pair, and the listed weight it stands for. */
  qSim: Float64Array;
  qPartnerIdf: Float64Array;
  /** The listed part a query part is paired with one to one, -1 otherwise. */
  qPartner: Int32Array;
}

/** What the query's content parts weigh in an alignment (see tallyQuery). */
interface QueryTally {
  /** Weight of the matched parts, and that weight with each scaled by its pair's similarity (see eff). */
  matchedWeight: number;
  matchedEvidence: number;
  /** Sum of the matched parts' information (see NameComparison.information). */
  information: number;
  /** Conflict weight of the query parts left unpaired, and their texts. */
  unmatchedWeight: number;
  unmatched: string[];
}

/**
 * The weight a query part takes in an alignment: a part unknown to the lists takes the weight of its
 * partner (a typo is not a rare name); unknown and unpartnered, it weighs as much as the rarest name part.
 */
function queryPartWeight(alignment: Alignment, i: number): number {
  const { query, listed, qUsed, qPartnerIdf, qPartner } = alignment;
  const part = query.parts[i]!;
  if (part.kind !== 'word') return kindWeight(part);
  const known = query.organization && alignment.organization ? query.companyKnown[i] : query.known[i];
  let weight = known ?? (qUsed[i] ? qPartnerIdf[i]! : query.maxIdf);
  if (known !== undefined && qUsed[i] && qPartnerIdf[i]! > 0)
    weight = Math.min(weight, Math.max(qPartnerIdf[i]!, weight * KNOWN_WEIGHT_SHARE));
  // Both written in an abjad: the lists hold few names in these scripts, and a common name
  // written in them (ابراہیم, Ibrahim) weighs as common (see isCommonInAbjad), not as the rare
  // word it seems on the lists.
  if (
    part.translit === 'abjad' &&
    qUsed[i] &&
    qPartner[i]! >= 0 &&
    listed[qPartner[i]!]!.translit === 'abjad' &&
    isCommonInAbjad(part.text)
  )
    weight = Math.min(weight, COMMON_NAME_IDF);
  return weight;
}

/** A query part with the text `text` is paired. */
function matchedElsewhere(query: QueryParts, qUsed: Uint8Array, text: string): boolean {
  for (const queryAt of query.content) if (qUsed[queryAt] && query.parts[queryAt]!.text === text) return true;
  return false;
}

/**
 * The query side of the coverage. `listedLeft`: the listed name has a word of its own left over, so
 * a query part repeated ("Shoigu Shoigu Sergey") still counts when unpaired (Abdul Kabir Abdul Jan /
 * Abdul Kabir Mohammad Jan).
 */
function tallyQuery(alignment: Alignment, listedLeft: boolean): QueryTally {
  const { query, qUsed, qSim } = alignment;
  const queryParts = query.parts;
  const tally: QueryTally = { matchedWeight: 0, matchedEvidence: 0, information: 0, unmatchedWeight: 0, unmatched: [] };
  for (const queryAt of query.content) {
    const part = queryParts[queryAt]!;
    const weight = queryPartWeight(alignment, queryAt);
    if (qUsed[queryAt]) {
      tally.matchedWeight += weight;
      tally.matchedEvidence += weight * eff(qSim[queryAt]!);
      if (part.kind === 'word' || part.kind === 'patronymic')
        tally.information += (part.kind === 'patronymic' ? PATRONYMIC_INFORMATION : 1) * weight * qSim[queryAt]!;
      else if (part.kind === 'initial') tally.information += INITIAL_INFORMATION;
    } else {
      // A part repeated in the query adds nothing once matched.
      if (!listedLeft && matchedElsewhere(query, qUsed, part.text)) continue;
      tally.unmatchedWeight += conflictWeight(part, weight);
      tally.unmatched.push(part.text);
    }
  }
  return tally;
}

/** The listed side of the coverage: what the unpaired listed parts weigh as conflicts and as extras. */
interface ListedTally {
  conflictWeight: number;
  extraWeight: number;
  unmatched: string[];
}

function tallyListed(alignment: Alignment): ListedTally {
  const { listed, listedContent, cUsed } = alignment;
  const tally: ListedTally = { conflictWeight: 0, extraWeight: 0, unmatched: [] };
  for (const listedAt of listedContent) {
    const part = listed[listedAt]!;
    if (cUsed[listedAt]) continue;
    tally.conflictWeight += conflictWeight(part, part.idf);
    tally.extraWeight += kindWeight(part);
    tally.unmatched.push(part.text);
  }
  return tally;
}

/** The cost of each extra listed part: middle names, a longer name, or a doubtful alignment's (see coverageScore). */
function extraListedCost(alignment: Alignment): number {
  const { query, listed, listedContent, cUsed, chosen } = alignment;
  // Two listed parts missing are middle names; three or more are a different, longer name.
  // (Particles, de, van, bin, ibn, are connectors, not names: they are not counted.)
  let missingNames = 0;
  for (const listedAt of listedContent) if (!cUsed[listedAt] && listed[listedAt]!.kind !== 'particle') missingNames++;
  // ...unless the names also align only doubtfully: a query part the lists know as a name of its own
  // taken for a listed one it merely resembles (Martina / Maria, Amparo / Alvaro) and listed names
  // missing besides are a different person who shares a surname, not one whose middle names were left out.
  let doubtful = false;
  for (const pair of chosen)
    if (pair.how === 'fuzzy' && pair.s < DOUBTFUL && pair.qi === pair.qj && query.known[pair.qi] !== undefined)
      doubtful = true;
  // A name read from Chinese characters is its characters: a listed syllable it does not have is
  // another character, so another name (郭萍 Guo Ping / CHEN, Guo Ping), not a middle name left out.
  if (doubtful || query.han) return DOUBTFUL_EXTRA_COST;
  return missingNames <= MIDDLE_NAMES ? EXTRA_LISTED_COST : EXTRA_LISTED_COST_LONGER;
}

/** The weighted coverage of both names by the alignment, raised to COVERAGE_EXPONENT. */
function coverageScore(alignment: Alignment, queryTally: QueryTally, listedTally: ListedTally): number {
  const { listed, listedContent, query, qUsed, qSim } = alignment;
  // Parts present on both sides but different (a swapped surname, another father's name) are
  // evidence of another person; parts only the listed name has (middle names, a grandfather's
  // name, a tribal name) cost little; parts only the query has cost more.
  const conflict = Math.min(queryTally.unmatchedWeight, listedTally.conflictWeight);
  const extraQuery = queryTally.unmatchedWeight - conflict;
  const extraListed = Math.max(0, listedTally.extraWeight - conflict);
  // A one-word listed name ("Troy", "Benson") found inside a longer query explains little of it.
  let listedWords = 0;
  for (const listedAt of listedContent)
    if (listed[listedAt]!.kind === 'word' || listed[listedAt]!.kind === 'patronymic') listedWords++;
  const extraQueryCost = listedWords <= 1 ? EXTRA_QUERY_COST_ONE_WORD : EXTRA_QUERY_COST;
  const denominator =
    queryTally.matchedWeight +
    CONFLICT_COST * conflict +
    extraQueryCost * extraQuery +
    extraListedCost(alignment) * extraListed;
  const coverage = denominator > 0 ? queryTally.matchedEvidence / denominator : 0;
  let score = Math.pow(coverage, COVERAGE_EXPONENT);
  // One word against one word ("Stellaris" / "Stellantis"): the part similarity is the whole
  // evidence, not a share of a longer name diluted by the coverage formula.
  const queryContent = query.content;
  if (
    queryContent.length === 1 &&
    listedContent.length === 1 &&
    qUsed[queryContent[0]!] &&
    listedTally.unmatched.length === 0
  )
    score = Math.max(score, qSim[queryContent[0]!]! * qSim[queryContent[0]!]!);
  return score;
}

/**
 * The coverage score with the factors of the rules that tell another person from the same one
 * (alignment-rules.ts) applied, one after the other.
 */
function applyRules(alignment: Alignment, coverage: number, unmatched: { query: string[]; listed: string[] }): number {
  const { query, listed, listedNumbers, organization, chosen, qPartner } = alignment;
  const queryParts = query.parts;
  const queryContent = query.content;
  let score = coverage;
  // "Salman bin Muhammad" is the son of "Muhammad bin Salman": the same parts in swapped roles.
  if (rolesSwapped(queryParts, listed, qPartner)) score *= ROLES_SWAPPED_FACTOR;
  // A country on one side only of an organization's name is another branch or subsidiary
  // ("Banco Santander" / "Banco Santander Mexico").
  if (organization && (unmatched.query.some(isCountryWord) || unmatched.listed.some(isCountryWord)))
    score *= BRANCH_FACTOR;
  // A one-word query (a given name or a surname alone) that only resembles a listed word is likewise
  // a resemblance of one part of a longer listed name (Nuray / NURA, Mohammed): no name is identified
  // by it; nor does one that resembles a one-word nickname or short form of a person with a longer
  // name (Banu / alias BASU of EBERAHIM, Abbas), nor a person known by one name (Zahir / Zakir, Faiq /
  // Faiz): given names are a pool in which a short name has many neighbours one letter away, and one
  // name says nothing else. (Not a word from another script: against its romanization, resemblance
  // is all the evidence there is, משה / Moshe; nor a long word with a slip, see holdsSameWord.)
  if (
    !query.organization &&
    ((queryContent.length === 1 && queryParts[queryContent[0]!]!.translit === undefined) || organization) &&
    !holdsSameWord(queryParts, listed, chosen) &&
    !sameNumbers(query.numbers, listedNumbers)
  )
    score *= RESEMBLANCE_ONLY_FACTOR;
  if (!query.byTitle && onePartAlone(alignment, unmatched.listed.length > 0)) score *= ONE_PART_FACTOR;
  if (!organization && independentSlips(query, listed, chosen)) score *= TWO_SLIPS_FACTOR;
  return score;
}

/**
 * One part of a person's name of two or more, alone: not a valid match (see ONE_PART_FACTOR),
 * unless the query names the person by a role title ("President Putin", "Mullah Omar"). Likewise a word of
 * persons' names matching one word of an organization's or vessel's name of more (Maya / MAYA
 * EXCHANGE COMPANY, Deniz / DENIZ CAPITAL), when the query does not say it names an organization;
 * and so does a one-word query, whatever the word (Emin / ETIM EMIN, Afaq / AFAQ DUBAI): one word of
 * a name of several is not that name. (A company's one word beside its legal form is its whole
 * name: Gazprom / GAZPROM PJSC.)
 * A Chinese or Korean name written in its characters puts its family name first: when that
 * syllable finds no partner of its own, only the given name matched (범주혁 Bom Juhyok / JU, Hyok;
 * 당유진 Dang Yujin / Yoo Jin), one part of the name too. (Either way the factor applies once.)
 */
function onePartAlone(alignment: Alignment, listedLeft: boolean): boolean {
  const { query, listed, organization, chosen, qPartner } = alignment;
  const queryParts = query.parts;
  const one = onePartOfMore(query, listed, chosen, listedLeft);
  return (
    (one !== undefined &&
      (!organization ||
        (!query.organization &&
          (queryParts[one.qi]!.personal === true || nameParts(queryParts) === 1) &&
          nameParts(listed) >= 2))) ||
    (!organization && familyNameUnmatched(query, qPartner))
  );
}

/** Numbers on one side missing on the other. */
function numbersDiffer(queryNumbers: readonly string[], listedNumbers: readonly string[]): boolean {
  if (queryNumbers.length === 0 && listedNumbers.length === 0) return false;
  const listedSet = new Set(listedNumbers);
  const querySet = new Set(queryNumbers);
  for (const number of queryNumbers) if (!listedSet.has(number)) return true;
  for (const number of listedNumbers) if (!querySet.has(number)) return true;
  return false;
}

/** The name score of an alignment, with what an explanation reports of it. */
export function scoreAlignment(alignment: Alignment): NameComparison {
  const { query, listed, listedContent, cUsed, qUsed, chosen } = alignment;
  const queryParts = query.parts;
  let listedLeft = false;
  for (const listedAt of listedContent) if (!cUsed[listedAt] && listed[listedAt]!.kind === 'word') listedLeft = true;
  const queryTally = tallyQuery(alignment, listedLeft);
  const listedTally = tallyListed(alignment);
  let score = applyRules(alignment, coverageScore(alignment, queryTally, listedTally), {
    query: queryTally.unmatched,
    listed: listedTally.unmatched,
  });
  // Only particles or initials aligned: no real match.
  let substantive = false;
  for (let i = 0; i < queryParts.length; i++)
    if (qUsed[i] && (queryParts[i]!.kind === 'word' || queryParts[i]!.kind === 'patronymic')) substantive = true;
  if (!substantive) score = 0;
  return {
    score,
    information: queryTally.information,
    aligned: chosen,
    query: queryParts,
    listed,
    unmatchedQuery: queryTally.unmatched,
    unmatchedListed: listedTally.unmatched,
    numberConflict: numbersDiffer(query.numbers, alignment.listedNumbers),
    contentParts: query.content.length,
  };
}
