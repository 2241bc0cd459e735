/** Cosine similarity; 0 when either vector is all zeros. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * Max-marginal-relevance: picks `k` of the candidate vectors, each time the one with the
 * best `lambda × similarity to the query − (1 − lambda) × highest similarity to an
 * already picked one`. Returns indices into `candidates`, in pick order.
 * `lambda` 1 is plain relevance, 0 is maximal diversity.
 */
export function maximalMarginalRelevance(
  query: readonly number[],
  candidates: readonly (readonly number[])[],
  k: number,
  lambda: number,
): number[] {
  const relevance = candidates.map((c) => cosine(query, c));
  const picked: number[] = [];
  const maxSim = candidates.map(() => -Infinity);
  const left = new Set(candidates.map((_, i) => i));
  while (picked.length < k && left.size > 0) {
    let best = -1;
    let bestScore = -Infinity;
    for (const i of left) {
      const redundancy = picked.length === 0 ? 0 : maxSim[i]!;
      const score = lambda * relevance[i]! - (1 - lambda) * redundancy;
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    picked.push(best);
    left.delete(best);
    for (const i of left) maxSim[i] = Math.max(maxSim[i]!, cosine(candidates[i]!, candidates[best]!));
  }
  return picked;
}
