import { describe, expect, it } from "vitest";
import { isRetryableCode } from "../../src/errors.js";
import { CODES, Code, describeCode } from "../../src/wire/index.js";

describe("code catalogue", () => {
  it("holds every code of the contract", () => {
    const expected = [200, 40101, 40102, 40103, 40003, 40004, 40007, 40008, 40301, 40302, 40303, 40304, 40305, 40306, 40307, 40400, 40422, 40423, 40424, 40425, 40427, 40428, 40429, 50207, 30203, 500];
    expect([...CODES.keys()].sort()).toEqual(expected.sort());
    expect(Code.CORRUPT_FILE).toBe(40422);
  });

  it("marks exactly 40306, 500, 30203 and 40428 retryable, agreeing with DocParseError", () => {
    const retryable = [...CODES.values()].filter((c) => c.retryable).map((c) => c.code).sort();
    expect(retryable).toEqual([500, 30203, 40306, 40428].sort());
    for (const c of CODES.values()) expect(isRetryableCode(c.code), String(c.code)).toBe(c.retryable);
  });

  it("describes unknown codes without throwing", () => {
    expect(describeCode(41234)).toMatchObject({ name: "UNKNOWN_41234", category: "request", retryable: false });
    expect(describeCode(50999)).toMatchObject({ category: "server" });
  });
});
