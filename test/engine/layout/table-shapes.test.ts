import { describe, expect, it } from "vitest";
import { findTables, type Segment } from "../../../src/engine/layout/index.js";
import { run } from "./support.js";

const h = (at: number, from: number, to: number): Segment => ({ horizontal: true, at, from, to });
const page = { x0: 0, y0: 0, x1: 600, y1: 800 };

describe("findTables: a rule under every row", () => {
  // A bank statement printed from HTML (`td{border-bottom}`): a rule under every row.
  const statement = (rows: number, top = 60, pitch = 16.5) => {
    const rules = [h(top, 43, 553)];
    const runs = [];
    for (let r = 0; r < rows; r++) {
      const y = top + pitch * r + 4;
      runs.push(run(`${String(1 + (r % 28)).padStart(2, "0")} Apr 2024`, 47, y), run(`Card payment STORE ${r}`, 125, y), run(`${10 + r}.50`, 420, y), run(`${5000 + r},00`, 500, y));
      rules.push(h(top + pitch * (r + 1), 43, 553));
    }
    return { rules, runs };
  };

  it("reads rows ruled down most of the page as one table", () => {
    const { rules, runs } = statement(36);
    expect(rules.at(-1)!.at - rules[0]!.at).toBeGreaterThan(0.6 * page.y1);
    const { tables, used } = findTables(rules, runs, page);
    expect(tables.map((t) => [t.rows, t.cols])).toEqual([[36, 4]]);
    expect(used.size).toBe(runs.length);
  });
});
