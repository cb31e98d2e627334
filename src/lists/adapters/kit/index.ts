/**
 * The adapter kit: everything an adapter needs to turn a publisher's files into records, under one
 * vocabulary. See ../README.md for how its pieces fit.
 */
export * from './countries.js';
export * from './csv.js';
export * from './dates.js';
export * from './files.js';
export * from './id-labels.js';
export * from './identifiers.js';
export * from './names.js';
export * from './record.js';
export * from './text.js';
export * from './xlsx.js';
export * from './xml.js';
