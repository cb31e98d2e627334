import { imoCheckDigit, isAllocatedMid } from '../identifiers/index.js';
import type { EntityType } from '../lists/index.js';
import type { QueryIdentifier } from '../matching/index.js';

/**
 * Identifiers with valid check digits drawn at random (IMO ship numbers, LEIs, BICs, MMSIs): numbers
 * that pass every check a screening makes and that, unless a list holds them, no listing should match.
 * The validation run and the identifier benchmark (bench/identifiers.ts) draw with these makers.
 */
export interface IdentifierMaker {
  type: QueryIdentifier['type'];
  make: () => string;
  /** The entity type such a number belongs to. */
  entityType: EntityType;
}

const COUNTRIES = ['RU', 'IR', 'CN', 'AE', 'DE', 'US', 'GB', 'TR', 'SY', 'KP', 'VE', 'BY'];

/** The makers in a fixed order (the order of use fixes the draws); `companyImo` adds company IMO numbers after ship ones. */
export function identifierMakers(rand: () => number, options: { companyImo?: boolean } = {}): IdentifierMaker[] {
  const digits = (count: number): string => Array.from({ length: count }, () => Math.floor(rand() * 10)).join('');
  const alnum = (count: number, letters: string): string =>
    Array.from({ length: count }, () => letters[Math.floor(rand() * letters.length)]).join('');
  const imo = (scheme: 'ship' | 'company') => (): string => {
    const six = String(1 + Math.floor(rand() * 9)) + digits(5);
    return six + String(imoCheckDigit(six, scheme));
  };
  const lei = (): string => {
    // ISO 17442: 18 characters and two check digits by ISO 7064 MOD 97-10.
    const base = alnum(4, '0123456789') + '00' + alnum(12, '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ');
    let rest = 0;
    for (const digit of base + '00') {
      const code = digit.charCodeAt(0);
      const value = code >= 65 ? code - 55 : code - 48;
      rest = (value >= 10 ? rest * 100 + value : rest * 10 + value) % 97;
    }
    return base + String(98 - rest).padStart(2, '0');
  };
  const bic = (): string =>
    alnum(4, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') +
    COUNTRIES[Math.floor(rand() * COUNTRIES.length)]! +
    alnum(2, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
  const mmsi = (): string => {
    for (;;) {
      const mid = 201 + Math.floor(rand() * 575);
      if (isAllocatedMid(mid)) return String(mid) + digits(6);
    }
  };
  return [
    { type: 'imo', make: imo('ship'), entityType: 'vessel' },
    ...(options.companyImo ? [{ type: 'imo', make: imo('company'), entityType: 'organization' } as const] : []),
    { type: 'lei', make: lei, entityType: 'organization' },
    { type: 'bic', make: bic, entityType: 'organization' },
    { type: 'mmsi', make: mmsi, entityType: 'vessel' },
  ];
}
