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
  const t = String(value).trim();
  // Most values hold single spaces only; they are returned without a copy.
  return (/\s\s|[^\S ]/.test(t) ? t.replace(/\s+/g, ' ') : t) || undefined;
}

/** Collapses whitespace; undefined for blank text and for the publishers' placeholders. */
export function clean(value: string | undefined | null): string | undefined {
  const t = squash(value);
  return t === undefined || PLACEHOLDER.test(t) ? undefined : t;
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
  const v = clean(value);
  if (v !== undefined && !list.includes(v)) list.push(v);
}

/**
 * Splits a publisher's enumerations: "a) x b) y", "(a) x (b) y", "1) x 2) y", "(1) x (2) y". A
 * marker in brackets may be glued to the item before it ("Mahmoud(b)AL-ZAHAR", "アミン(b)アミン"),
 * and Japanese quotation brackets end an item ("a)「...」b)「...」"). Text without markers comes
 * back as one item.
 */
export function splitEnumerated(text: string): string[] {
  const t = text.trim();
  const marker = /(^|[\s,;、「」]|(?=\())\(?([a-z]|\d{1,2})\)\s*/g;
  const found: { start: number; end: number; label: string }[] = [];
  let m: RegExpExecArray | null;
  while ((m = marker.exec(t))) {
    found.push({ start: m.index + m[1]!.length, end: m.index + m[0].length, label: m[2]! });
  }
  // Accept only a sequence that starts at a/1 and counts up, so "Road 3) " stays text.
  const seq: typeof found = [];
  for (const p of found) {
    const prev = seq[seq.length - 1];
    const ok = prev
      ? /^\d+$/.test(prev.label)
        ? p.label === String(Number(prev.label) + 1)
        : p.label.length === 1 && p.label.charCodeAt(0) === prev.label.charCodeAt(0) + 1
      : p.label === 'a' || p.label === '1';
    if (ok) seq.push(p);
  }
  if (seq.length === 0) return t ? [t] : [];
  const out: string[] = [];
  const before = t.slice(0, seq[0]!.start).replace(/[\s,;、:」]+$/, '');
  if (before) out.push(before);
  for (let i = 0; i < seq.length; i++) {
    const piece = t.slice(seq[i]!.end, seq[i + 1]?.start);
    const c = piece.replace(/^[\s,;、「]+|[\s,;、」]+$/g, '');
    if (c) out.push(c);
  }
  return out;
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
