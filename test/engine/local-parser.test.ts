import { availableParallelism } from "node:os";
import { createHash } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalParser, LOCAL_PARSER_DEFAULTS } from "../../src/engine/local-parser.js";
import { ENGINE_LIMIT_DEFAULTS } from "../../src/engine/limits.js";
import { MemoryAssetStore } from "../../src/engine/assets.js";
import { DiskAssetStore, defaultAssetDirectory } from "../../src/engine/disk-asset-store.js";
import { DocParseError } from "../../src/errors.js";
import type { ParseConfig, ParseResult } from "../../src/wire/index.js";
import { tempDir } from "../support/system.js";
import { expectConsistentResult } from "./check-result.js";
import { TINY_PNG, busyFormat, hangingFormat, pagedFormat, throwingFormat } from "./fake-formats.js";

const EN_MD = `# Annual Report

The company did well this year.

## Revenue

Revenue grew by 20% and $r=0.2$ in the model.

| Region | Revenue |
|---|---|
| North | 10 |
| South | 12 |

### Details

- Product A
  - Variant 1
- Product B

\`\`\`
total = north + south
\`\`\`

## Costs

Costs were flat.
`;

const ZH_TXT = `第一章 总则

　　为了规范公司财务管理，根据有关法律法规，制定本办法。
　　本办法适用于公司全体员工。

一、基本原则

财务管理应当遵循以下原则：
1. 合法合规
2. 真实完整

第二章 附则

本办法自发布之日起施行。
`;

const ALL_CAPS: ParseConfig = {
  capabilities: {
    include_hierarchy: true,
    include_inline_objects: true,
    include_char_details: true,
    include_image_data: true,
    include_table_structure: true,
    pages: true,
    title_tree: true,
  },
};

const ALL_CAPS_NO_PAGES: ParseConfig = { capabilities: { ...ALL_CAPS.capabilities, pages: false } };

async function code(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    expect(DocParseError.isInstance(err), String(err)).toBe(true);
    return (err as DocParseError).code;
  }
  throw new Error("expected a rejection");
}

const withoutDuration = (r: ParseResult) => ({ ...r, summary: { ...r.summary, duration_ms: 0 } });

/** Many paragraphs: several estimated pages. */
function longText(paragraphs: number): string {
  return Array.from({ length: paragraphs }, (_, i) => `Paragraph ${i + 1}. ${"Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(6)}`).join("\n\n");
}

describe("LocalParser options", () => {
  it("pins the defaults documented in the TSDoc", () => {
    expect(LOCAL_PARSER_DEFAULTS).toEqual({ assetBaseUrl: undefined, fetchTimeoutMs: 30_000, pageImageDpi: 144, estimatedPageImages: undefined });
    expect(ENGINE_LIMIT_DEFAULTS).toEqual({
      maxBytes: 500 * 1024 * 1024,
      maxPages: 5000,
      maxUnzippedBytes: 1024 * 1024 * 1024,
      maxZipRatio: 200,
      timeoutMs: 600_000,
      maxImagePixels: 100_000_000,
      pdfThreads: Math.max(1, Math.min(2, availableParallelism() - 1)),
    });
    const parser = new LocalParser();
    expect(parser.name).toBe("local");
    expect(parser.limits).toEqual(ENGINE_LIMIT_DEFAULTS);
    expect(new LocalParser({ limits: { maxBytes: 10 } }).limits).toEqual({ ...ENGINE_LIMIT_DEFAULTS, maxBytes: 10 });
    expect(defaultAssetDirectory()).toMatch(/docparse-rag-assets$/);
    expect(parser.assets).toBeInstanceOf(DiskAssetStore);
  });

  it("refuses invalid limits with a clear message", () => {
    expect(() => new LocalParser({ limits: { timeoutMs: 0 } })).toThrow("Expected `limits.timeoutMs` to be a number > 0, got 0");
  });
});

describe("parse (Markdown and text)", () => {
  const parser = new LocalParser({ assets: new MemoryAssetStore() });

  it("parses English Markdown into a consistent, schema-valid result", async () => {
    const r = await parser.parse(Buffer.from(EN_MD), { filename: "report.md", config: ALL_CAPS });
    expectConsistentResult(r);
    expect(r.schema_version).toBe("1.4.0");
    expect(r.file_id).toBe(createHash("sha256").update(EN_MD).digest("hex"));
    expect(r.metadata).toMatchObject({ filename: "report.md", filetype: "text/markdown", page_count: 1 });
    expect(r.success_count).toBe(1);
    expect(r.elements.map((e) => e.type)).toEqual([
      "Title", "NarrativeText", "Title", "NarrativeText", "Table", "Title", "ListItem", "ListItem", "ListItem", "CodeSnippet", "Title", "NarrativeText",
    ]);
    const depth = r.elements.map((e) => e.metadata?.category_depth);
    expect(depth).toEqual([0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 1, 2]);
    expect(r.title_tree!.map((n) => n.title)).toEqual(["Annual Report"]);
    expect(r.title_tree![0]!.children.map((n) => [n.title, n.level])).toEqual([["Revenue", 2], ["Costs", 2]]);
    expect(r.markdown).toContain("# Annual Report\n\nThe company did well this year.\n\n## Revenue");
    expect(r.markdown).toContain("<table><thead><tr><th>Region</th><th>Revenue</th></tr></thead><tbody><tr><td>North</td><td>10</td></tr>");
    expect(r.markdown).toContain("- Product A\n  - Variant 1\n- Product B");
    const table = r.elements.find((e) => e.type === "Table")!;
    expect(table.text).toBe("Region Revenue\nNorth 10\nSouth 12");
    expect(table.table_structure).toMatchObject({ rows: 3, cols: 2 });
    expect(table.table_structure!.cells[0]).toMatchObject({ row: 1, col: 1, row_span: 1, col_span: 1, text: "Region" });
    expect(table.table_structure!.cells[0]!.coordinates).toHaveLength(8);
    const formula = r.elements[3]!;
    expect(formula.metadata).toMatchObject({ has_inline_objects: true, inline_object_types: ["formula"] });
    expect(formula.objects![0]).toMatchObject({ type: "formula", text: "r=0.2", metadata: { display_mode: "inline" } });
    const [s, e] = formula.objects![0]!.text_range;
    expect(formula.text.slice(s, e)).toBe("r=0.2");
    // The object's box is inside its element's, around its characters.
    const [ox0, oy0, , , ox1, oy1] = formula.objects![0]!.coordinates as number[];
    const [ex0, ey0, , , ex1, ey1] = formula.coordinates as number[];
    expect(ox0! >= ex0! && ox1! <= ex1! && oy0! >= ey0! && oy1! <= ey1! && ox1! > ox0!).toBe(true);
    expect(ox0).toBeCloseTo(formula.char_details![s!]!.coordinates[0]!);
    expect(r.elements[1]!.char_details).toHaveLength(r.elements[1]!.text.length);
    for (const el of r.elements) expect(el.metadata?.coordinates_estimated).toBe(true);
    expect(r.pages).toEqual([
      {
        page_number: 1,
        page_width: 1191,
        page_height: 1684,
        dpi: 144,
        angle: 0,
        status: "Success",
        element_ids: r.elements.map((x) => x.element_id),
      },
    ]);
  });

  it("parses Chinese text into a consistent, schema-valid result", async () => {
    const r = await parser.parse(Buffer.from(ZH_TXT), { filename: "办法.txt", config: ALL_CAPS });
    expectConsistentResult(r);
    expect(r.metadata).toMatchObject({ filetype: "text/plain", encoding: "utf-8" });
    expect(r.elements.map((e) => [e.type, e.text, e.metadata?.category_depth])).toEqual([
      ["Title", "第一章 总则", 0],
      ["NarrativeText", "为了规范公司财务管理，根据有关法律法规，制定本办法。", 1],
      ["NarrativeText", "本办法适用于公司全体员工。", 1],
      ["Title", "一、基本原则", 1],
      ["NarrativeText", "财务管理应当遵循以下原则：", 2],
      ["ListItem", "1. 合法合规", 2],
      ["ListItem", "2. 真实完整", 2],
      ["Title", "第二章 附则", 0],
      ["NarrativeText", "本办法自发布之日起施行。", 1],
    ]);
    expect(r.title_tree!.map((n) => [n.title, n.children.map((c) => c.title)])).toEqual([
      ["第一章 总则", ["一、基本原则"]],
      ["第二章 附则", []],
    ]);
    expect(r.markdown).toContain("# 第一章 总则\n\n为了规范公司财务管理");
  });

  it("is deterministic: same bytes, same result (ids included)", async () => {
    const a = await parser.parse(Buffer.from(EN_MD), { filename: "a.md", config: ALL_CAPS });
    const b = await new LocalParser({ assets: new MemoryAssetStore() }).parse(Buffer.from(EN_MD), { filename: "a.md", config: ALL_CAPS });
    expect(withoutDuration(b)).toEqual(withoutDuration(a));
    const other = await parser.parse(Buffer.from(EN_MD + "\nMore.\n"), { filename: "a.md" });
    expect(other.elements[0]!.element_id).not.toBe(a.elements[0]!.element_id);
  });

  it("round-trips its own markdown: the same elements come back (HTML tables included)", async () => {
    const config: ParseConfig = { capabilities: { include_table_structure: true } };
    const first = await parser.parse(Buffer.from(EN_MD), { filename: "a.md", config });
    const second = await parser.parse(Buffer.from(first.markdown!), { filename: "b.md", config });
    const shape = (r: ParseResult) => r.elements.map((e) => [e.type, e.text, e.metadata?.category_depth, e.table_structure?.cells.map((c) => [c.row, c.col, c.text])]);
    expect(shape(second)).toEqual(shape(first));
    expect(second.markdown).toBe(first.markdown);
  });

  it("links images the source only references: markdown and image_data use their address", async () => {
    const md = "![Logo](https://example.com/logo.png)\n\n![Local](img/x.png)\n";
    const r = await parser.parse(Buffer.from(md), { filename: "a.md", config: { capabilities: { include_image_data: true } } });
    expectConsistentResult(r);
    expect(r.elements.map((e) => e.image_data)).toEqual([{ mime_type: "image/png", image_url: "https://example.com/logo.png" }, { mime_type: "image/png" }]);
    expect(r.elements[0]!.metadata).not.toHaveProperty("width");
    expect(r.markdown).toBe("![Logo](https://example.com/logo.png)\n\nLocal\n");
  });

  it("gives each element the same id whatever the capabilities", async () => {
    const a = await parser.parse(Buffer.from(EN_MD), { filename: "a.md" });
    const b = await parser.parse(Buffer.from(EN_MD), { filename: "a.md", config: ALL_CAPS });
    expect(a.elements.map((e) => e.element_id)).toEqual(b.elements.map((e) => e.element_id));
  });
});

describe("capability gating", () => {
  const parser = new LocalParser({ assets: new MemoryAssetStore() });

  it("defaults: hierarchy on, everything else off", async () => {
    const r = await parser.parse(Buffer.from(EN_MD), { filename: "a.md" });
    expectConsistentResult(r);
    expect(r.pages).toBeUndefined();
    expect(r.title_tree).toBeUndefined();
    for (const el of r.elements) {
      expect(el.table_structure).toBeUndefined();
      expect(el.char_details).toBeUndefined();
      expect(el.objects).toBeUndefined();
      expect(el.image_data).toBeUndefined();
      expect(el.metadata?.has_inline_objects).toBeUndefined();
      expect(el.metadata?.category_depth).toBeTypeOf("number");
    }
    expect(r.elements[0]!.metadata?.children_ids?.length).toBeGreaterThan(0);
  });

  it("include_hierarchy: false removes parent_id, children_ids and category_depth", async () => {
    const r = await parser.parse(Buffer.from(EN_MD), { filename: "a.md", config: { capabilities: { include_hierarchy: false, title_tree: true } } });
    expectConsistentResult(r);
    for (const el of r.elements) {
      expect(el.metadata).not.toHaveProperty("parent_id");
      expect(el.metadata).not.toHaveProperty("children_ids");
      expect(el.metadata).not.toHaveProperty("category_depth");
    }
    // The title tree is still there: it is its own capability.
    expect(r.title_tree![0]!.children).toHaveLength(2);
  });

  it("table_view: markdown renders tables as pipe tables in the markdown only", async () => {
    const r = await parser.parse(Buffer.from(EN_MD), { filename: "a.md", config: { capabilities: { table_view: "markdown" } } });
    expect(r.markdown).toContain("| Region | Revenue |\n| --- | --- |\n| North | 10 |");
    expect(r.markdown).not.toContain("<table>");
    expect(r.elements.find((e) => e.type === "Table")!.text).toBe("Region Revenue\nNorth 10\nSouth 12");
  });
});

describe("config.scope.page_range (estimated pages)", () => {
  const parser = new LocalParser({ assets: new MemoryAssetStore() });
  const text = Buffer.from(longText(40));

  it("lays long text out on several A4 pages and keeps only the requested ones", async () => {
    const full = await parser.parse(text, { filename: "long.txt", config: { capabilities: { pages: true } } });
    expectConsistentResult(full);
    expect(full.metadata!.page_count).toBeGreaterThanOrEqual(3);
    expect(full.pages!.map((p) => p.page_number)).toEqual(Array.from({ length: full.metadata!.page_count! }, (_, i) => i + 1));
    const part = await parser.parse(text, { filename: "long.txt", config: { capabilities: { pages: true }, scope: { page_range: "2-3" } } });
    expectConsistentResult(part);
    expect(part.pages!.map((p) => p.page_number)).toEqual([2, 3]);
    expect(part.success_count).toBe(2);
    expect(part.metadata!.page_count).toBe(full.metadata!.page_count);
    const expected = full.elements.filter((e) => e.page_number === 2 || e.page_number === 3);
    expect(part.elements.map((e) => [e.element_id, e.text])).toEqual(expected.map((e) => [e.element_id, e.text]));
  });

  it("splits a paragraph that crosses a page into continued pieces, joined again in the markdown", async () => {
    const huge = "The quick brown fox jumps over the lazy dog. ".repeat(400).trim();
    const full = await parser.parse(Buffer.from(`Intro\n\n${huge}\n`), { filename: "long.txt" });
    expectConsistentResult(full);
    const pieces = full.elements.filter((e) => e.type === "NarrativeText");
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    pieces.slice(1).forEach((piece, i) => {
      expect(piece.metadata).toMatchObject({ is_continuation: true, continuation_of: pieces[i]!.element_id });
      expect(piece.page_number).toBe(pieces[i]!.page_number + 1);
    });
    expect(pieces.map((p) => p.text).join(" ")).toBe(huge);
    expect(full.markdown).toBe(`# Intro\n\n${huge}\n`);
  });

  it("splits a long table over pages, and the markdown still holds one table", async () => {
    const rows = Array.from({ length: 120 }, (_, i) => `| r${i} | v${i} |`).join("\n");
    const r = await parser.parse(Buffer.from(`| k | v |\n|---|---|\n${rows}\n`), { filename: "t.md", config: { capabilities: { include_table_structure: true } } });
    expectConsistentResult(r);
    const tables = r.elements.filter((e) => e.type === "Table");
    expect(tables.length).toBeGreaterThan(1);
    expect(tables.slice(1).every((t) => t.metadata?.is_continuation)).toBe(true);
    expect(tables.reduce((n, t) => n + t.table_structure!.rows, 0)).toBe(121);
    expect(r.markdown!.match(/<table>/g)).toHaveLength(1);
    expect(r.markdown).toContain("<td>r119</td>");
    // Only part of it in the range: that part is rendered.
    const part = await parser.parse(Buffer.from(`| k | v |\n|---|---|\n${rows}\n`), { filename: "t.md", config: { scope: { page_range: "2" } } });
    expect(part.markdown!.match(/<table>/g)).toHaveLength(1);
    expect(part.markdown).not.toContain("<td>r0</td>");
  });

  it("keeps inline objects with the piece of a split paragraph they fall in", async () => {
    const sentence = "The value $x_1$ matters here. ";
    const md = sentence.repeat(600);
    const r = await parser.parse(Buffer.from(md), { filename: "f.md", config: { capabilities: { include_inline_objects: true } } });
    expectConsistentResult(r);
    expect(r.elements.length).toBeGreaterThan(1);
    let total = 0;
    for (const el of r.elements) {
      for (const o of el.objects ?? []) {
        expect(el.text.slice(o.text_range[0], o.text_range[1])).toBe("x_1");
        expect(o.coordinates).toHaveLength(8);
        total++;
      }
    }
    expect(total).toBeGreaterThan(590);
  });

  it("splits Chinese text at any character and joins it back without spaces", async () => {
    const huge = "中文段落没有空格，换行可以发生在任何字符之间。".repeat(300);
    const full = await parser.parse(Buffer.from(huge), { filename: "zh.txt" });
    expectConsistentResult(full);
    expect(full.elements.length).toBeGreaterThanOrEqual(2);
    expect(full.elements.map((e) => e.text).join("")).toBe(huge);
    expect(full.markdown).toBe(`${huge}\n`);
  });

  it("refuses more estimated pages than limits.maxPages, unless page_range narrows them", async () => {
    const small = new LocalParser({ assets: new MemoryAssetStore(), limits: { maxPages: 2 } });
    expect(await code(small.parse(text, { filename: "long.txt" }))).toBe("DOCPARSE_LIMIT_EXCEEDED");
    const part = await small.parse(text, { filename: "long.txt", config: { scope: { page_range: "1-2" } } });
    expect(new Set(part.elements.map((e) => e.page_number))).toEqual(new Set([1, 2]));
  });

  it("refuses a page_range beyond the document with 40424", async () => {
    expect(await code(parser.parse(text, { filename: "long.txt", config: { scope: { page_range: "99-100" } } }))).toBe(40424);
  });
});

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): [number, number] {
  const b = Buffer.from(bytes);
  expect(b.subarray(1, 4).toString("latin1")).toBe("PNG");
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

describe("estimated page images", () => {
  it("draws a page of a text document on demand, at the page's size, and caches it", async () => {
    const store = new MemoryAssetStore();
    const parser = new LocalParser({ assets: store, assetBaseUrl: "http://h/assets", estimatedPageImages: true });
    const r = await parser.parse(Buffer.from(ZH_TXT), { filename: "z.txt", config: { capabilities: { pages: true } } });
    expect(r.pages![0]!.page_image_url).toBe(`http://h/assets/${r.file_id}/page-1.png`);
    expect(await store.has(r.file_id, "layout-1.json")).toBe(true);
    expect(await store.has(r.file_id, "page-1.png")).toBe(false);
    const image = await parser.pageImage(r.file_id, 1);
    expect(pngSize(image!.bytes)).toEqual([1191, 1684]);
    expect(await store.get(r.file_id, "page-1.png")).toEqual(image!.bytes);
    expect(await parser.pageImage(r.file_id, 2)).toBeUndefined();
    const small = await new LocalParser({ assets: store, pageImageDpi: 72, estimatedPageImages: true }).asset(r.file_id, "page-1.png");
    expect(small).toEqual(image); // cached: the dpi applies when a page is first drawn
  });

  it("draws each element's text inside its coordinates, and nothing in the margins", async () => {
    const { createCanvas, loadImage } = await import("@napi-rs/canvas");
    const parser = new LocalParser({ assets: new MemoryAssetStore(), estimatedPageImages: true });
    const r = await parser.parse(Buffer.from(EN_MD + "\n" + ZH_TXT), { filename: "mix.md", config: { capabilities: { pages: true } } });
    const image = (await parser.pageImage(r.file_id, 1))!;
    const img = await loadImage(Buffer.from(image.bytes));
    const canvas = createCanvas(img.width, img.height);
    const g = canvas.getContext("2d");
    g.drawImage(img, 0, 0);
    const { data, width, height } = g.getImageData(0, 0, img.width, img.height);
    const dark = (x0: number, y0: number, x1: number, y1: number) => {
      let n = 0;
      for (let y = Math.floor(y0 * height); y < Math.ceil(y1 * height); y++)
        for (let x = Math.floor(x0 * width); x < Math.ceil(x1 * width); x++) if (data[(y * width + x) * 4]! < 128) n++;
      return n;
    };
    const onPage = r.elements.filter((e) => e.page_number === 1);
    expect(onPage.length).toBeGreaterThan(5);
    for (const e of onPage) {
      const [x0, y0, , , x1, y1] = e.coordinates as [number, number, number, number, number, number];
      expect(dark(x0, y0, x1, y1), `${e.type} "${e.text.slice(0, 20)}"`).toBeGreaterThan(0);
    }
    // The right margin holds nothing, and almost all ink is inside element boxes (bullets
    // are drawn left of their item's text, outside its box).
    expect(dark(0.9, 0, 1, 1)).toBe(0);
    const inside = new Set<number>();
    for (const e of onPage) {
      const [x0, y0, , , x1, y1] = e.coordinates as [number, number, number, number, number, number];
      for (let y = Math.floor(y0 * height); y < Math.ceil(y1 * height); y++)
        for (let x = Math.floor(x0 * width); x < Math.ceil(x1 * width); x++) if (data[(y * width + x) * 4]! < 128) inside.add(y * width + x);
    }
    expect(inside.size / dark(0, 0, 1, 1)).toBeGreaterThan(0.97);
  });

  it("draws a document's own images into their boxes", async () => {
    const { createCanvas, loadImage } = await import("@napi-rs/canvas");
    const red = createCanvas(40, 20);
    const rg = red.getContext("2d");
    rg.fillStyle = "#ff0000";
    rg.fillRect(0, 0, 40, 20);
    const png = new Uint8Array(red.toBuffer("image/png"));
    const parser = new LocalParser({ assets: new MemoryAssetStore(), estimatedPageImages: true });
    const md = `# Chart\n\n![red](data:image/png;base64,${Buffer.from(png).toString("base64")})\n`;
    const r = await parser.parse(Buffer.from(md), { filename: "c.md", config: { capabilities: { pages: true } } });
    const image = r.elements.find((e) => e.type === "Image")!;
    const page = await loadImage(Buffer.from((await parser.pageImage(r.file_id, 1))!.bytes));
    const c = createCanvas(page.width, page.height);
    const g = c.getContext("2d");
    g.drawImage(page, 0, 0);
    const [x0, y0, , , x1, y1] = image.coordinates as [number, number, number, number, number, number];
    const [rr, gg, bb] = g.getImageData(Math.round(((x0 + x1) / 2) * page.width), Math.round(((y0 + y1) / 2) * page.height), 1, 1).data;
    expect([rr, gg, bb]).toEqual([255, 0, 0]);
  });

  it("is off by default in process, on by default behind an assetBaseUrl (a server)", async () => {
    const store = new MemoryAssetStore();
    const config: ParseConfig = { capabilities: { pages: true } };
    const r = await new LocalParser({ assets: store }).parse(Buffer.from(EN_MD), { filename: "a.md", config });
    expect(r.pages![0]!.page_image_url).toBeUndefined();
    expect(store.size).toBe(0);
    const served = await new LocalParser({ assets: store, assetBaseUrl: "http://h/a" }).parse(Buffer.from(EN_MD), { filename: "a.md", config });
    expect(served.pages![0]!.page_image_url).toBe(`http://h/a/${served.file_id}/page-1.png`);
    const off = await new LocalParser({ assets: new MemoryAssetStore(), assetBaseUrl: "http://h/a", estimatedPageImages: false }).parse(Buffer.from(EN_MD), { filename: "a.md", config });
    expect(off.pages![0]!.page_image_url).toBeUndefined();
  });

  it("drops a cached page image when the stored layout of that page changes", async () => {
    const store = new MemoryAssetStore();
    const parser = new LocalParser({ assets: store, estimatedPageImages: true });
    const first = await parser.parse(Buffer.from(EN_MD), { filename: "a.md", config: { capabilities: { pages: true } } });
    await store.put(first.file_id, "layout-1.json", new TextEncoder().encode('{"v":1,"width":1,"height":1,"items":[]}'));
    await store.put(first.file_id, "page-1.png", new Uint8Array([1]));
    await parser.parse(Buffer.from(EN_MD), { filename: "a.md", config: { capabilities: { pages: true } } });
    expect(await store.has(first.file_id, "page-1.png")).toBe(false);
    // An unchanged layout keeps the cache.
    await store.put(first.file_id, "page-1.png", new Uint8Array([2]));
    await parser.parse(Buffer.from(EN_MD), { filename: "a.md", config: { capabilities: { pages: true } } });
    expect(await store.get(first.file_id, "page-1.png")).toEqual(new Uint8Array([2]));
  });

  it("stores nothing when pages are not requested", async () => {
    const store = new MemoryAssetStore();
    await new LocalParser({ assets: store, estimatedPageImages: true }).parse(Buffer.from(EN_MD), { filename: "a.md", config: ALL_CAPS_NO_PAGES });
    expect(store.size).toBe(0);
  });
});

describe("errors", () => {
  it("40004 for an invalid config, with the issues", async () => {
    const parser = new LocalParser({ assets: new MemoryAssetStore() });
    const err = (await parser.parse(Buffer.from("x"), { config: { capabilities: { pages: "yes" } } as unknown as ParseConfig }).catch((e: unknown) => e)) as DocParseError;
    expect(err.code).toBe(40004);
    expect(err.message).toContain("capabilities.pages");
    expect(err.issues?.length).toBeGreaterThan(0);
    expect(await code(parser.parse(Buffer.from("x"), { config: { scope: { page_range: "0-2" } } }))).toBe(40004);
  });

  it("40305 for empty input and a missing path; 40302 over maxBytes", async () => {
    const parser = new LocalParser({ limits: { maxBytes: 16 }, assets: new MemoryAssetStore() });
    expect(await code(parser.parse(new Uint8Array(0)))).toBe(40305);
    expect(await code(parser.parse("/nonexistent/file.txt"))).toBe(40305);
    expect(await code(parser.parse(Buffer.from("x".repeat(17))))).toBe(40302);
    expect(await code(parser.parse(Readable.from([Buffer.from("x".repeat(10)), Buffer.from("y".repeat(10))])))).toBe(40302);
    expect(await code(parser.parse(new Blob(["z".repeat(17)])))).toBe(40302);
  });

  it("40303 for unknown content, 40425 for a known format without a handler", async () => {
    const parser = new LocalParser({ assets: new MemoryAssetStore(), formats: { pdf: null } });
    expect(await code(parser.parse(new Uint8Array(Array.from({ length: 256 }, (_, i) => (i * 31) % 256)), { filename: "x.bin" }))).toBe(40303);
    expect(await code(parser.parse(Buffer.from("%PDF-1.7\n%%EOF"), { filename: "a.pdf" }))).toBe(40425);
  });

  it("40422 when a handler's library throws on bad bytes", async () => {
    const parser = new LocalParser({ assets: new MemoryAssetStore(), formats: { txt: async () => throwingFormat } });
    const err = (await parser.parse(Buffer.from("hello"), { filename: "a.txt" }).catch((e: unknown) => e)) as DocParseError;
    expect(err.code).toBe(40422);
    expect(err.cause).toBeInstanceOf(TypeError);
  });

  it("DOCPARSE_TIMEOUT when a document takes longer than limits.timeoutMs", async () => {
    const parser = new LocalParser({ limits: { timeoutMs: 50 }, formats: { txt: async () => hangingFormat } });
    expect(await code(parser.parse(Buffer.from("hello"), { filename: "a.txt" }))).toBe("DOCPARSE_TIMEOUT");
  });

  it("DOCPARSE_TIMEOUT also when a handler never yields to the event loop", async () => {
    const parser = new LocalParser({ limits: { timeoutMs: 30 }, formats: { txt: async () => busyFormat } });
    expect(await code(parser.parse(Buffer.from("hello"), { filename: "a.txt" }))).toBe("DOCPARSE_TIMEOUT");
  });

  it("DOCPARSE_ABORTED when the signal aborts, before or during the parse", async () => {
    const parser = new LocalParser({ formats: { txt: async () => hangingFormat } });
    expect(await code(parser.parse(Buffer.from("hello"), { filename: "a.txt", signal: AbortSignal.abort() }))).toBe("DOCPARSE_ABORTED");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    expect(await code(parser.parse(Buffer.from("hello"), { filename: "a.txt", signal: controller.signal }))).toBe("DOCPARSE_ABORTED");
  });
});

describe("inputs", () => {
  const dir = tempDir();
  let server: ReturnType<typeof createServer>;
  let base = "";
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.setHeader("content-type", "text/markdown");
      if (req.url === "/raw") {
        res.end("Just *one* line of text");
        return;
      }
      res.setHeader("content-disposition", 'attachment; filename="remote.md"');
      res.end(EN_MD);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    dir.cleanup();
  });

  it("reads a path, a Blob, a File, a Readable and bytes to the same result", async () => {
    const parser = new LocalParser({ assets: new MemoryAssetStore() });
    const path = join(dir.path, "doc.md");
    writeFileSync(path, EN_MD);
    const fromPath = await parser.parse(path);
    expect(fromPath.metadata!.filename).toBe("doc.md");
    const fromBytes = await parser.parse(Buffer.from(EN_MD), { filename: "doc.md" });
    const fromBlob = await parser.parse(new Blob([EN_MD]), { filename: "doc.md" });
    const fromFile = await parser.parse(new File([EN_MD], "doc.md"));
    const fromStream = await parser.parse(Readable.from([Buffer.from(EN_MD.slice(0, 10)), Buffer.from(EN_MD.slice(10))]), { filename: "doc.md" });
    const fromArrayBuffer = await parser.parse(new TextEncoder().encode(EN_MD).buffer as unknown as Uint8Array, { filename: "doc.md" });
    for (const r of [fromBytes, fromBlob, fromFile, fromStream, fromArrayBuffer]) expect(withoutDuration(r)).toEqual(withoutDuration(fromPath));
  });

  it("fetches { url } through the address guard (127.0.0.1 only when allow-listed)", async () => {
    const allowed = new LocalParser({ assets: new MemoryAssetStore(), urlPolicy: { allowedHosts: ["127.0.0.1"] } });
    const r = await allowed.parse({ url: `${base}/files/x` });
    expect(r.metadata!.filename).toBe("remote.md");
    expect(r.elements[0]!.text).toBe("Annual Report");
    // The source is recorded, without query tokens (URLs with credentials are refused by the guard).
    const withSecrets = await allowed.parse({ url: `${base}/files/x?token=secret#f` });
    expect(withSecrets.metadata!.data_source).toEqual({ url: `${base}/files/x`, record_locator: { protocol: "http", remote_file_path: `${base}/files/x` } });
    // No name, no extension: the content type decides between text formats.
    const raw = await allowed.parse({ url: `${base}/raw` });
    expect(raw.metadata!.filetype).toBe("text/markdown");
    expect(raw.elements[0]!.text).toBe("Just one line of text");
    const guarded = new LocalParser({ assets: new MemoryAssetStore() });
    expect(await code(guarded.parse({ url: `${base}/files/x` }))).toBe("DOCPARSE_FORBIDDEN_ADDRESS");
  });
});

describe("formats with real pages (through the FormatHandler port)", () => {
  const pdfBytes = Buffer.from("%PDF-1.7\nfake\n%%EOF");

  it("keeps real geometry, links continuations and captions, gates pages and images", async () => {
    const store = new MemoryAssetStore();
    const parser = new LocalParser({ assets: store, assetBaseUrl: "http://h:1/api/v1/docparse/assets/", formats: { pdf: async () => pagedFormat() } });
    const r = await parser.parse(pdfBytes, { filename: "a.pdf", config: ALL_CAPS });
    expectConsistentResult(r);
    expect(r.metadata).toMatchObject({ filetype: "application/pdf", page_count: 3 });
    const [title, intro, , table, image, caption, tableCont, nobox] = r.elements;
    expect(title!.coordinates).toEqual([0.1, 0.1, 0.5, 0.1, 0.5, 0.15, 0.1, 0.15]);
    expect(title!.metadata).not.toHaveProperty("coordinates_estimated");
    expect(nobox!.metadata?.coordinates_estimated).toBe(true);
    expect(nobox!.coordinates).toEqual([0, 0, 1, 0, 1, 1, 0, 1]);
    expect(tableCont!.metadata).toMatchObject({ is_continuation: true, continuation_of: table!.element_id });
    expect(image!.metadata).toMatchObject({ ref_element_id: caption!.element_id, width: 1, height: 1 });
    expect(caption!.metadata?.ref_element_id).toBe(image!.element_id);
    expect(intro!.char_details![0]).toMatchObject({ index: 0, text: "I", recognition: { confidence: 0.9 } });
    expect(table!.table_structure!.cells[2]).toMatchObject({ row: 2, col: 1, col_span: 2, row_span: 1 });
    expect(r.markdown).toContain('<td colspan="2">a</td>');
    const fileId = r.file_id;
    expect(image!.image_data).toEqual({ mime_type: "image/png", image_url: `http://h:1/api/v1/docparse/assets/${fileId}/img-0.png` });
    expect(r.markdown).toContain(`![](http://h:1/api/v1/docparse/assets/${fileId}/img-0.png)`);
    expect(r.pages!.map((p) => p.page_image_url)).toEqual([1, 2, 3].map((n) => `http://h:1/api/v1/docparse/assets/${fileId}/page-${n}.png`));
    expect(await store.get(fileId, "img-0.png")).toEqual(TINY_PNG);
  });

  it("renders page images on demand, once, and caches them", async () => {
    const handler = pagedFormat();
    const dir = tempDir();
    try {
      const store = new DiskAssetStore({ directory: dir.path });
      const parser = new LocalParser({ assets: store, formats: { pdf: async () => handler } });
      const r = await parser.parse(pdfBytes, { filename: "a.pdf", config: { capabilities: { pages: true } } });
      const url = r.pages![1]!.page_image_url!;
      expect(url).toMatch(/^file:\/\/.*page-2\.png$/);
      expect(existsSync(fileURLToPath(url))).toBe(false);
      expect(handler.renders).toEqual([]);
      const [a, b] = await Promise.all([parser.pageImage(r.file_id, 2), parser.pageImage(r.file_id, 2)]);
      expect(a).toEqual({ bytes: TINY_PNG, mimeType: "image/png" });
      expect(b).toEqual(a);
      expect(await parser.pageImage(r.file_id, 2)).toEqual(a);
      expect(await parser.renderPage(r.file_id, 2)).toEqual(a);
      expect(handler.renders).toEqual([2]);
      expect(existsSync(fileURLToPath(url))).toBe(true);
      // A second parser on the same store (a restarted server) still serves it.
      expect(await new LocalParser({ assets: store }).pageImage(r.file_id, 2)).toEqual(a);
      expect(await code(parser.pageImage(r.file_id, 9))).toBe(40424);
      expect(await parser.pageImage("0".repeat(64), 1)).toBeUndefined();
      expect(await parser.asset(r.file_id, "../../etc/passwd")).toBeUndefined();
    } finally {
      dir.cleanup();
    }
  });

  it("renders pages of a protected document with the password of its parse (kept in memory only)", async () => {
    const handler = pagedFormat();
    const store = new MemoryAssetStore();
    const parser = new LocalParser({ assets: store, formats: { pdf: async () => handler } });
    const r = await parser.parse(pdfBytes, { config: { document: { password: "s3cret" }, capabilities: { pages: true } } });
    await parser.pageImage(r.file_id, 1);
    expect(handler.passwords).toEqual(["s3cret"]);
    const stored = await Promise.all(["source", "source.json"].map((n) => store.get(r.file_id, n)));
    for (const bytes of stored) expect(Buffer.from(bytes!).includes("s3cret")).toBe(false);
  });

  it("does no asset work the request did not ask for; base64 images stay inline", async () => {
    const store = new MemoryAssetStore();
    const parser = new LocalParser({ assets: store, formats: { pdf: async () => pagedFormat() } });
    const plain = await parser.parse(pdfBytes, { filename: "a.pdf" });
    expect(store.size).toBe(0);
    expect(plain.elements.find((e) => e.type === "Image")!.image_data).toBeUndefined();
    const inline = await parser.parse(pdfBytes, { config: { capabilities: { include_image_data: true }, config: { engine_params: { image_output_type: "base64" } } } });
    expect(store.size).toBe(0);
    expect(inline.elements.find((e) => e.type === "Image")!.image_data).toEqual({ mime_type: "image/png", base64: Buffer.from(TINY_PNG).toString("base64") });
  });

  it("marks a partial result and the failed page", async () => {
    const parser = new LocalParser({ assets: new MemoryAssetStore(), formats: { pdf: async () => pagedFormat({ failPage: 2 }) } });
    const r = await parser.parse(pdfBytes, { config: { capabilities: { pages: true } } });
    expect(r.partial).toBe(true);
    expect(r.success_count).toBe(2);
    expect(r.pages!.map((p) => [p.page_number, p.status])).toEqual([[1, "Success"], [2, "Failed"], [3, "Success"]]);
  });

  it("applies page_range through the handler, with the same ids as a full parse", async () => {
    const parser = new LocalParser({ assets: new MemoryAssetStore(), formats: { pdf: async () => pagedFormat() } });
    const full = await parser.parse(pdfBytes);
    const part = await parser.parse(pdfBytes, { config: { scope: { page_range: "3" }, capabilities: { pages: true } } });
    expectConsistentResult(part);
    expect(part.elements.map((e) => e.element_id)).toEqual(full.elements.filter((e) => e.page_number === 3).map((e) => e.element_id));
    // The continued table's first piece is outside the range: no dangling link.
    expect(part.elements[0]!.metadata).not.toHaveProperty("continuation_of");
    expect(await code(parser.parse(pdfBytes, { config: { scope: { page_range: "4" } } }))).toBe(40424);
  });
});
