import type { RiskLevel } from './types.js';
import { SCORING } from './scoring-table.js';

/** DECISIONS.md "Scores and levels": high >= 80, medium >= 50, else low. */
export const HIGH_BOUNDARY = SCORING.HIGH_BOUNDARY.value;
export const MEDIUM_BOUNDARY = SCORING.MEDIUM_BOUNDARY.value;
/**
 * Reporting floor: the medium boundary, so that every reported match is at least medium and "no
 * match" means low (DECISIONS.md: a screening with no match has riskScore 0 and riskLevel low).
 */
export const DEFAULT_FLOOR = MEDIUM_BOUNDARY;
export const DEFAULT_MAX_MATCHES = SCORING.DEFAULT_MAX_MATCHES.value;

export function riskLevelFor(score: number): RiskLevel {
  if (score >= HIGH_BOUNDARY) return 'high';
  if (score >= MEDIUM_BOUNDARY) return 'medium';
  return 'low';
}

/** Scores are published with one decimal (DECISIONS.md). */
export function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

export function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}
