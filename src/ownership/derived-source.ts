import type { OwnershipConfig } from '../infra/config.js';
import type { DerivedSource } from '../lists/index.js';

/**
 * us_ofac_50 as the lists domain syncs it: after every us_ofac sync, from OWNERSHIP_DIR or the
 * directory given. The derivation and its parsers load only when a sync runs.
 */
export function ownershipSource(config: OwnershipConfig): DerivedSource {
  return {
    source: 'us_ofac_50',
    follows: 'us_ofac',
    async sync({ ctx, input }) {
      const dir = input.inputDir ?? config.dir;
      if (dir === undefined) return undefined;
      const { syncDerived } = await import('./ownership-sync.js');
      return syncDerived(ctx, dir);
    },
  };
}
