/**
 * What a pure function of a text gave, remembered by text: the words of names come back query after
 * query (listed parts, particles, joined words), and their folds and readings cost more than a lookup.
 */

/** Texts remembered by one function before its memory is cleared and begins again. */
const BOUND = 100_000;

/**
 * `compute`, remembered by text; the memory is cleared when it holds `bound` texts, so it stays
 * bounded whatever the queries. `compute` must be pure and never give undefined.
 */
export function remembering<T extends NonNullable<unknown> | null>(
  compute: (text: string) => T,
  bound = BOUND,
): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    let value = known.get(text);
    if (value === undefined) {
      if (known.size >= bound) known.clear();
      value = compute(text);
      known.set(text, value);
    }
    return value;
  };
}
