/**
 * The order statistics every benchmark reports, from one place so that the same words mean the
 * same figures across `npm run bench`.
 */

/** The median of rounds or windows: the mean of the two middle values for an even count (0 for none). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The `p`th percentile (0 < p ≤ 100) by nearest rank: the smallest value that at least p % of
 * the values do not exceed, always one of them (NaN for none).
 */
export function percentile(values: readonly number[], p: number): number {
  return (
    nearestRank(
      [...values].sort((a, b) => a - b),
      p,
    ) ?? Number.NaN
  );
}

/** `percentile` of values already in ascending order, without sorting them again (undefined for none). */
export function nearestRank(sorted: readonly number[], p: number): number | undefined {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
