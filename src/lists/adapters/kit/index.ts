/**
 * The adapter kit: everything an adapter needs to turn a publisher's files into records, under one
 * vocabulary. See ../README.md for how its pieces fit. The file formats (formats/) and the
 * identifier and country rules (identifiers/) live in their own rooms, since batches, matching and
 * the API read them too; the kit hands them on so an adapter imports one place.
 */
export * from '../../../formats/index.js';
export * from '../../../identifiers/index.js';
export * from './dates.js';
export * from './files.js';
export * from './id-labels.js';
export * from './names.js';
export * from './record.js';
