import type { Element, ParseResult } from "../../../src/wire/index.js";

/** A box on the page, row `i` of a 40-row grid. */
export function box(i = 0): number[] {
  const y = 0.05 + (i % 40) * 0.02;
  return [0.1, y, 0.9, y, 0.9, y + 0.015, 0.1, y + 0.015];
}

let n = 0;

/** An element with defaults for what the test does not care about. */
export function el(type: string, text: string, extra: Partial<Element> = {}): Element {
  return { element_id: `x${n++}`, type, text, page_number: 1, coordinates: box(n), ...extra };
}

/** A parse result around elements. */
export function result(elements: Element[], extra: Partial<ParseResult> = {}): ParseResult {
  return { schema_version: "1.4.0", file_id: "file-1", job_id: "job-1", metadata: { filename: "doc.pdf", filetype: "application/pdf" }, elements, ...extra };
}
