import { describe, expect, it } from "vitest";
import { chunkDocument, chunkDocumentWithReport } from "../../src/chunk/chunk-document.js";
import { renderText, toSourceRange } from "../../src/chunk/inline-objects.js";
import { toNodes } from "../../src/chunk/nodes.js";
import type { Element } from "../../src/wire/index.js";
import { el, result } from "./support/elements.js";

const render = (e: Element) => renderText(toNodes([e], () => {})[0]!, () => {});

describe("renderText", () => {
  const text = "Energy E=mc2 and 手写体 here.";
  const e = el("NarrativeText", text, {
    objects: [
      { object_id: "f", type: "formula", text: "E=mc^2", text_range: [7, 12], metadata: { display_mode: "inline" } },
      { object_id: "h", type: "handwriting", text: "手写体", text_range: [17, 20], metadata: {} },
    ],
  });

  it("wraps inline formulas in $...$ and keeps handwriting text", () => {
    expect(render(e).text).toBe("Energy $E=mc^2$ and 手写体 here.");
  });

  it("uses $$...$$ for display formulas and whole Formula elements, and leaves $-delimited text alone", () => {
    expect(render(el("Formula", "\\int_0^1 x\\,dx")).text).toBe("$$\\int_0^1 x\\,dx$$");
    expect(render(el("Formula", "$$a+b$$")).text).toBe("$$a+b$$");
    const d = el("NarrativeText", "see x+y now", { objects: [{ type: "formula", text: "x+y", text_range: [4, 7], metadata: { display_mode: "display" } }] });
    expect(render(d).text).toBe("see $$x+y$$ now");
  });

  it("maps rendered offsets back to the element's text", () => {
    const r = render(e);
    const at = r.text.indexOf("$E=mc^2$");
    expect(toSourceRange(r, at, at + "$E=mc^2$".length)).toEqual([7, 12]);
    expect(toSourceRange(r, 0, 6)).toEqual([0, 6]);
    const and = r.text.indexOf("and");
    expect(toSourceRange(r, and, and + 3)).toEqual([13, 16]);
  });

  it("ignores bad or overlapping ranges with a warning, never throws", () => {
    const warnings: string[] = [];
    const bad = el("NarrativeText", "short", {
      objects: [
        { type: "formula", text: "x", text_range: [3, 99] },
        { type: "formula", text: "y", text_range: [2] },
        { type: "formula", text: "a", text_range: [0, 2] },
        { type: "formula", text: "b", text_range: [1, 3] },
      ],
    });
    const r = renderText(toNodes([bad], () => {})[0]!, (w) => warnings.push(w.code));
    expect(r.text).toBe("$a$ort");
    expect(warnings).toEqual(["inline_object_range", "inline_object_range", "inline_object_overlap"]);
  });
});

describe("result.inlineObjects", () => {
  it("maps each object's range into the chunk text", () => {
    const e = el("NarrativeText", "Energy E=mc2 is famous.", {
      element_id: "p",
      objects: [{ object_id: "f1", type: "formula", text: "E=mc^2", text_range: [7, 12], metadata: { display_mode: "inline" } }],
    });
    const [c] = chunkDocument(result([el("Title", "Physics", { element_id: "t" }), e]));
    const o = c!.metadata.inlineObjects![0]!;
    expect(o).toMatchObject({ elementId: "p", objectId: "f1", type: "formula" });
    expect(c!.text.slice(o.textRange[0], o.textRange[1])).toBe("$E=mc^2$");
  });

  it("maps ranges in every piece of a split element", () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`).join(" ");
    const objects = [10, 100, 190].map((i) => {
      const at = words.indexOf(` w${i} `) + 1;
      return { object_id: `o${i}`, type: "formula", text: `x_{${i}}`, text_range: [at, at + `w${i}`.length] };
    });
    const { chunks } = chunkDocumentWithReport(result([el("NarrativeText", words, { objects })]), { maxTokens: 64, tokenizer: "approximate" });
    const found = chunks.flatMap((c) => (c.metadata.inlineObjects ?? []).map((o) => c.text.slice(o.textRange[0], o.textRange[1])));
    expect(found).toEqual(["$x_{10}$", "$x_{100}$", "$x_{190}$"]);
  });
});
