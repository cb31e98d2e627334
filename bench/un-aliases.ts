/**
 * Changes to the real UN consolidated list for the list-update benchmarks: the same file with
 * aliases added to chosen listings, as a publisher would when it amends a designation.
 */

/** The UN file with `aliases` (DATAID -> alias) added to those listings. */
export function withAliases(text: string, aliases: Map<string, string>): string {
  let out = text;
  for (const [dataId, alias] of aliases) {
    const next = out.replace(
      new RegExp(`(<DATAID>${dataId}</DATAID>[\\s\\S]*?)(<(INDIVIDUAL|ENTITY)_ALIAS>)`),
      `$1<$3_ALIAS><QUALITY>Good</QUALITY><ALIAS_NAME>${alias}</ALIAS_NAME></$3_ALIAS>$2`,
    );
    if (next === out) throw new Error(`no alias block after DATAID ${dataId}`);
    out = next;
  }
  return out;
}

/** The DATAIDs of the file's listings, in file order. */
export function dataIdsOf(text: string): string[] {
  return [...text.matchAll(/<DATAID>(\d+)<\/DATAID>/g)].map((m) => m[1] as string);
}

/**
 * The 100 listings the benchmarks change at once (the same in every benchmark), each with an alias;
 * `tag` makes the aliases of one run differ from another's on the same database.
 */
export function hundredAliases(dataIds: string[], tag = ''): Map<string, string> {
  return new Map(dataIds.slice(200, 300).map((id, i) => [id, `Bench Alias Ninety ${i}${tag}`]));
}
