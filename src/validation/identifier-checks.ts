import type { ListRecord } from '../lists/index.js';
import { isRequestCountryCode, isScreeningIdentifierType } from '../identifiers/index.js';
import type { MatchOptions, QueryIdentifier } from '../matching/index.js';
import { validateIdentifiers } from '../screening/index.js';
import type { IdentifierFigures, RunSizes, ValidationDeps } from './figures.js';
import { identifierMakers } from './identifier-draws.js';
import { ownMatch, sample, screenEach, topScore } from './run-queries.js';
import { collectInTurns, rng } from './seeded.js';

/** Identifiers: is every printed identifier found, and no random valid one? */

/** A name no list holds anything like: the identifier checks screen numbers under it. */
const UNRELATED = 'Qwxzy Vbnmkj';
/** Random identifiers that matched, shown in the report. */
const EXAMPLES_SHOWN = 20;

interface ListedIdentifier {
  entityId: string;
  type: string;
  value: string;
  query: QueryIdentifier[];
}

/** A listed identifier as a screening request would give it, or undefined when the API refuses it. */
function asQuery(id: ListRecord['identifiers'][number], kind: string): QueryIdentifier[] | undefined {
  try {
    const checked = validateIdentifiers(
      [
        {
          type: kind,
          value: id.value,
          ...(id.country && isRequestCountryCode(id.country) ? { country: id.country } : {}),
          ...(id.currency ? { currency: id.currency } : {}),
        },
      ],
      null,
    );
    return checked.map((c) => ({
      type: c.type,
      value: c.value,
      ...(c.country ? { country: c.country } : {}),
      ...(c.currency ? { currency: c.currency } : {}),
    }));
  } catch {
    return undefined;
  }
}

/** What the records print, read as a screening would take it (listedIdentifiers). */
interface ListedReading {
  listed: ListedIdentifier[];
  /** Every printed identifier's key, `type:normalized`, valid or not. */
  held: ReadonlySet<string>;
  /** Printed identifiers a screening request would refuse. */
  refused: number;
}

const readings = new WeakMap<readonly ListRecord[], ListedReading>();

/**
 * The records' identifiers as a screening takes them, read once per array of records: runs on the
 * same lists share the reading (checking every listed identifier as a request would made 30 MB of
 * young objects a run on the HTTP thread). Nothing that reads it changes it.
 */
async function listedIdentifiers(records: readonly ListRecord[], pace?: () => Promise<void>): Promise<ListedReading> {
  const kept = readings.get(records);
  if (kept) return kept;
  const held = new Set<string>();
  const refused = { count: 0 };
  const listed = await collectInTurns(listedIdentifierSteps(records, held, refused), pace);
  const reading = { listed, held, refused: refused.count };
  readings.set(records, reading);
  return reading;
}

/**
 * Every identifier the records print in a type a screening takes, as steps (collectInTurns: checking
 * every listed identifier as a request would, 130,000 records, took 300 ms of the HTTP thread); the
 * keys of all of them (`type:normalized`) are added to `held`.
 */
function* listedIdentifierSteps(
  records: readonly ListRecord[],
  held: Set<string>,
  refused: { count: number },
): Generator<ListedIdentifier | null> {
  for (const record of records) {
    for (const id of record.identifiers) {
      const kind = id.kind;
      if (!kind || !isScreeningIdentifierType(kind) || !id.normalized) continue;
      held.add(`${kind}:${id.normalized}`);
      if (id.valid === false) continue;
      const query = asQuery(id, kind);
      if (query) yield { entityId: `${record.source}:${record.id}`, type: kind, value: id.value, query };
      else refused.count++;
    }
    yield null;
  }
}

/** Random identifiers with valid check digits that no list holds, `perType` of each type, as steps. */
function* unheldSteps(seed: number, perType: number, held: ReadonlySet<string>): Generator<QueryIdentifier | null> {
  for (const { type, make } of identifierMakers(rng(seed ^ 0x1d))) {
    for (let kept = 0, tries = 0; kept < perType && tries < perType * 20; tries++) {
      const value = make();
      try {
        const [checked] = validateIdentifiers([{ type, value }], null);
        if (!checked || held.has(`${type}:${checked.normalized}`)) {
          yield null;
          continue;
        }
        yield { type, value: checked.value };
        kept++;
      } catch {
        // a draw its check refuses is drawn again
        yield null;
      }
    }
  }
}

export async function identifierChecks(
  records: readonly ListRecord[],
  run: { seed: number; rand: () => number; sizes: RunSizes; deps: ValidationDeps; options: MatchOptions },
): Promise<IdentifierFigures> {
  const { listed, held, refused } = await listedIdentifiers(records, run.deps.pace);
  const figures: IdentifierFigures = {
    listed: { tried: 0, found: 0, refused, misses: [] },
    random: { tried: 0, hits: 0, examples: [] },
  };
  const tried = sample(listed, run.sizes.listedIdentifiers, run.rand);
  const answers = await screenEach(
    tried,
    (l) => run.deps.engine({ name: UNRELATED, identifiers: l.query }, run.options),
    run.deps,
    'identifiers',
  );
  tried.forEach((l, at) => {
    const answer = answers[at]!;
    const own = ownMatch(answer, l.entityId);
    figures.listed.tried++;
    if (own && own.score >= (topScore(answer) ?? 0)) figures.listed.found++;
    else
      figures.listed.misses.push({
        entityId: l.entityId,
        type: l.type,
        value: l.value,
        topId: answer.matches[0]?.id ?? null,
      });
  });
  const drawn = await collectInTurns(unheldSteps(run.seed, run.sizes.randomIdentifiersPerType, held), run.deps.pace);
  const hits = await screenEach(
    drawn,
    async (id) =>
      (await run.deps.engine({ name: UNRELATED, identifiers: [id] }, { ...run.options, floor: 0 })).matches.filter(
        (m) => m.byIdentifier,
      ),
    run.deps,
    'identifiers',
  );
  drawn.forEach((id, at) => {
    figures.random.tried++;
    figures.random.hits += hits[at]!.length;
    for (const hit of hits[at]!)
      if (figures.random.examples.length < EXAMPLES_SHOWN)
        figures.random.examples.push({ type: id.type, value: id.value, matchedId: hit.id });
  });
  return figures;
}
