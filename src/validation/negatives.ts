import { NAME_TABLES, type NameTable } from './name-tables.js';
import { rng } from './seeded.js';

/**
 * The "below the line" population of a validation run: person names that are meant to be nobody
 * listed, drawn from small tables of common given and family names of many languages, written in
 * their own scripts and in their own order (family name first in Chinese, Japanese and Korean, no
 * space in Chinese and Korean). The tables are common names of each language (from public name
 * statistics and dictionaries), a few dozen a language: enough to make tens of thousands of distinct
 * full names, small enough to read (name-tables.ts). A seed draws the same population on every machine.
 */

export interface NegativeName {
  locale: string;
  name: string;
  birthDate: string;
}

function fullName(table: NameTable, given: string, family: string): string {
  if (table.order === 'family-given-joined') return family + given;
  if (table.order === 'family-given') return `${family} ${given}`;
  return `${given} ${family}`;
}

/**
 * `size` names, an equal share per locale (the remainder to the first locales), each with a birth
 * date between 1935 and 2004; the same seed gives the same names. A locale's names are drawn with
 * replacement: a small table repeats full names in a large population, as real populations do.
 */
export function negativeNames(size: number, seed: number, tables: readonly NameTable[] = NAME_TABLES): NegativeName[] {
  return [...negativeNameSteps(size, seed, tables)];
}

/** negativeNames one name a step (the same names in the same order). */
export function* negativeNameSteps(
  size: number,
  seed: number,
  tables: readonly NameTable[] = NAME_TABLES,
): Generator<NegativeName> {
  const rand = rng(seed ^ 0x5eed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  for (const [tableAt, table] of tables.entries()) {
    const share = Math.floor(size / tables.length) + (tableAt < size % tables.length ? 1 : 0);
    for (let k = 0; k < share; k++) {
      const name = fullName(table, pick(table.given), pick(table.family));
      const year = 1935 + Math.floor(rand() * 70);
      const month = 1 + Math.floor(rand() * 12);
      const day = 1 + Math.floor(rand() * 28);
      yield {
        locale: table.locale,
        name,
        birthDate: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      };
    }
  }
}
