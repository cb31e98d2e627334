/**
 * Text as the publishers write it: blanks and placeholders, enumerations, values joined from parts.
 * A room of its own, light on purpose: the XML reader (formats/) and the country wordings
 * (identifiers/, which the matching threads load) share it without loading each other.
 */
export * from './publisher-text.js';
