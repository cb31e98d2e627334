/** Reads a JSON text column that holds an array; anything else (or unreadable text) is an empty array. */
export function parseJsonArray<T = unknown>(text: string | null | undefined): T[] {
  if (!text) return [];
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

/** A JSON array column of strings (source ids, labels). */
export function parseStringArray(text: string | null | undefined): string[] {
  return parseJsonArray(text).map(String);
}
