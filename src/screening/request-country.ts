import { isCountryCode } from '../lists/countries.js';

/**
 * Codes the country table knows (it also reads old list data) that are not officially assigned
 * ISO 3166-1 alpha-2 codes, so a request must not use them: exceptionally reserved (AC, CP, CQ, DG,
 * EA, EU, EZ, FX, IC, TA, UK, UN), transitionally reserved or withdrawn (AN, BU, CS, DD, DY, HV, NH,
 * RH, SU, TP, VD, YD, YU, ZR) and user-assigned (QO, XA, XB, ZZ). XK (Kosovo) stays accepted: it is
 * user-assigned but used by every sanctions list.
 */
const NOT_ASSIGNED = new Set(
  'AC CP CQ DG EA EU EZ FX IC TA UK UN AN BU CS DD DY HV NH RH SU TP VD YD YU ZR QO XA XB ZZ'.split(' '),
);

/** True for an officially assigned ISO 3166-1 alpha-2 code in upper case, or XK. */
export function isRequestCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !NOT_ASSIGNED.has(code) && isCountryCode(code);
}
