import { escape } from 'html-escaper';

/**
 * HTML templates as tagged template literals: every interpolated value is escaped (html-escaper:
 * & < > ' ") unless it is already an `Html` made by this module. Attribute values must be quoted in
 * the templates; nothing here builds tag or attribute names from data, and URLs interpolated into
 * href are made by the pages from ids and fixed paths.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return (part as readonly Part[]).map(render).join('');
  return escape(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

/** Text known to be safe markup (only for constants of this folder). */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/** A query string from parameters, leaving out empty ones. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}
