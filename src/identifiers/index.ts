/**
 * Identifiers and countries: the kinds of number a list prints or a screening names, how each is
 * normalized and checked (IMO, MMSI, LEI and BIC check digits), and ISO 3166-1 country codes with
 * the names and wordings they resolve from. A pure library (no database, no domain), so the list
 * adapters, the matching engine and the API's request validation read a number or a country alike.
 */
export * from './countries.js';
export * from './identifier-rules.js';
