import { validationError } from '../infra/errors.js';

/**
 * What a validation report is judged against: each threshold with its default, its unit, and whether
 * the figure must be at least (min) or at most (max) it. An organization sets its own with the run
 * (`thresholds` of POST /v1/validation-runs, `--threshold key=value` of `sanctions validate`); the
 * report records the values it was judged by. The defaults: 99.5% self-screen recall is the figure an
 * examiner is shown by vendors of the trade (123sanctions publishes 100% exact and 99.98% minor
 * variations); the false-alert ceilings are the ones the quality benchmark holds the engine to.
 */
export interface ThresholdSpec {
  key: ThresholdKey;
  label: string;
  unit: '%' | 'ms' | 'count';
  bound: 'min' | 'max';
  default: number;
}

export const THRESHOLD_KEYS = [
  'selfScreenMedium',
  'selfScreenTop',
  'perturbationMedium',
  'falseAlertMedium',
  'falseAlertHigh',
  'identifiersFound',
  'randomIdentifierHits',
  'latencyP99',
  'newEntriesFound',
] as const;
export type ThresholdKey = (typeof THRESHOLD_KEYS)[number];
export type Thresholds = Record<ThresholdKey, number>;

export const THRESHOLDS: readonly ThresholdSpec[] = [
  {
    key: 'selfScreenMedium',
    label: 'Self-screen: listed names that find their own listing at medium or above',
    unit: '%',
    bound: 'min',
    default: 99.5,
  },
  {
    key: 'selfScreenTop',
    label: 'Self-screen: listed names whose own listing is the top party',
    unit: '%',
    bound: 'min',
    default: 98,
  },
  {
    key: 'perturbationMedium',
    label: 'Perturbation recall at medium, each kind',
    unit: '%',
    bound: 'min',
    default: 80,
  },
  {
    key: 'falseAlertMedium',
    label: 'False alerts at medium on the negative population, name only',
    unit: '%',
    bound: 'max',
    default: 0.3,
  },
  {
    key: 'falseAlertHigh',
    label: 'False alerts at high on the negative population, name only',
    unit: '%',
    bound: 'max',
    default: 0.02,
  },
  {
    key: 'identifiersFound',
    label: 'Listed identifiers that find their listing as the top match',
    unit: '%',
    bound: 'min',
    default: 99,
  },
  {
    key: 'randomIdentifierHits',
    label: 'Random valid identifiers no list holds that match a listing',
    unit: 'count',
    bound: 'max',
    default: 0,
  },
  // The engine's part of a screening; 100 ms leaves an interactive screening well inside a second.
  { key: 'latencyP99', label: 'Engine latency, 99th percentile', unit: 'ms', bound: 'max', default: 100 },
  // Judged only on activation runs: every new or changed entry must find itself (issue 31, item 3).
  {
    key: 'newEntriesFound',
    label: 'New and changed entries of a list activation found at medium or above',
    unit: '%',
    bound: 'min',
    default: 100,
  },
];

export function defaultThresholds(): Thresholds {
  return Object.fromEntries(THRESHOLDS.map((t) => [t.key, t.default])) as Thresholds;
}

function isThresholdKey(key: string): key is ThresholdKey {
  return (THRESHOLD_KEYS as readonly string[]).includes(key);
}

/** The defaults with the given overrides; an unknown key or a value out of range is a 400 naming it. */
export function thresholdsWith(overrides: Record<string, unknown> | undefined, field = 'thresholds'): Thresholds {
  const out = defaultThresholds();
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (!isThresholdKey(key))
      throw validationError(`${field}.${key}`, `is not a threshold; known: ${THRESHOLD_KEYS.join(', ')}`);
    const spec = THRESHOLDS.find((t) => t.key === key)!;
    const max = spec.unit === '%' ? 100 : 1_000_000;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max)
      throw validationError(`${field}.${key}`, `must be a number from 0 to ${max}`);
    out[key] = value;
  }
  return out;
}
