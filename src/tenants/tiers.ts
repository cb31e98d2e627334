/** Tiers and their monthly screening quotas, from DECISIONS.md ("Organizations, keys, tiers, quotas"). */
export const TIERS = ['free', 'starter', 'professional', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

/** Screenings per calendar month (UTC); null is unlimited. `free` has no API access at all. */
export const TIER_QUOTAS: Record<Tier, number | null> = {
  free: 0,
  starter: 1_000,
  professional: 10_000,
  enterprise: null,
};

export function isTier(value: string): value is Tier {
  return (TIERS as readonly string[]).includes(value);
}

/** API access (and monitoring) requires Starter or above. */
export function hasApiAccess(tier: Tier): boolean {
  return tier !== 'free';
}

/** The organization's own quota wins over the tier's. */
export function effectiveQuota(tier: Tier, ownQuota: number | null): number | null {
  return ownQuota ?? TIER_QUOTAS[tier];
}

/** The quota month: the calendar month in UTC, `YYYY-MM`. */
export function quotaMonth(at: Date): string {
  return at.toISOString().slice(0, 7);
}
