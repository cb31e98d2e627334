/** Ownership data and the OFAC 50 percent rule: a pure library (files in, derived records out). */
export { loadOwnershipDir, type LoadOptions, type OwnershipData } from './loader.js';
export { deriveBlocked, deriveBlockedWithStats, type DeriveInput, type DeriveResult } from './derive.js';
export { OwnershipGraph, OwnershipGraphBuilder, normalizeLei } from './graph.js';
export { BLOCKING_THRESHOLD, PERCENT_SCALE, parsePercent, toPercent } from './percent.js';
export type { OwnershipEntity, OwnershipFileInfo, OwnershipFormat, RelationshipKind, Stake } from './model.js';
export { ownershipSource } from './derived-source.js';
