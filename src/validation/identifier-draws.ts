import { imoCheckDigit, isAllocatedMid } from '../identifiers/index.js';
import type { QueryIdentifier } from '../matching/index.js';

/**
 * Identifiers with valid check digits drawn at random (IMO ship numbers, LEIs, BICs, MMSIs): numbers
 * that pass every check a screening makes and that, unless a list holds them, no listing should match.
 * The quality benchmark (bench/identifiers.ts) draws with the same makers.
 */
export type IdentifierMaker = [QueryIdentifier['type'], () => string];

export function identifierMakers(rand: () => number): IdentifierMaker[] {
  const digits = (n: number): string => Array.from({ length: n }, () => Math.floor(rand() * 10)).join('');
  const alnum = (n: number, letters: string): string =>
    Array.from({ length: n }, () => letters[Math.floor(rand() * letters.length)]).join('');
  const countries = ['RU', 'IR', 'CN', 'AE', 'DE', 'US', 'GB', 'TR', 'SY', 'KP', 'VE', 'BY'];
  return [
    [
      'imo',
      () => {
        const six = String(1 + Math.floor(rand() * 9)) + digits(5);
        return six + String(imoCheckDigit(six, 'ship'));
      },
    ],
    [
      'lei',
      () => {
        // ISO 17442: 18 characters and two check digits by ISO 7064 MOD 97-10.
        const base = alnum(4, '0123456789') + '00' + alnum(12, '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ');
        let rest = 0;
        for (const ch of base + '00') {
          const code = ch.charCodeAt(0);
          const v = code >= 65 ? code - 55 : code - 48;
          rest = (v >= 10 ? rest * 100 + v : rest * 10 + v) % 97;
        }
        return base + String(98 - rest).padStart(2, '0');
      },
    ],
    [
      'bic',
      () =>
        alnum(4, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') +
        countries[Math.floor(rand() * countries.length)]! +
        alnum(2, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'),
    ],
    [
      'mmsi',
      () => {
        for (;;) {
          const mid = 201 + Math.floor(rand() * 575);
          if (isAllocatedMid(mid)) return String(mid) + digits(6);
        }
      },
    ],
  ];
}
