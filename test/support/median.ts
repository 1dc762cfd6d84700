/** The median of measurements. */

/** The middle value of `values` (the upper one of an even count); `values` is left unsorted. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
