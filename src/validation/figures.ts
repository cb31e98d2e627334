import { HIGH_BOUNDARY, MEDIUM_BOUNDARY } from '../matching/index.js';
import type { Script } from './scripts.js';
import type { ValidationEngine } from './engine.js';

/**
 * The figures of a validation run (issue 31) and what a run is given: plain data, which report.ts
 * judges, signs and renders.
 */

export interface Cutoffs {
  /** A match at or above this score counts as found at medium (the deployment's boundary: 50). */
  medium: number;
  high: number;
}

export interface RunSizes {
  /** Listed names self-screened; Infinity: all of them. */
  selfScreen: number;
  perturbationsPerKind: number;
  negatives: number;
  /** Listed identifiers screened; Infinity: all of them. */
  listedIdentifiers: number;
  randomIdentifiersPerType: number;
  latencySamples: number;
}

export const FULL_SIZES: RunSizes = {
  selfScreen: Infinity,
  perturbationsPerKind: 1000,
  negatives: 20_000,
  listedIdentifiers: Infinity,
  randomIdentifiersPerType: 250,
  latencySamples: 1000,
};

export const QUICK_SIZES: RunSizes = {
  selfScreen: 2000,
  perturbationsPerKind: 100,
  negatives: 2000,
  listedIdentifiers: 500,
  randomIdentifiersPerType: 25,
  latencySamples: 200,
};

export interface Progress {
  phase: Phase;
  done: number;
  total: number;
}

export type Phase = 'self-screen' | 'perturbations' | 'negatives' | 'identifiers' | 'latency';

export interface ValidationDeps {
  engine: ValidationEngine;
  /** Timed one query at a time for the latency figures (default: engine). */
  latencyEngine?: ValidationEngine;
  /** Queries in flight at once. */
  concurrency?: number;
  /** Awaited before every query and after every turn of the event loop the run gives: a server holds the run there while interactive requests are under way. */
  pace?: () => Promise<void>;
  onProgress?: (progress: Progress) => void;
  now?: () => number;
}

export interface RecallRow {
  key: string;
  names: number;
  found: number;
  top: number;
}

export interface SelfScreenMiss {
  entityId: string;
  source: string;
  entityType: string;
  name: string;
  /** primary, or the alias kind (aka, fka...). */
  nameKind: string;
  /** strong, or weak (a publisher's "low quality" alias). */
  quality: string;
  ownScore: number | null;
  topId: string | null;
  topScore: number | null;
}

export interface SelfScreenFigures {
  names: number;
  found: number;
  top: number;
  bySource: RecallRow[];
  byType: RecallRow[];
  /** Strong names and weak aliases (a publisher's "low quality" a.k.a.) apart. */
  byQuality: RecallRow[];
  /** Names whose own listing is not found at medium: every one. */
  misses: SelfScreenMiss[];
  /** Names found but not as the top party (another party scored higher): every one. */
  notTop: SelfScreenMiss[];
  /** Entity ids of the focus (an activation's new entries) that were not all found. */
  focusMissed: string[];
  /** Names and listings of the focus (an activation's new and changed entries). */
  focusNames: number;
  focusEntities: number;
}

export interface KindFigures {
  kind: string;
  n: number;
  medium: number;
  high: number;
  /** Up to 20 of the perturbed names not found at medium. */
  misses: { query: string; listed: string; entityId: string; ownScore: number | null }[];
}

export interface ScriptFigures {
  script: Script;
  n: number;
  medium: number;
  high: number;
  mediumWithBirthDate: number;
  highWithBirthDate: number;
  /** Alerts at medium (name only) on a name that is, folded, the listed name that matched: counted in medium too. */
  namesakes: number;
}

export interface NegativeFigures {
  size: number;
  locales: number;
  byScript: ScriptFigures[];
  total: ScriptFigures;
  /** The 30 highest-scoring alerts (name only), namesakes marked. */
  alerts: { locale: string; name: string; score: number; matchedId: string; matchedName: string; namesake: boolean }[];
}

export interface IdentifierFigures {
  listed: {
    tried: number;
    found: number;
    refused: number;
    misses: { entityId: string; type: string; value: string; topId: string | null }[];
  };
  random: { tried: number; hits: number; examples: { type: string; value: string; matchedId: string }[] };
}

export interface LatencyFigures {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
}

export interface Machine {
  hostname: string;
  platform: string;
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
}

export interface ValidationFigures {
  quick: boolean;
  seed: number;
  cutoffs: Cutoffs;
  sizes: RunSizes;
  selfScreen: SelfScreenFigures;
  perturbations: KindFigures[];
  negatives: NegativeFigures;
  identifiers: IdentifierFigures;
  latency: LatencyFigures;
  machine: Machine;
  durationMs: number;
}

export const DEFAULT_CUTOFFS: Cutoffs = { medium: MEDIUM_BOUNDARY, high: HIGH_BOUNDARY };
