export interface Output {
  json: boolean;
}

/** Prints one JSON document with --json, else the human-readable text. */
export function printResult(output: Output, value: unknown, text: () => string): void {
  if (output.json) console.log(JSON.stringify(value, null, 2));
  else console.log(text());
}

/** A plain text table: columns padded to their widest cell. */
export function table(headers: string[], rows: (string | number | null | undefined)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => (c === null || c === undefined ? '-' : String(c))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(cells[0] as string[]), line(widths.map((w) => '-'.repeat(w))), ...cells.slice(1).map(line)].join('\n');
}

/** Parses a whole number option, or throws a usage-style error naming it. */
export function parseWhole(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new Error(`${name} must be a whole number, got "${value}"`);
    return Number(value);
  };
}
