import { escape } from 'html-escaper';
import { SOURCE_LABELS, type SourceId } from '../lists/index.js';
import type { SelfScreenMiss } from './figures.js';
import type { SummaryRow, ValidationReport } from './report.js';

/**
 * report.html: the report for a reader (an examiner, an auditor) on screen or on paper. Rendered from
 * the report document alone, with no script and no outside resource, so it opens anywhere and prints
 * as it shows. report.json holds the same figures and the signature.
 */

/** Names of missed listings shown in the HTML; report.json lists every one. */
const NOT_TOP_SHOWN = 300;

const esc = (value: unknown): string => escape(String(value));

const pct = (n: number, d: number): string => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(2)}%`);

const num = (n: number): string => n.toLocaleString('en-US');

function value(row: Pick<SummaryRow, 'value' | 'unit'>, v = row.value): string {
  if (row.unit === '%') return `${v.toFixed(2)}%`;
  if (row.unit === 'ms') return `${v.toFixed(2)} ms`;
  return num(v);
}

function table(head: string[], rows: string[][], cls = ''): string {
  if (rows.length === 0) return '<p class="none">None.</p>';
  return `<table${cls ? ` class="${cls}"` : ''}><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

function sourceName(id: string): string {
  return SOURCE_LABELS[id as SourceId] ?? id;
}

function missRows(misses: SelfScreenMiss[]): string[][] {
  return misses.map((m) => [
    `<code class="id">${esc(m.entityId)}</code>`,
    esc(m.entityType),
    esc(m.name),
    esc(m.quality === 'weak' ? `${m.nameKind} (weak)` : m.nameKind),
    m.ownScore === null ? 'not found' : esc(m.ownScore),
    m.topId === null ? '-' : `<code class="id">${esc(m.topId)}</code> (${esc(m.topScore)})`,
  ]);
}

const CSS = `
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK JP", "Noto Sans Arabic", "Noto Sans Devanagari", sans-serif; color: #1b1f24; margin: 0; background: #fff; }
main { max-width: 1000px; margin: 0 auto; padding: 28px 32px 48px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 2px solid #d0d7de; }
h3 { font-size: 15px; margin: 20px 0 6px; }
p { margin: 6px 0; }
.sub { color: #57606a; margin: 0 0 16px; }
.verdict { display: inline-block; padding: 4px 12px; border-radius: 4px; font-weight: 600; margin: 8px 0; }
.verdict.pass { background: #dafbe1; color: #116329; border: 1px solid #4ac26b; }
.verdict.fail { background: #ffebe9; color: #a40e26; border: 1px solid #ff8182; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; font-size: 13px; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid #d8dee4; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.summary td:nth-child(n+2) { font-variant-numeric: tabular-nums; white-space: nowrap; }
.met { color: #116329; font-weight: 600; }
.notmet { color: #a40e26; font-weight: 600; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
td code { white-space: nowrap; }
dl.context { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0; }
dl.context dt { color: #57606a; }
dl.context dd { margin: 0; }
.none { color: #57606a; font-style: italic; }
.note { color: #57606a; font-size: 13px; }
footer { margin-top: 36px; padding-top: 10px; border-top: 1px solid #d0d7de; color: #57606a; font-size: 12px; }
@media print {
  body { font-size: 11px; }
  main { max-width: none; padding: 0; }
  h2 { break-after: avoid; }
  tr { break-inside: avoid; }
  table { font-size: 10px; }
  @page { size: A4; margin: 16mm 14mm; }
}
`;

function recallTable(rows: ValidationReport['selfScreen']['bySource'], label: (k: string) => string): string {
  return table(
    ['', 'Names', 'Found at medium+', 'Top party'],
    rows.map((r) => [
      esc(label(r.key)),
      num(r.names),
      `${pct(r.found, r.names)} (${num(r.found)})`,
      `${pct(r.top, r.names)} (${num(r.top)})`,
    ]),
  );
}

function contextSection(report: ValidationReport): string {
  const context = report.context;
  const lists = table(
    ['Source', 'Version', 'Published', 'Records'],
    context.lists.map((l) => [
      esc(sourceName(l.source)),
      `<code>${esc(l.version)}</code>`,
      esc(l.publishedAt ?? '-'),
      num(l.records),
    ]),
  );
  return `<h2>Context</h2>
<dl class="context">
<dt>Organization</dt><dd>${report.organization ? `${esc(report.organization.name)} (<code>${esc(report.organization.slug)}</code>)` : 'the deployment (command line)'}</dd>
<dt>Engine version</dt><dd><code>${esc(context.engineVersion)}</code></dd>
<dt>Screening profile</dt><dd>${esc(context.profile.id)}${context.profile.version ? ` (version ${context.profile.version})` : ' (built in)'}</dd>
<dt>Seed</dt><dd>${esc(context.seed)} (the same seed draws the same samples)</dd>
<dt>Sizes</dt><dd>${Object.entries(context.sizes)
    .map(([k, v]) => `${esc(k)} ${esc(typeof v === 'number' ? num(v) : v)}`)
    .join(', ')}</dd>
<dt>Started</dt><dd>${esc(context.startedAt)}</dd>
<dt>Finished</dt><dd>${esc(context.finishedAt)} (${esc((context.durationMs / 1000).toFixed(1))} s)</dd>
<dt>Machine</dt><dd>${esc(context.machine.hostname)}: ${esc(context.machine.cpus)} CPUs (${esc(context.machine.cpuModel)}), ${esc(context.machine.memoryGiB)} GiB, ${esc(context.machine.platform)}, Node ${esc(context.machine.node)}</dd>
</dl>
<h3>Lists in force</h3>
${lists}`;
}

function selfScreenSection(s: ValidationReport['selfScreen']): string {
  const notTopShown = s.notTop.slice(0, NOT_TOP_SHOWN);
  return `<h2>1. Self-screen</h2>
<p>${num(s.names)} listed names (primary names and aliases) each screened as a query with the listing's entity type: ${pct(s.found, s.names)} found their own listing at medium or above, ${pct(s.top, s.names)} as the top party.</p>
<h3>Per source</h3>
${recallTable(s.bySource, sourceName)}
<h3>Per entity type</h3>
${recallTable(s.byType, (k) => k)}
<h3>Strong names and weak aliases</h3>
${recallTable(s.byQuality, (k) => (k === 'weak' ? 'weak aliases (the publisher\'s "low quality" a.k.a.)' : 'strong names (primary names and aliases)'))}
<h3>Misses: names that did not find their own listing at medium (${num(s.misses.length)}, every one)</h3>
${table(['Listing', 'Type', 'Name screened', 'Name kind', 'Own score', 'Top match (score)'], missRows(s.misses))}
<h3>Found, but another party scored higher (${num(s.notTop.length)}${s.notTop.length > NOT_TOP_SHOWN ? `; the first ${NOT_TOP_SHOWN} shown, every one in report.json` : ''})</h3>
${table(['Listing', 'Type', 'Name screened', 'Name kind', 'Own score', 'Top match (score)'], missRows(notTopShown))}`;
}

function perturbationSection(report: ValidationReport): string {
  return `<h2>2. Perturbation recall</h2>
<p>A seeded sample of listed names written in Latin letters, each changed one way, screened by name alone; recall is the share whose own listing scores at medium or above, and at high.</p>
${table(
  ['Kind', 'Names', 'Recall at medium', 'Recall at high'],
  report.perturbations.map((k) => [esc(k.kind), num(k.n), pct(k.medium, k.n), pct(k.high, k.n)]),
)}
${report.perturbations
  .filter((k) => k.misses.length > 0)
  .map(
    (k) =>
      `<h3>Missed at medium: ${esc(k.kind)} (${num(k.n - k.medium)}${k.n - k.medium > k.misses.length ? `, the first ${k.misses.length}` : ''})</h3>${table(
        ['Query', 'Listed name', 'Listing', 'Own score'],
        k.misses.map((m) => [
          esc(m.query),
          esc(m.listed),
          `<code>${esc(m.entityId)}</code>`,
          m.ownScore === null ? 'not found' : esc(m.ownScore),
        ]),
      )}`,
  )
  .join('\n')}`;
}

function negativesSection(report: ValidationReport): string {
  const context = report.context;
  const negatives = report.negatives;
  return `<h2>3. Below the line: false alerts on people who are not listed</h2>
<p>${num(negatives.size)} person names of ${num(negatives.locales)} languages, written in their own scripts, generated from seed ${esc(context.seed)}; each screened by name alone, and with a birth date and entity type person. A true namesake (the query is, folded, the listed name that matched) is an alert a bank would also raise; they are counted in the rates and shown apart.</p>
${table(
  [
    'Script',
    'Names',
    'Medium+ (name only)',
    'High (name only)',
    'Medium+ (with birth date)',
    'High (with birth date)',
    'Namesakes',
  ],
  [...negatives.byScript, { ...negatives.total, script: 'all' as const }].map((t) => [
    esc(t.script),
    num(t.n),
    pct(t.medium, t.n),
    pct(t.high, t.n),
    pct(t.mediumWithBirthDate, t.n),
    pct(t.highWithBirthDate, t.n),
    num(t.namesakes),
  ]),
)}
<h3>Highest-scoring alerts (name only)</h3>
${table(
  ['Name', 'Language', 'Score', 'Matched listing', 'Namesake'],
  negatives.alerts.map((a) => [
    esc(a.name),
    esc(a.locale),
    esc(a.score),
    `<code>${esc(a.matchedId)}</code> ${esc(a.matchedName)}`,
    a.namesake ? 'yes' : 'no',
  ]),
)}`;
}

function identifiersSection(report: ValidationReport): string {
  const ids = report.identifiers;
  return `<h2>4. Identifiers</h2>
<p>Every identifier the lists print in a type a screening accepts (passport, IMO, LEI, BIC, wallet...), screened under an unrelated name: ${pct(ids.listed.found, ids.listed.tried)} (${num(ids.listed.found)} of ${num(ids.listed.tried)}) found their listing as the top match; ${num(ids.listed.refused)} printed values fail the service's own checks and cannot be screened.</p>
${table(
  ['Listing', 'Type', 'Value', 'Top match'],
  ids.listed.misses.map((m) => [
    `<code>${esc(m.entityId)}</code>`,
    esc(m.type),
    `<code>${esc(m.value)}</code>`,
    m.topId ? `<code>${esc(m.topId)}</code>` : 'nothing',
  ]),
)}
<p>${num(ids.random.tried)} random identifiers with valid check digits that no list holds (IMO, LEI, BIC, MMSI): ${num(ids.random.hits)} matched a listing.</p>
${
  ids.random.examples.length > 0
    ? table(
        ['Type', 'Value', 'Matched'],
        ids.random.examples.map((x) => [
          esc(x.type),
          `<code>${esc(x.value)}</code>`,
          `<code>${esc(x.matchedId)}</code>`,
        ]),
      )
    : ''
}`;
}

export function renderReportHtml(report: ValidationReport, keyId?: string): string {
  const context = report.context;
  const title = `Screening validation report${report.organization ? ` — ${report.organization.name}` : ''}`;
  const summary = table(
    ['Measure', 'Result', 'Threshold', ''],
    report.summary.map((r) => [
      esc(r.label),
      esc(value(r)),
      `${r.bound === 'min' ? '≥' : '≤'} ${esc(value(r, r.threshold))}`,
      r.met ? '<span class="met">met</span>' : '<span class="notmet">NOT met</span>',
    ]),
    'summary',
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<h1>${esc(title)}</h1>
<p class="sub">Run <code>${esc(report.runId)}</code>, ${esc(context.quick ? 'quick run (samples)' : 'full run')}, finished ${esc(context.finishedAt)}</p>
<div class="verdict ${report.passed ? 'pass' : 'fail'}">${report.passed ? 'Every threshold met' : `${report.summary.filter((r) => !r.met).length} of ${report.summary.length} thresholds NOT met`}</div>

<h2>Summary</h2>
${summary}
<p class="note">A listed name is found when its own listing scores at or above ${esc(context.cutoffs.medium)} (medium), and its listing is the top party when a match at the top score is this listing or the same party on another list (ties count). High is ${esc(context.cutoffs.high)} or above.</p>

${contextSection(report)}

${selfScreenSection(report.selfScreen)}

${perturbationSection(report)}

${negativesSection(report)}

${identifiersSection(report)}

<h2>5. Latency</h2>
<p>${num(report.latency.samples)} screenings one at a time on this machine: median ${esc(report.latency.p50Ms.toFixed(2))} ms, 99th percentile ${esc(report.latency.p99Ms.toFixed(2))} ms, mean ${esc(report.latency.meanMs.toFixed(2))} ms.</p>

<footer>
<p>Format ${esc(report.format)}. The figures of this page are in report.json, signed with Ed25519${keyId ? ` by key <code>${esc(keyId)}</code>` : ''}; report.json also holds the SHA-256 of this page. Check both with <code>sanctions validate verify report.json</code>.</p>
</footer>
</main>
</body>
</html>
`;
}
