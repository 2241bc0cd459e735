/**
 * Reciprocal rank fusion (Cormack et al. 2009): score(d) = Σ 1 / (k + rank(d)), ranks
 * 1-based. Needs no score calibration between vector similarity and text rank.
 */
export const RRF_K = 60;

/** Fuses ranked id lists; returns ids with their fused scores, best first. */
export function fuseRanks(lists: readonly (readonly string[])[], k = RRF_K): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  for (const list of lists) {
    list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + i + 1)));
  }
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** How many candidates each ranking contributes to a hybrid query for `k` results. */
export function hybridDepth(k: number): number {
  return Math.max(k * 4, 40);
}
