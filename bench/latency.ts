/** Latencies of a benchmark's requests, in milliseconds: nearest-rank percentiles of them. */
export function percentile(milliseconds: readonly number[], p: number): number {
  if (milliseconds.length === 0) return Number.NaN;
  const sorted = [...milliseconds].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/** `p50 12.3 ms  p95 45.6 ms` (and p99 when asked), padded to line up in the report. */
export function percentiles(milliseconds: readonly number[], which: readonly number[] = [50, 95]): string {
  return which.map((p) => `p${p} ${percentile(milliseconds, p).toFixed(1).padStart(7)} ms`).join('  ');
}
