import { describe, expect, it } from "vitest";
import { FaultInjector } from "../../src/server/index.js";

describe("FaultInjector (test-only)", () => {
  it("is reproducible for a seed and near the requested rates", () => {
    const run = () => {
      const f = new FaultInjector({ failRate: 0.2, dropRate: 0.1, codes: [500, 30203], seed: 42 });
      return Array.from({ length: 2_000 }, () => f.decide("sync", "docparse"));
    };
    const a = run();
    expect(run()).toEqual(a);
    const drops = a.filter((x) => x.some((y) => "drop" in y)).length / a.length;
    const fails = a.filter((x) => x.some((y) => "code" in y)).length / a.length;
    expect(drops).toBeGreaterThan(0.07);
    expect(drops).toBeLessThan(0.13);
    expect(fails).toBeGreaterThan(0.14); // 0.9 * 0.2 = 0.18
    expect(fails).toBeLessThan(0.22);
  });

  it("applies latency and random faults only on the chosen routes", () => {
    const f = new FaultInjector({ failRate: 1, latencyMs: 5, routes: ["async"] });
    expect(f.decide("sync", "docparse")).toEqual([]);
    expect(f.decide("async", "docparse")).toEqual([{ delayMs: 5 }, { code: 500 }]);
  });

  it("lets a plan decide per request index", () => {
    const f = new FaultInjector({ plan: ({ index, route }) => (route === "status" && index === 1 ? { httpStatus: 503 } : undefined) });
    expect(f.decide("status", "docparse")).toEqual([]);
    expect(f.decide("status", "docparse")).toEqual([{ httpStatus: 503 }]);
    expect(f.decide("status", "docparse")).toEqual([]);
  });
});
