import type { OfficialSourceId, SourceAdapter } from '../model.js';
import { auDfatAdapter } from './au-dfat.js';
import { caGacAdapter } from './ca-gac.js';
import { chSecoAdapter } from './ch-seco.js';
import { euCslAdapter } from './eu-csl.js';
import { jpMofAdapter } from './jp-mof.js';
import { ukCslAdapter } from './uk-csl.js';
import { unCslAdapter } from './un-csl.js';
import { usCslAdapter } from './us-csl.js';
import { usOfacAdapter } from './us-ofac.js';

/** One adapter per official source (api-v1.md 2.7). */
export const ADAPTERS: Record<OfficialSourceId, SourceAdapter> = {
  us_ofac: usOfacAdapter,
  us_csl: usCslAdapter,
  eu_csl: euCslAdapter,
  uk_csl: ukCslAdapter,
  un_csl: unCslAdapter,
  au_dfat: auDfatAdapter,
  ch_seco: chSecoAdapter,
  ca_gac: caGacAdapter,
  jp_mof: jpMofAdapter,
};
