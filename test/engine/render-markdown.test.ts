import { describe, expect, it } from "vitest";
import type { DraftElement } from "../../src/engine/draft.js";
import { renderMarkdown } from "../../src/engine/render-markdown.js";

const item = (text: string, listLevel = 0): { element: DraftElement } => ({ element: { type: "ListItem", text, page: 1, listLevel } });

describe("renderMarkdown: list items", () => {
  it("keeps an item's own marker (Markdown's, or the document's bullet glyph) and gives the others a dash", () => {
    const md = renderMarkdown([item("● Live in six weeks"), item("– Vendor lock-in risk", 1), item("1. Unload the truck"), item("Plain item text")], "html");
    expect(md).toBe("● Live in six weeks\n  – Vendor lock-in risk\n1. Unload the truck\n- Plain item text\n");
  });
});
