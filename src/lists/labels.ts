import { SOURCE_LABELS, type SourceId } from './model.js';

/** List labels for source ids (alert payloads carry both, DECISIONS.md); an unknown id is kept as it is. */
export function listLabels(sources: string[]): string[] {
  return sources.map((s) => SOURCE_LABELS[s as SourceId] ?? s);
}
