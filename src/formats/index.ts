/**
 * File formats as the publishers and the customers write them: CSV, XLSX and XML read as streams,
 * Excel's serial dates, and the text conventions of their cells (blanks, placeholders, enumerations).
 * A library with no state and no domain: lists/ reads the publishers' files with it, batches/ the
 * customers' uploads, identifiers/ the country wordings.
 */
export * from './csv.js';
export * from './excel-dates.js';
export * from './text.js';
export * from './xlsx.js';
export * from './xml.js';
