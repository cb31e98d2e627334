/**
 * Text as the publishers write it: blanks and placeholders, enumerations, values joined from parts.
 */

/**
 * What publishers print for "no value": OFAC's `-0-`, the spreadsheets' NA, n/a, none, "-", null,
 * unknown, and MOF's 不明 (unknown), なし (none) and the lone long dashes of its Japanese cells.
 */
const PLACEHOLDER = /^(-0-|n\/?a|none|-+|null|unknown|不明|なし|－|ー)$/i;

/** Collapses whitespace; undefined for blank text. For fields of codes, where NA is Namibia. */
export function squash(value: string | undefined | null): string | undefined {
  if (value === undefined || value === null) return undefined;
  const trimmed = String(value).trim();
  // Most values hold single spaces only; they are returned without a copy.
  return (/\s\s|[^\S ]/.test(trimmed) ? trimmed.replace(/\s+/g, ' ') : trimmed) || undefined;
}

/** Collapses whitespace; undefined for blank text and for the publishers' placeholders. */
export function clean(value: string | undefined | null): string | undefined {
  const squashed = squash(value);
  return squashed === undefined || PLACEHOLDER.test(squashed) ? undefined : squashed;
}

/** The parts that are not blank, cleaned and joined; '' when none is left. */
export function joinParts(parts: (string | undefined | null)[], separator = ' '): string {
  return parts
    .map((p) => clean(p))
    .filter((p): p is string => !!p)
    .join(separator);
}

/** Adds the cleaned value unless it is blank or already present. */
export function addUnique(list: string[], value: string | undefined | null): void {
  const cleaned = clean(value);
  if (cleaned !== undefined && !list.includes(cleaned)) list.push(cleaned);
}

/**
 * Splits a publisher's enumerations: "a) x b) y", "(a) x (b) y", "1) x 2) y", "(1) x (2) y". A
 * marker in brackets may be glued to the item before it ("Mahmoud(b)AL-ZAHAR", "アミン(b)アミン"),
 * and Japanese quotation brackets end an item ("a)「...」b)「...」"). Text without markers comes
 * back as one item.
 */
export function splitEnumerated(text: string): string[] {
  const trimmed = text.trim();
  const marker = /(^|[\s,;、「」]|(?=\())\(?([a-z]|\d{1,2})\)\s*/g;
  const found: { start: number; end: number; label: string }[] = [];
  let match: RegExpExecArray | null;
  while ((match = marker.exec(trimmed))) {
    found.push({ start: match.index + match[1]!.length, end: match.index + match[0].length, label: match[2]! });
  }
  // Accept only a sequence that starts at a/1 and counts up, so "Road 3) " stays text.
  const seq: typeof found = [];
  for (const marked of found) {
    const prev = seq[seq.length - 1];
    const ok = prev
      ? /^\d+$/.test(prev.label)
        ? marked.label === String(Number(prev.label) + 1)
        : marked.label.length === 1 && marked.label.charCodeAt(0) === prev.label.charCodeAt(0) + 1
      : marked.label === 'a' || marked.label === '1';
    if (ok) seq.push(marked);
  }
  if (seq.length === 0) return trimmed ? [trimmed] : [];
  const out: string[] = [];
  const before = trimmed.slice(0, seq[0]!.start).replace(/[\s,;、:」]+$/, '');
  if (before) out.push(before);
  for (let i = 0; i < seq.length; i++) {
    const piece = trimmed.slice(seq[i]!.end, seq[i + 1]?.start);
    const cleaned = piece.replace(/^[\s,;、「]+|[\s,;、」]+$/g, '');
    if (cleaned) out.push(cleaned);
  }
  return out;
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
