import { createHash, type KeyObject } from 'node:crypto';
import type { LoadedVersion } from '../lists/index.js';
import type { ValidationFigures } from './figures.js';
import { type Signature, publicKeyOf, signDocument, verifyDocument } from './signing.js';
import { THRESHOLDS, type ThresholdKey, type Thresholds } from './thresholds.js';

/**
 * The validation report: the run's figures, its context, and a summary of each figure against the
 * organization's thresholds; signed (Ed25519) over its canonical JSON. report.json is the document;
 * report.html is rendered from it (report-html.ts) and its SHA-256 is part of what is signed, so a
 * change to either file is seen by `sanctions validate verify`.
 */

export const REPORT_FORMAT = 'sanctions-validation-report/1';

export interface ReportContext {
  runId: string;
  organization: { slug: string; name: string } | null;
  lists: LoadedVersion[];
  engineVersion: string;
  /** The screening profile the run measured (`default`, version 0: the built-in one). */
  profile: { id: string; version: number };
  startedAt: string;
  finishedAt: string;
}

export interface SummaryRow {
  key: string;
  label: string;
  value: number;
  unit: '%' | 'ms' | 'count';
  threshold: number;
  bound: 'min' | 'max';
  met: boolean;
}

export interface ValidationReport {
  format: typeof REPORT_FORMAT;
  runId: string;
  organization: { slug: string; name: string } | null;
  generatedAt: string;
  context: {
    lists: LoadedVersion[];
    engineVersion: string;
    profile: { id: string; version: number };
    seed: number;
    quick: boolean;
    cutoffs: { medium: number; high: number };
    sizes: Record<string, number | 'all'>;
    machine: ValidationFigures['machine'];
    startedAt: string;
    finishedAt: string;
    durationMs: number;
  };
  thresholds: Thresholds;
  summary: SummaryRow[];
  /** Every threshold met. */
  passed: boolean;
  selfScreen: ValidationFigures['selfScreen'];
  perturbations: ValidationFigures['perturbations'];
  negatives: ValidationFigures['negatives'];
  identifiers: ValidationFigures['identifiers'];
  latency: ValidationFigures['latency'];
  /** SHA-256 (hex) of the files rendered from the report, by name. */
  files: Record<string, string>;
  signature?: Signature;
}

const pct = (n: number, d: number): number => (d === 0 ? 0 : Math.round((10000 * n) / d) / 100);

function judged(key: ThresholdKey, value: number, thresholds: Thresholds, label?: string): SummaryRow {
  const spec = THRESHOLDS.find((t) => t.key === key)!;
  const threshold = thresholds[key];
  return {
    key,
    label: label ?? spec.label,
    value,
    unit: spec.unit,
    threshold,
    bound: spec.bound,
    met: spec.bound === 'min' ? value >= threshold : value <= threshold,
  };
}

export function summarize(figures: ValidationFigures, thresholds: Thresholds): SummaryRow[] {
  const selfScreen = figures.selfScreen;
  const negatives = figures.negatives.total;
  const ids = figures.identifiers;
  const rows = [
    judged('selfScreenMedium', pct(selfScreen.found, selfScreen.names), thresholds),
    judged('selfScreenTop', pct(selfScreen.top, selfScreen.names), thresholds),
    ...figures.perturbations
      .filter((k) => k.n > 0)
      .map((k) => ({
        ...judged('perturbationMedium', pct(k.medium, k.n), thresholds, `Perturbation recall at medium: ${k.kind}`),
        key: `perturbationMedium:${k.kind}`,
      })),
  ];
  if (negatives.n > 0)
    rows.push(
      judged('falseAlertMedium', pct(negatives.medium, negatives.n), thresholds),
      judged('falseAlertHigh', pct(negatives.high, negatives.n), thresholds),
    );
  if (ids.listed.tried > 0) rows.push(judged('identifiersFound', pct(ids.listed.found, ids.listed.tried), thresholds));
  if (ids.random.tried > 0) rows.push(judged('randomIdentifierHits', ids.random.hits, thresholds));
  rows.push(judged('latencyP99', figures.latency.p99Ms, thresholds));
  if (selfScreen.focusEntities > 0)
    rows.push(
      judged(
        'newEntriesFound',
        pct(selfScreen.focusEntities - selfScreen.focusMissed.length, selfScreen.focusEntities),
        thresholds,
      ),
    );
  return rows;
}

/** The report document, unsigned and without its files' digests. */
export function buildReport(
  figures: ValidationFigures,
  context: ReportContext,
  thresholds: Thresholds,
): ValidationReport {
  const summary = summarize(figures, thresholds);
  return {
    format: REPORT_FORMAT,
    runId: context.runId,
    organization: context.organization,
    generatedAt: context.finishedAt,
    context: {
      lists: context.lists,
      engineVersion: context.engineVersion,
      profile: context.profile,
      seed: figures.seed,
      quick: figures.quick,
      cutoffs: figures.cutoffs,
      sizes: Object.fromEntries(Object.entries(figures.sizes).map(([k, v]) => [k, Number.isFinite(v) ? v : 'all'])),
      machine: figures.machine,
      startedAt: context.startedAt,
      finishedAt: context.finishedAt,
      durationMs: figures.durationMs,
    },
    thresholds,
    summary,
    passed: summary.every((r) => r.met),
    selfScreen: figures.selfScreen,
    perturbations: figures.perturbations,
    negatives: figures.negatives,
    identifiers: figures.identifiers,
    latency: figures.latency,
    files: {},
  };
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export interface SignedFiles {
  json: string;
  html: string;
  report: ValidationReport;
}

/**
 * Renders the HTML, records its digest in the report, signs the report; the two files' texts.
 * `between` is awaited between the rendering and the signing (a server's run gives its HTTP thread a
 * turn there: the two took 20 ms of it together for a quick run).
 */
export async function signReport(
  report: ValidationReport,
  key: KeyObject,
  renderHtml: (report: ValidationReport, keyId: string) => string,
  between: () => Promise<void> = () => Promise.resolve(),
): Promise<SignedFiles> {
  const { signature: _old, ...unsigned } = report;
  const html = renderHtml(unsigned, publicKeyOf(key).keyId);
  await between();
  const withFiles: ValidationReport = { ...unsigned, files: { 'report.html': sha256(html) } };
  const signed: ValidationReport = { ...withFiles, signature: signDocument(withFiles, key) };
  return { json: `${JSON.stringify(signed, null, 2)}\n`, html, report: signed };
}

export interface VerifyResult {
  valid: boolean;
  keyId: string | null;
  /** What was checked and found, one line each. */
  notes: string[];
}

/**
 * Checks a report.json text: a well-formed report, its signature over its content, the digest of
 * report.html when that file's text is given, and the key id when an expected one is given.
 */
export function verifyReport(jsonText: string, options: { html?: string; expectedKeyId?: string } = {}): VerifyResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(jsonText);
  } catch {
    return { valid: false, keyId: null, notes: ['report.json is not valid JSON: it was changed or truncated'] };
  }
  if (!parsed || typeof parsed !== 'object' || (parsed as { format?: unknown }).format !== REPORT_FORMAT)
    return { valid: false, keyId: null, notes: [`not a validation report (format ${REPORT_FORMAT} expected)`] };
  const check = verifyDocument(parsed as Record<string, unknown>);
  const notes: string[] = [];
  let valid = check.valid;
  notes.push(
    check.valid ? `signature valid (key ${check.keyId})` : `signature NOT valid: ${check.reason ?? 'unknown'}`,
  );
  if (options.expectedKeyId !== undefined && check.keyId !== options.expectedKeyId) {
    valid = false;
    notes.push(`signed by key ${check.keyId ?? 'none'}, not by the expected key ${options.expectedKeyId}`);
  }
  if (options.html !== undefined) {
    const want = (parsed as ValidationReport).files?.['report.html'];
    if (want === sha256(options.html)) notes.push('report.html matches the signed digest');
    else {
      valid = false;
      notes.push('report.html does NOT match the signed digest: it was changed');
    }
  }
  return { valid, keyId: check.keyId, notes };
}
