/**
 * File formats as the publishers and the customers write them: CSV, XLSX and XML read as streams,
 * Excel's serial dates; it hands on the text conventions of their cells (text/). A library with no
 * state and no domain: lists/ reads the publishers' files with it, batches/ the customers' uploads.
 */
export * from './csv.js';
export * from './excel-dates.js';
export * from '../text/index.js';
export * from './xlsx.js';
export * from './xml.js';
