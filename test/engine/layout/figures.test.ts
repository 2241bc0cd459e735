import { describe, expect, it } from "vitest";
import { buildLines, chartGrids, findFigures, type GridTable, type Rect } from "../../../src/engine/layout/index.js";
import { run } from "./support.js";

const page = { x0: 0, y0: 0, x1: 600, y1: 800 };
const box = (x0: number, y0: number, x1: number, y1: number): Rect => ({ x0, y0, x1, y1 });
// A bar chart: two axes (rules), four bars; tick labels left of the axis, years under it.
const axes = [box(100, 300, 101, 500), box(100, 499, 400, 500)];
const bars = [box(120, 400, 160, 500), box(190, 350, 230, 500), box(260, 420, 300, 500), box(330, 320, 370, 500)];
const labels = [run("150", 80, 305), run("0", 90, 490), run("2023", 125, 504), run("2024", 195, 504), run("2025", 265, 504), run("2026", 335, 504)];

describe("findFigures", () => {
  it("makes a chart drawn as paths one figure holding its labels, not the caption or the prose around it", () => {
    const prose = run("The chart below shows how many documents were read each year by the service.", 60, 270, { x1: 520 });
    const caption = run("Figure 1: Documents per year.", 100, 522);
    const lines = buildLines([...labels, prose, caption]);
    const { figures, used } = findFigures([...axes, ...bars], lines, page, []);
    expect(figures).toHaveLength(1);
    const f = figures[0]!;
    expect(f.text).toBe("150 0 2023 2024 2025 2026");
    expect([f.x0, f.y0, f.x1]).toEqual([80, 300, 400]);
    expect(f.y1).toBeCloseTo(514);
    expect(f.image).toMatchObject({ vector: true, width: 640, height: 428 });
    expect([...used].map((l) => l.text).sort()).toEqual(["0", "150", "2023", "2024", "2025", "2026"]);
  });

  it("leaves the rest of a caption's first line, read apart from its label, to the caption", () => {
    const lines = [...buildLines(labels), ...buildLines([run("Figure 1:", 100, 514)]), ...buildLines([run("Documents per year", 145, 514)])];
    const { figures } = findFigures([...axes, ...bars], lines, page, []);
    expect(figures.map((f) => f.text)).toEqual(["150 0 2023 2024 2025 2026"]);
  });

  it("leaves a heading set just above a chart, larger and bold, a heading", () => {
    const heading = run("3 Results", 80, 282, { fontSize: 14, bold: true });
    const { figures, used } = findFigures([...axes, ...bars], buildLines([heading, ...labels]), page, []);
    expect(figures.map((f) => f.text)).toEqual(["150 0 2023 2024 2025 2026"]);
    expect([...used].some((l) => l.text === "3 Results")).toBe(false);
  });

  it("leaves text on shapes alone: a paragraph in a shaded box, a menu on a panel, a few rules", () => {
    // A callout: its background, a border drawn as four rules, a paragraph inside.
    const callout = [box(50, 100, 550, 180), box(50, 100, 550, 101), box(50, 179, 550, 180), box(50, 100, 51, 180)];
    const para = run("Note. The pipeline reads each document once and writes its chunks with their boxes.", 60, 120, { x1: 520 });
    expect(findFigures(callout, buildLines([para]), page, []).figures).toEqual([]);
    // A menu: a dark panel, a rule under each item.
    const menu = [box(400, 200, 550, 300), ...[225, 250, 275].map((y) => box(405, y, 545, y + 1))];
    const items = ["Home", "Products", "Pricing", "Contact"].map((t, i) => run(t, 410, 205 + 25 * i));
    expect(findFigures(menu, buildLines(items), page, []).figures).toEqual([]);
    // Rules alone (an empty form's lines) are no figure either.
    expect(findFigures([box(50, 600, 300, 601), box(50, 630, 300, 631), box(50, 660, 300, 661)], [], page, []).figures).toEqual([]);
  });

  it("finds a chart inside a bordered box (a poster's panel) holding a heading and prose", () => {
    // The box's border (one stroked rectangle) and its fill behind it touch everything in it.
    const frame = [box(50, 220, 450, 560), box(50, 220, 450, 560)];
    const heading = run("Results", 60, 228, { fontSize: 14, bold: true });
    const prose = run("The chart below shows how many documents were read each year by the service.", 60, 260, { x1: 440 });
    const { figures, used } = findFigures([...frame, ...axes, ...bars], buildLines([heading, prose, ...labels]), page, []);
    expect(figures.map((f) => f.text)).toEqual(["150 0 2023 2024 2025 2026"]);
    expect([...used].some((l) => l.text === "Results" || l.text.startsWith("The chart"))).toBe(false);
    // A boxed note with a small icon and a rule in it stays text.
    const note = [box(50, 600, 550, 700), box(60, 610, 72, 622), box(62, 612, 70, 620), box(60, 640, 540, 641)];
    const para = run("Note. The pipeline reads each document once and writes its chunks with their boxes.", 80, 610, { x1: 520 });
    expect(findFigures(note, buildLines([para]), page, []).figures).toEqual([]);
  });

  it("leaves drawing inside tables and small marks alone", () => {
    const table = box(90, 290, 410, 520);
    expect(findFigures([...axes, ...bars], buildLines(labels), page, [table]).figures).toEqual([]);
    // Three small icons side by side.
    expect(findFigures([box(50, 50, 60, 60), box(61, 50, 71, 60), box(72, 50, 82, 60)], [], page, []).figures).toEqual([]);
  });

  it("takes in a legend: short labels with a swatch in a colour of the chart on their row; not icons of one colour", () => {
    // Bars in two colours, the legend beside the plot: swatches in a column after the labels.
    const coloured = bars.map((b, i) => ({ ...b, colour: i % 2 ? "#cc0000" : "#0000cc" }));
    const swatches = [
      { ...box(470, 320, 478, 328), colour: "#0000cc" },
      { ...box(470, 340, 478, 348), colour: "#cc0000" },
    ];
    const legend = [run("Orders", 420, 319, { fontSize: 8 }), run("Returns", 420, 339, { fontSize: 8 })];
    const { figures } = findFigures([...axes, ...coloured, ...swatches], buildLines([...labels, ...legend]), page, []);
    expect(figures.map((f) => f.text)).toEqual(["150 Orders Returns 0 2023 2024 2025 2026"]);
    // A contact block beside the chart, a grey icon before each line, stays text.
    const icons = [{ ...box(410, 320, 418, 328), colour: "#666666" }, { ...box(410, 340, 418, 348), colour: "#666666" }];
    const contact = [run("+44 20 7946 0000", 422, 319, { fontSize: 8 }), run("sales@example.com", 422, 339, { fontSize: 8 })];
    const plain = findFigures([...axes, ...coloured, ...icons], buildLines([...labels, ...contact]), page, []);
    expect(plain.figures.map((f) => f.text)).toEqual(["150 0 2023 2024 2025 2026"]);
  });
});

describe("chartGrids", () => {
  // A 4 × 4 grid of gridlines (cells 50 wide, 20 high).
  const grid = (texts: Record<string, string>): GridTable => {
    const cells = [];
    for (let r = 1; r <= 4; r++) for (let c = 1; c <= 4; c++) cells.push({ row: r, col: c, rowSpan: 1, colSpan: 1, x0: 50 * c, x1: 50 * c + 50, y0: 20 * r, y1: 20 * r + 20, text: texts[`${r},${c}`] ?? "" });
    return { x0: 50, y0: 20, x1: 250, y1: 100, rows: 4, cols: 4, cells };
  };

  it("takes a mostly empty grid holding bars of different lengths for a chart's gridlines", () => {
    const chart = grid({ "1,4": "30", "3,2": "12" });
    const barsInside = [box(50, 25, 240, 35), box(50, 65, 130, 75)];
    expect([...chartGrids([chart], barsInside)]).toEqual([chart]);
  });

  it("keeps sparse tables: a check mark matrix without shapes, a form with a dark header band", () => {
    const checks = grid({ "1,1": "Task", "2,2": "✓", "3,3": "✓", "4,4": "✓" });
    expect(chartGrids([checks], []).size).toBe(0);
    const form = grid({ "1,1": "Name", "1,2": "Date", "1,3": "Room", "1,4": "Sign" });
    const header = [box(50, 20, 100, 40), box(100, 20, 150, 40), box(150, 20, 200, 40), box(200, 20, 250, 40)];
    expect(chartGrids([form], header).size).toBe(0);
    // A status matrix: coloured cells and dots, each inside its cell.
    const status = grid({ "1,1": "Project", "1,2": "Jan", "1,3": "Feb", "1,4": "Mar", "2,1": "Alpha", "3,1": "Beta" });
    const fills = [box(101, 41, 149, 59), box(151, 61, 199, 79), box(210, 85, 220, 95)];
    expect(chartGrids([status], fills).size).toBe(0);
  });
});
