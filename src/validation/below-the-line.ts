import type { MatchOptions } from '../matching/index.js';
import type { EngineAnswer } from './engine.js';
import type { Cutoffs, NegativeFigures, ScriptFigures, ValidationDeps } from './figures.js';
import { negativeNameSteps } from './negatives.js';
import { screenEach } from './run-queries.js';
import { SCRIPTS, type Script, foldedWords, scriptOf } from './scripts.js';
import { collectInTurns } from './seeded.js';

/**
 * Below the line: how many innocent people, written in their own scripts, raise an alert? A seeded
 * multicultural population screened by name alone, and with a birth date and entity type.
 */

/** Alerts shown in the report: the highest-scoring ones. */
const ALERTS_SHOWN = 30;

const tally = (script: Script): ScriptFigures => ({
  script,
  n: 0,
  medium: 0,
  high: 0,
  mediumWithBirthDate: 0,
  highWithBirthDate: 0,
  namesakes: 0,
});

interface Answered {
  bare: EngineAnswer;
  full: EngineAnswer;
  script: Script;
  namesake: boolean;
}

export async function belowTheLine(
  size: number,
  run: { seed: number; deps: ValidationDeps; options: MatchOptions; cutoffs: Cutoffs },
): Promise<NegativeFigures> {
  const { cutoffs } = run;
  const negatives = await collectInTurns(negativeNameSteps(size, run.seed), run.deps.pace);
  // Each answer is read as it comes (its script, whether its leader is a namesake): folding every
  // name after the last answer held the HTTP thread for 40 ms.
  const answers = await screenEach(
    negatives,
    async (person): Promise<Answered> => {
      const bare = await run.deps.engine({ name: person.name }, run.options);
      const full = await run.deps.engine(
        { name: person.name, birthDate: person.birthDate, entityType: 'person' },
        run.options,
      );
      const leader = bare.matches[0];
      const namesake = leader !== undefined && foldedWords(person.name) === foldedWords(leader.matchedName);
      return { bare, full, script: scriptOf(person.name), namesake };
    },
    run.deps,
    'negatives',
  );
  const perScript = new Map<Script, ScriptFigures>(SCRIPTS.map((s) => [s, tally(s)]));
  const total = tally('other');
  const alerts: NegativeFigures['alerts'] = [];
  negatives.forEach((person, at) => {
    const { bare, full, script, namesake } = answers[at]!;
    const leader = bare.matches[0];
    for (const counted of [perScript.get(script)!, total]) {
      counted.n++;
      if (bare.riskScore >= cutoffs.medium) counted.medium++;
      if (bare.riskScore >= cutoffs.high) counted.high++;
      if (full.riskScore >= cutoffs.medium) counted.mediumWithBirthDate++;
      if (full.riskScore >= cutoffs.high) counted.highWithBirthDate++;
      if (bare.riskScore >= cutoffs.medium && namesake) counted.namesakes++;
    }
    if (bare.riskScore >= cutoffs.medium && leader)
      alerts.push({
        locale: person.locale,
        name: person.name,
        score: bare.riskScore,
        matchedId: leader.id,
        matchedName: leader.matchedName,
        namesake,
      });
  });
  alerts.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
  return {
    size: negatives.length,
    locales: new Set(negatives.map((person) => person.locale)).size,
    byScript: [...perScript.values()].filter((s) => s.n > 0),
    total: { ...total, script: 'other' },
    alerts: alerts.slice(0, ALERTS_SHOWN),
  };
}
