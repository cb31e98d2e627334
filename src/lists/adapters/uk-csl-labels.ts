/** What both UK list layouts (FCDO XML, OFSI ConList) write alike: alias quality, business register labels. */
import type { NameQuality } from '../model.js';

/** "Low quality a.k.a" / "Low quality" mark weak aliases; everything else is strong. */
export function qualityOf(value: string | undefined): NameQuality {
  return /low/i.test(value ?? '') ? 'weak' : 'strong';
}

/**
 * Labels inside OFSI's "(Business Reg No)" field, which holds one number or several of Russia's
 * and others' registers: "(1) OGRN: 1027700456024 (2) INN: 7725075060", "TIN - 7703104630",
 * "UK Company no. 06527449". A number with no label is a registration number.
 */
export const BUSINESS_LABELS =
  /\b(?:OGRN(?:IP)?|INN(?: number)?|KPP|OKPO|OKTMO|TIN|BIN|BR|CR|SRN|ICP|Tax ID(?: No\.?)?|Tax(?:payer)? Identification Number|Taxpayer(?: No\.?| number)?|Business Identification Number|(?:UK )?Company no\.?|License number|Registration (?:No\.?|Number)|SWIFT(?:\/BI[CN])?|BIC|BIK(?: \(RU\))?)\s*[:\-–]?\s*/gi;
