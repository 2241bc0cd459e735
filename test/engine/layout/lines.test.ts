import { describe, expect, it } from "vitest";
import { buildLines } from "../../../src/engine/layout/index.js";
import { run } from "./support.js";

describe("buildLines", () => {
  it("joins runs on one baseline left to right, with spaces at word gaps only", () => {
    const lines = buildLines([run("world", 45, 100), run("Hello", 10, 100.5), run("!", 70, 100)]);
    expect(lines.map((l) => l.text)).toEqual(["Hello world!"]);
  });

  it("cuts a line at a gap wider than one em (two columns on one baseline)", () => {
    const lines = buildLines([run("left column", 10, 100), run("right column", 200, 100)]);
    expect(lines.map((l) => l.text)).toEqual(["left column", "right column"]);
  });

  it("puts no space between CJK characters of adjacent runs", () => {
    const lines = buildLines([run("中文", 10, 100, { x1: 30 }), run("内容", 31, 100, { x1: 51 })]);
    expect(lines[0]!.text).toBe("中文内容");
  });

  it("drops text drawn twice at the same spot (fake bold)", () => {
    const lines = buildLines([run("Bold", 10, 100), run("Bold", 10.3, 100)]);
    expect(lines[0]!.text).toBe("Bold");
  });

  it("orders lines top to bottom and reports style", () => {
    const lines = buildLines([run("second", 10, 120), run("first", 10, 100, { bold: true, fontSize: 14 })]);
    expect(lines.map((l) => [l.text, l.bold, l.fontSize])).toEqual([
      ["first", true, 14],
      ["second", false, 10],
    ]);
  });
});
