/**
 * Test-only, deliberately naive XLSX reading (unzip -p and regular expressions), so record counts
 * are checked against something that shares no code with the adapters' streaming reader.
 */
import { execFileSync } from 'node:child_process';

export function hasUnzip(): boolean {
  try {
    execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function unzipText(file: string, entry: string): string {
  return execFileSync('unzip', ['-p', file, entry], { maxBuffer: 256 * 1024 * 1024 }).toString('utf8');
}

function decode(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Shared strings with phonetic runs removed and rich-text runs joined. */
export function sharedStrings(file: string): string[] {
  const xml = unzipText(file, 'xl/sharedStrings.xml');
  return [...xml.matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
    decode(
      m[1]!
        .replace(/<rPh[\s\S]*?<\/rPh>/g, '')
        .replace(/<t[^>]*>([\s\S]*?)<\/t>/g, '$1')
        .replace(/<[^>]+>/g, ''),
    ),
  );
}

/** Rows of one sheet part as { row number → { column letters → text } }. */
export function sheetRows(file: string, part: string, strings: string[]): Map<number, Map<string, string>> {
  const xml = unzipText(file, part);
  const rows = new Map<number, Map<string, string>>();
  for (const c of xml.matchAll(/<c r="([A-Z]+)(\d+)"([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
    const [, col, row, attrs, body] = c as unknown as [string, string, string, string, string | undefined];
    if (!body) continue;
    const v = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
    let text: string;
    if (/t="s"/.test(attrs)) text = strings[Number(v)] ?? '';
    else if (/t="inlineStr"/.test(attrs))
      text = decode(body.replace(/<rPh[\s\S]*?<\/rPh>/g, '').replace(/<[^>]+>/g, ''));
    else text = decode(v ?? '');
    if (!rows.has(Number(row))) rows.set(Number(row), new Map());
    rows.get(Number(row))!.set(col, text);
  }
  return rows;
}

/** Sheet names in workbook order with their part paths. */
export function sheetParts(file: string): { name: string; part: string }[] {
  const wb = unzipText(file, 'xl/workbook.xml');
  const rels = unzipText(file, 'xl/_rels/workbook.xml.rels');
  const target = new Map(
    [...rels.matchAll(/<Relationship [^>]*Id="([^"]+)"[^>]*Target="([^"]+)"/g)].map((m) => [m[1]!, m[2]!]),
  );
  return [...wb.matchAll(/<sheet [^>]*name="([^"]*)"[^>]*r:id="([^"]+)"/g)].map((m) => ({
    name: decode(m[1]!),
    part: `xl/${target.get(m[2]!)!.replace(/^\/?xl\//, '')}`,
  }));
}
