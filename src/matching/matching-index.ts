/**
 * The matching engine's entry point: records in, explained matches out. A screening reads the query
 * (query-reading.ts), collects candidate names (candidate-index.ts), compares each with the query
 * (name-compare.ts), scores the best name of each row and corroborates it (scoring.ts,
 * corroboration.ts), ranks the rows and works out risk and confidence (ranking.ts), and explains the
 * matches it reports (explanation.ts). src/matching/README.md walks through the pipeline.
 */
import type { EntityType, ListRecord } from '../lists/index.js';
import { CandidateIndex, renderingScript, type NameEntry } from './candidate-index.js';
import { clusterSteps } from './clusters.js';
import {
  BIRTH_YEAR_TOLERANCE,
  birthDateEffect,
  countryEffect,
  entityTypeEffect,
  identifierEffect,
  identifierStrength,
  recordCountries,
  typeEffectWithIdentifier,
} from './corroboration.js';
import { explainMatch } from './explanation.js';
import { IdentifierIndex, readIdentifiers } from './identifier-index.js';
import { DEFAULT_FLOOR, DEFAULT_MAX_MATCHES, riskLevelFor, round1 } from './levels.js';
import { compareParts } from './name-compare.js';
import type { NameComparison } from './name-comparison.js';
import { QueryParts } from './query-parts.js';
import { namesByTitle, normalizeName } from './normalize.js';
import { isPersonFlag, readQuery } from './query-reading.js';
import { rankRows, type RowScore } from './ranking.js';
import { corroborate, nameFloor, scoreName, type FieldEffects } from './scoring.js';
import type { Listing, Match, MatchOptions, MatchQuery, ScreenOutcome } from './types.js';

/** A row's own floor (MatchOptions.rowFloors): its source's, else its entity type's, else the given one. */
function rowFloor(floors: NonNullable<MatchOptions['rowFloors']>, rec: ListRecord, floor: number): number {
  return floors.bySource?.[rec.source] ?? floors.byEntityType?.[rec.entityType] ?? floors.otherwise ?? floor;
}

/** How often (in items) the build generator offers the event loop a turn. */
const BUILD_STEP = 64;

/** What every option set of one query shares (MatchingIndex.screenVariants). */
interface Prepared {
  query: MatchQuery;
  ids: ReturnType<typeof readIdentifiers> | undefined;
  identified: Set<number> | undefined;
  cands: ReturnType<CandidateIndex['candidates']>;
  queryParts: QueryParts;
  queryScript: ReturnType<typeof renderingScript>;
}

/** A record's best-scoring name for a query. */
interface BestName {
  entry: NameEntry;
  cmp: NameComparison;
  nameScore: number;
  dist: number;
}

/** One list row that reached the floor, with its evidence kept for the explanation. */
interface ScoredRow extends RowScore {
  record: number;
  entry: NameEntry;
  cmp: NameComparison;
  fields: FieldEffects;
}

export class MatchingIndex {
  readonly size: number;
  readonly sources: ListRecord['source'][];
  private readonly records: ListRecord[];
  private countries: string[][] = [];
  private clusterOf: Int32Array = new Int32Array(0);
  private clusterMembers = new Map<number, number[]>();
  private index!: CandidateIndex;
  private identifiers!: IdentifierIndex;

  private constructor(records: ListRecord[]) {
    this.records = records;
    this.size = records.length;
    this.sources = [...new Set(records.map((r) => r.source))];
  }

  /**
   * The whole build as a generator that yields every few items, so that build() can run it to the
   * end at once and buildAsync() can hand the event loop a turn between steps: one code path,
   * one result.
   */
  private *populate(): Generator<void, void, void> {
    const records = this.records;
    for (let r = 0; r < records.length; r++) {
      this.countries.push(recordCountries(records[r]!));
      if (r % (BUILD_STEP * 4) === 0) yield;
    }
    const built = yield* CandidateIndex.build(records, BUILD_STEP);
    this.index = built.index;
    const clusters = yield* clusterSteps(records, this.countries, built.primaryParts, BUILD_STEP * 4);
    this.clusterOf = clusters.clusterOf;
    this.clusterMembers = clusters.members;
    this.identifiers = yield* IdentifierIndex.build(records, BUILD_STEP * 4);
  }

  /** Build the index at once (blocks the thread for the whole build). */
  static build(records: ListRecord[]): MatchingIndex {
    const idx = new MatchingIndex(records);
    const steps = idx.populate();
    while (!steps.next().done);
    return idx;
  }

  /**
   * The same build as build(), giving the event loop a turn (setImmediate) whenever `yieldEveryMs`
   * (default 10 ms) have passed, so that a server keeps answering while lists are re-indexed.
   */
  static async buildAsync(records: ListRecord[], options: { yieldEveryMs?: number } = {}): Promise<MatchingIndex> {
    const every = options.yieldEveryMs ?? 10;
    const idx = new MatchingIndex(records);
    const steps = idx.populate();
    let last = performance.now();
    while (!steps.next().done) {
      if (performance.now() - last >= every) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        last = performance.now();
      }
    }
    return idx;
  }

  /** Number of distinct identifiers indexed (by screening type and normalized value). */
  get identifierCount(): number {
    return this.identifiers.size;
  }

  /** Number of indexed names (primary names and aliases, deduplicated per record). */
  get nameCount(): number {
    return this.index.names.length;
  }

  /**
   * Score two names against each other with this index's part statistics, 0..100 (names only:
   * no corroboration). Used by the quality benchmark for judged name pairs.
   */
  scorePair(queryName: string, listedName: string, entityType?: EntityType): number {
    const listed = normalizeName(listedName, isPersonFlag(entityType)).parts;
    const index = this.index;
    const queryParts = new QueryParts(
      readQuery(index, queryName, entityType, listed),
      index.idfOf,
      index.maxIdf,
      entityType !== undefined && entityType !== 'person',
      namesByTitle(queryName),
      index.listIdfOf,
    );
    const scored = listed.map((p) => index.scored(p.text, p.kind, p.translit));
    const cmp = compareParts(queryParts, scored, { organization: entityType !== undefined && entityType !== 'person' });
    return round1(scoreName(cmp, 'strong').score);
  }

  screen(query: MatchQuery, options: MatchOptions = {}): ScreenOutcome {
    return this.screenVariants(query, [options])[0]!;
  }

  /**
   * One query under several option sets (a profile backtest's two sides, issue 29): the query is
   * read, its candidates collected and each listed name compared with it once for all of them; each
   * set is then scored, filtered and ranked as screen() would alone, to the same outcome.
   */
  screenVariants(query: MatchQuery, variants: readonly MatchOptions[]): ScreenOutcome[] {
    const prepared = this.prepare(query);
    if (!prepared) return variants.map(() => ({ riskScore: 0, riskLevel: 'low', confidence: 0, matches: [] }));
    // A comparison worked out down to the lowest name floor is the same comparison for a higher one.
    const least = Math.min(...variants.map((o) => nameFloor(o.floor ?? DEFAULT_FLOOR)));
    const compared = new Map<number, NameComparison | undefined>();
    return variants.map((options) => this.outcome(this.scoreRows(prepared, options, compared, least), options));
  }

  /** The query read, its identifiers and the candidate names: what every option set shares. */
  private prepare(query: MatchQuery): Prepared | undefined {
    const index = this.index;
    const reading = readQuery(index, query.name, query.entityType);
    // The query's identifiers, and the records carrying one of them whatever their names.
    const ids = query.identifiers?.length ? readIdentifiers(query.identifiers) : undefined;
    const identified = ids?.length ? this.identifiers.recordsWith(ids) : undefined;
    if (reading.length === 0 && !identified?.size) return undefined;
    const queryParts = new QueryParts(
      reading,
      index.idfOf,
      index.maxIdf,
      query.entityType !== undefined && query.entityType !== 'person',
      namesByTitle(query.name),
      index.listIdfOf,
    );
    return {
      query,
      ids,
      identified,
      cands: index.candidates(reading, identified),
      queryParts,
      queryScript: renderingScript(query.name),
    };
  }

  /**
   * The best name of each candidate record under one option set. `compared` holds the comparisons
   * of listed names already made for this query (down to the name floor `least`).
   */
  private bestNames(
    p: Prepared,
    options: MatchOptions,
    compared: Map<number, NameComparison | undefined>,
    least: number,
  ): Map<number, BestName> {
    const index = this.index;
    const sources = options.sources ? new Set<string>(options.sources) : undefined;
    const skipWeak = options.knobs?.weakAliases === false;
    const perRecord = new Map<number, BestName>();
    // The lists repeat one another: a name listed by several sources (or twice by one) is the same
    // parts and compares with the query the same way, so each is compared once per query (see
    // CandidateIndex.sameName; about 40% of the comparisons of the benchmarks' query mix were
    // repeats). A comparison is not changed once made.
    for (const candidate of p.cands) {
      const entry = index.names[candidate.name]!;
      if (skipWeak && entry.quality === 'weak') continue;
      // A record whose best name scores under the name floor is left out below: such names need no
      // alignment, unless an identifier found the record.
      if (sources && !sources.has(this.records[entry.record]!.source)) continue;
      const found = p.identified?.has(entry.record) === true;
      // A query is compared with the record's Latin names, not with their renderings in a script
      // that leaves vowels out or changes sounds (see NameEntry.rendering), unless it is written in
      // that script: a Hebrew or Cyrillic query against a katakana rendering (ソン・ムンサン) compares two
      // lossy readings of a Latin name with each other.
      if (entry.rendering !== undefined && entry.rendering !== p.queryScript && !found) continue;
      let cmp: NameComparison | undefined;
      if (found) cmp = compareParts(p.queryParts, entry.parts, entry);
      else {
        const same = index.sameName(candidate.name);
        if (compared.has(same)) cmp = compared.get(same);
        else {
          cmp = compareParts(p.queryParts, entry.parts, entry, least);
          compared.set(same, cmp);
        }
      }
      if (!cmp || (cmp.score <= 0 && !found)) continue;
      const name = scoreName(cmp, entry.quality);
      const prev = perRecord.get(entry.record);
      if (!prev || name.score > prev.nameScore)
        perRecord.set(entry.record, { entry, cmp, nameScore: name.score, dist: name.distinctiveness });
    }
    return perRecord;
  }

  /** The rows of one option set that reach its floors, each corroborated by the query's other fields. */
  private scoreRows(
    p: Prepared,
    options: MatchOptions,
    compared: Map<number, NameComparison | undefined>,
    sharedLeast: number,
  ): ScoredRow[] {
    const { query, ids } = p;
    const floor = options.floor ?? DEFAULT_FLOOR;
    const least = nameFloor(floor);
    // A profile's knobs (engine-knobs.ts); without them, the engine's own values.
    const knobs = options.knobs;
    const tolerance = knobs?.birthDateToleranceYears ?? BIRTH_YEAR_TOLERANCE;
    const missingBirth = knobs?.missingBirthDatePoints ?? 0;
    const missingCountry = knobs?.missingCountryPoints ?? 0;
    const scored: ScoredRow[] = [];
    for (const [record, best] of this.bestNames(p, options, compared, sharedLeast)) {
      const rec = this.records[record]!;
      const evidence = ids?.length ? this.identifiers.evidenceFor(ids, record) : undefined;
      const identifier = identifierEffect(evidence, best.nameScore, rec.entityType, {
        query: query.name,
        listed: rec.name,
      });
      const identifiedBy = identifier?.outcome === 'match';
      // Corroboration cannot lift a name that is far from a match over the floor on its own; an
      // identifier the record carries can.
      if (best.nameScore < least && !identifiedBy) continue;
      const fields: FieldEffects = {};
      const birth = birthDateEffect(query.birthDate, rec, tolerance, missingBirth);
      if (birth) fields.birthDate = birth;
      const country = countryEffect(query.country, this.countries[record]!, missingCountry);
      if (country) fields.country = country;
      const type = typeEffectWithIdentifier(
        entityTypeEffect(query.entityType, rec.entityType),
        evidence,
        query.entityType,
        rec.entityType,
      );
      if (type) fields.entityType = type;
      if (identifier) fields.identifier = identifier;
      const { score, corroborated, contradicted } = corroborate(best.nameScore, fields);
      if (score < floor) continue;
      if (options.rowFloors && score < rowFloor(options.rowFloors, rec, floor)) continue;
      scored.push({
        record: record,
        cluster: this.clusterOf[record]!,
        source: rec.source,
        score,
        nameScore: best.nameScore,
        distinctiveness: best.dist,
        nameParts: best.entry.parts,
        corroborated,
        contradicted,
        entry: best.entry,
        cmp: best.cmp,
        fields,
        ...(identifiedBy ? { identified: identifierStrength(best.nameScore, rec.entityType, evidence?.matched) } : {}),
      });
    }
    return scored;
  }

  /** The outcome of scored rows: suppressed rows apart, ranked, risk and confidence, the matches reported. */
  private outcome(scored: ScoredRow[], options: MatchOptions): ScreenOutcome {
    if (scored.length === 0) return { riskScore: 0, riskLevel: 'low', confidence: 0, matches: [] };
    const maxMatches = options.maxMatches ?? DEFAULT_MAX_MATCHES;
    let kept = scored;
    let suppressed: ScoredRow[] = [];
    if (options.suppressed && options.suppressed.length > 0) {
      const ids = new Set(options.suppressed);
      const isSuppressed = (row: ScoredRow) => ids.has(`${row.source}:${this.records[row.record]!.id}`);
      suppressed = scored.filter(isSuppressed);
      kept = scored.filter((row) => !isSuppressed(row));
    }
    const ranked = kept.length > 0 ? rankRows(kept) : { rows: [], riskScore: 0, confidence: 0 };
    const { riskScore, confidence } = ranked;
    const seen = new Set<number>();
    const matches = this.reported(ranked.rows, options, maxMatches, seen);
    if (suppressed.length > 0) {
      for (const match of this.reported(rankRows(suppressed).rows, options, maxMatches, seen)) {
        match.suppressed = true;
        matches.push(match);
      }
    }
    return { riskScore, riskLevel: riskLevelFor(riskScore), confidence, matches };
  }

  /** The matches reported for ranked rows: at most `maxMatches`, one per cluster (not yet in `seen`) when grouped. */
  private reported(rows: ScoredRow[], options: MatchOptions, maxMatches: number, seen: Set<number>): Match[] {
    const matches: Match[] = [];
    if (options.groupByCluster) {
      for (const scored of rows) {
        if (seen.has(scored.cluster)) continue;
        seen.add(scored.cluster);
        const match = this.toMatch(scored);
        const members = this.clusterMembers.get(scored.cluster) ?? [scored.record];
        match.listings = members.map((i) => this.listing(i));
        match.clusterId = this.clusterId(scored.cluster);
        matches.push(match);
        if (matches.length >= maxMatches) break;
      }
    } else {
      for (const scored of rows.slice(0, maxMatches)) {
        const match = this.toMatch(scored);
        match.clusterId = this.clusterId(scored.cluster);
        matches.push(match);
      }
    }
    return matches;
  }

  private clusterId(cluster: number): string {
    const rec = this.records[cluster]!;
    return `${rec.source}:${rec.id}`;
  }

  private listing(i: number): Listing {
    const record = this.records[i]!;
    const listing: Listing = {
      dataset: record.source,
      entityId: `${record.source}:${record.id}`,
      name: record.name,
      programs: record.programs,
    };
    if (record.listingDate) listing.listingDate = record.listingDate;
    return listing;
  }

  /** A reported match: the row as listed and its explanation. Source ids only: the caller adds display labels. */
  private toMatch(s: ScoredRow): Match {
    const record = this.records[s.record]!;
    const country =
      record.nationalities[0] ??
      record.citizenships[0] ??
      record.addresses.find((a) => a.country ?? a.countryName)?.country ??
      record.addresses.find((a) => a.countryName)?.countryName;
    const match: Match = {
      dataset: record.source,
      matchScore: s.score,
      entity: {
        id: `${record.source}:${record.id}`,
        name: record.name,
        entityType: record.entityType,
        programs: record.programs,
      },
      explanation: explainMatch(s.entry, s.cmp, s.distinctiveness, s.fields),
    };
    if (country) match.entity.country = country;
    if (record.listingDate) match.entity.listingDate = record.listingDate;
    if (record.reason) match.entity.reason = record.reason;
    if (record.derivation) match.entity.derivation = record.derivation;
    return match;
  }
}
