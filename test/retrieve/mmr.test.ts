import { describe, expect, it } from "vitest";
import { cosine, maximalMarginalRelevance } from "../../src/retrieve/mmr.js";

describe("maximalMarginalRelevance", () => {
  const q = [1, 0.2, 0];
  const near1 = [1, 0.21, 0];
  const near2 = [1, 0.2, 0.01];
  const other = [0.6, 0, 0.8];

  it("lambda 1 is plain relevance order", () => {
    expect(maximalMarginalRelevance(q, [near1, near2, other], 2, 1).sort()).toEqual([0, 1]);
  });

  it("lower lambda prefers a diverse second pick over a near duplicate", () => {
    const picks = maximalMarginalRelevance(q, [near1, near2, other], 2, 0.5);
    expect(picks[1]).toBe(2);
  });

  it("cosine is 0 for a zero vector", () => {
    expect(cosine([0, 0], [1, 0])).toBe(0);
  });
});
