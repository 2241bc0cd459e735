import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { chunkDocumentWithReport, type Chunk } from "../../src/chunk/index.js";
import { LocalParser } from "../../src/engine/index.js";
import type { ParseResult } from "../../src/wire/index.js";

/** Chunking what the local engine really produces (Markdown in, parse result out). */
const rows = Array.from({ length: 40 }, (_, i) => `| SKU-${i} | ${i * 3} | ${i % 2 ? "in stock" : "backorder"} |`).join("\n");
const markdown = `# Product Handbook

The handbook explains how products are stocked, priced and returned.

## Inventory

Inventory is counted every night. Counts that differ from the system by more than two percent are reviewed by a person the next morning.

| SKU | Units | Status |
|---|---|---|
${rows}

## Returns

${Array.from({ length: 25 }, (_, i) => `Return rule ${i}: items must be unused and in their original packaging, with the receipt.`).join(" ")}

# 第二部分 售后服务

## 保修

本产品自购买之日起保修一年。保修期内，因质量问题造成的故障免费维修。人为损坏不在保修范围内。

## 联系方式

- 客服电话：400-000-0000
- 工作时间：周一至周五 9:00-18:00
`;

async function parse(): Promise<ParseResult> {
  return new LocalParser().parse(Buffer.from(markdown), { filename: "handbook.md", config: { capabilities: { include_table_structure: true } } });
}

const squash = (s: string) => s.replace(/\s+/g, "").replace(/<[^>]+>/g, "").replace(/\|/g, "").replace(/-{3,}/g, "");

describe("chunkDocument on LocalParser output", () => {
  it("keeps hierarchy, tables and coverage on real engine output", async () => {
    const result = await parse();
    const { chunks, warnings } = chunkDocumentWithReport(result, { maxTokens: 160 });
    expect(warnings).toEqual([]);
    expect(chunks.length).toBeGreaterThan(4);
    const all = squash(chunks.map((c) => c.text).join(""));
    for (const e of result.elements) if (e.type !== "Table") expect(all).toContain(squash(e.text));
    // Table body rows exactly once, across pieces that each repeat the header.
    for (let i = 0; i < 40; i++) expect(chunks.filter((c) => c.text.includes(`<td>SKU-${i}</td>`))).toHaveLength(1);
    const table = chunks.filter((c) => c.metadata.table);
    expect(table.length).toBeGreaterThan(1);
    for (const c of table) {
      expect(c.text).toContain("<th>SKU</th>");
      expect(c.metadata.headingPath).toEqual(["Product Handbook", "Inventory"]);
    }
    const zh = chunks.find((c) => c.text.includes("保修一年"))!;
    expect(zh.metadata.headingPath).toEqual(["第二部分 售后服务", "保修"]);
    check(chunks, 160);
  });

  it("gives the same ids for the same document parsed twice", async () => {
    const a = chunkDocumentWithReport(await parse()).chunks.map((c) => c.id);
    const b = chunkDocumentWithReport(await parse()).chunks.map((c) => c.id);
    expect(b).toEqual(a);
  });
});

describe("chunkDocument on LocalParser PDF output", () => {
  it("narrows the regions of split elements with the engine's char_details", { timeout: 120_000 }, async () => {
    const pdf = fileURLToPath(new URL("../../examples/docs/en/warranty-terms.pdf", import.meta.url));
    const result = await new LocalParser().parse(pdf, { config: { capabilities: { include_char_details: true } } });
    expect(result.elements.some((e) => (e.char_details?.length ?? 0) > 0)).toBe(true);
    const { chunks, warnings } = chunkDocumentWithReport(result, { maxTokens: 40, minTokens: 0 });
    expect(warnings).toEqual([]);
    check(chunks, 40);
    const split = chunks.filter((c) => c.metadata.elementIds.length === 1 && chunks.filter((d) => d.metadata.elementIds.includes(c.metadata.elementIds[0]!)).length > 1);
    expect(split.length).toBeGreaterThan(1);
    for (const c of split) {
      const region = c.metadata.regions[0]!;
      expect(region.approximate).toBeUndefined();
      const element = result.elements.find((e) => e.element_id === region.elementId)!;
      // Narrowed: inside the element's box.
      expect(region.coordinates[0]!).toBeGreaterThanOrEqual(element.coordinates[0]! - 1e-9);
      expect(region.coordinates[5]!).toBeLessThanOrEqual(element.coordinates[5]! + 1e-9);
    }
    // Page numbers come from the engine's pages.
    expect(new Set(chunks.flatMap((c) => c.metadata.pages))).toEqual(new Set(result.elements.map((e) => e.page_number)));
  });
});

function check(chunks: Chunk[], max: number): void {
  for (const c of chunks) {
    if (!c.metadata.oversized) expect(c.metadata.tokens).toBeLessThanOrEqual(max);
    for (const r of c.metadata.regions) {
      expect(c.metadata.elementIds).toContain(r.elementId);
      expect(c.metadata.pages).toContain(r.page);
      expect(r.coordinates).toHaveLength(8);
    }
  }
}
