/**
 * `IN (...)` lists are sent in chunks: each value is one bound parameter, and SQLite builds before
 * 3.32 allow 999 of them per statement (PostgreSQL 65,535), so 500 leaves room for the statement's
 * other parameters on either engine.
 */
export const IN_LIST_CHUNK = 500;

/** The values in consecutive slices of at most `size`. */
export function* chunksOf<T>(values: readonly T[], size = IN_LIST_CHUNK): Generator<T[]> {
  for (let i = 0; i < values.length; i += size) yield values.slice(i, i + size);
}
