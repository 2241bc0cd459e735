import type { Element, ParseResult } from "../../../src/wire/index.js";

/**
 * Builds parse results for property tests and the benchmark. Every word is unique
 * (`w<n>` / Chinese text around `z<n>` markers), so a test can count where each went.
 */

/** A planned item; the builder turns a list of them into elements. */
export type Item =
  | { kind: "title"; level: number; words: number }
  | { kind: "para"; words: number; chinese?: boolean; formula?: boolean; chars?: boolean }
  | { kind: "list"; words: number }
  | { kind: "table"; rows: number; cols: number; span?: boolean; form: "structure" | "html" | "markdown" | "plain"; caption?: boolean }
  | { kind: "image"; words: number; caption?: boolean }
  | { kind: "noise" }
  | { kind: "continue" }
  | { kind: "page" };

export interface BuildOptions {
  /** `tree`: parent_id/children_ids/category_depth; `depth`: category_depth only; `none`; `broken`: dangling parents. */
  hierarchy: "tree" | "depth" | "none" | "broken";
}

/** What the builder knows, for checks. */
export interface Built {
  result: ParseResult;
  /** Words of each kept non-table element, by element id. */
  words: Map<string, string[]>;
  /** Table body cell words (must appear exactly once) and header cell words. */
  tableBody: Set<string>;
  tableHeader: Set<string>;
  /** Body words of cells spanning two rows (Markdown repeats them in the covered row). */
  tableSpanned: Set<string>;
  /** Element id → the id of the title that opens its section at each heading level (1-based index). */
  sectionTitle: (elementId: string, headingLevel: number) => string;
  /** Title id → its ancestor title ids (root first). */
  titleAncestors: Map<string, string[]>;
}

const CJK_FILLER = ["这是", "一个", "关于", "文档", "解析", "的", "句子", "表格", "标题", "段落"];

export function buildResult(items: readonly Item[], opts: BuildOptions): Built {
  let wordNo = 0;
  const word = () => `w${wordNo++}`;
  const words = (n: number) => Array.from({ length: Math.max(1, n) }, word);
  const elements: Element[] = [];
  const wordMap = new Map<string, string[]>();
  const tableBody = new Set<string>();
  const tableHeader = new Set<string>();
  const tableSpanned = new Set<string>();
  const stack: { id: string; level: number }[] = [];
  const ancestorsOf = new Map<string, string[]>();
  const titleOf = new Map<string, { id: string; level: number }[]>();
  let page = 1;
  let y = 0.05;
  let id = 0;
  const box = () => {
    const y0 = y;
    y += 0.02;
    if (y > 0.95) {
      y = 0.05;
    }
    return [0.1, y0, 0.9, y0, 0.9, y0 + 0.015, 0.1, y0 + 0.015];
  };
  const push = (el: Omit<Element, "element_id" | "page_number" | "coordinates">, keepWords?: string[]) => {
    const eid = `e${id++}`;
    const full = { element_id: eid, page_number: page, coordinates: box(), ...el } as Element;
    elements.push(full);
    if (keepWords) wordMap.set(eid, keepWords);
    titleOf.set(eid, [...stack]);
    return full;
  };
  let lastContinuable: Element | undefined;
  for (const item of items) {
    switch (item.kind) {
      case "page":
        page++;
        y = 0.05;
        break;
      case "title": {
        const w = words(item.words);
        while (stack.length > 0 && stack[stack.length - 1]!.level >= item.level) stack.pop();
        ancestorsOf.set(`e${id}`, stack.map((s) => s.id));
        const el = push({ type: "Title", text: w.join(" "), metadata: { category_depth: item.level - 1 } }, w);
        stack.push({ id: el.element_id, level: item.level });
        titleOf.set(el.element_id, [...stack]);
        lastContinuable = undefined;
        break;
      }
      case "para":
      case "list": {
        const w = words(item.words);
        let text: string;
        const el: Partial<Element> = { type: item.kind === "list" ? "ListItem" : "NarrativeText" };
        if (item.kind === "para" && item.chinese) {
          text = w.map((m, i) => `${CJK_FILLER[i % CJK_FILLER.length]}${CJK_FILLER[(i * 7) % CJK_FILLER.length]}${m}${i % 3 === 2 ? "。" : "，"}`).join("");
        } else {
          text = w.map((m, i) => (i % 9 === 8 ? `${m}.` : m)).join(" ");
        }
        if (item.kind === "para" && item.formula && w.length >= 2) {
          const target = w[1]!;
          const at = text.indexOf(target);
          el.objects = [{ object_id: `o${id}`, type: "formula", text: `x_{${target}}`, text_range: [at, at + target.length], metadata: { display_mode: "inline" } }];
          el.metadata = { has_inline_objects: true, inline_object_types: ["formula"] };
        }
        if (item.kind === "para" && item.chars) {
          el.char_details = Array.from(text, (c, i) => ({ index: i, text: c, coordinates: [0.1 + (i % 80) / 100, y, 0.11 + (i % 80) / 100, y, 0.11 + (i % 80) / 100, y + 0.01, 0.1 + (i % 80) / 100, y + 0.01] }));
        }
        const made = push({ ...el, type: el.type!, text }, w);
        lastContinuable = made;
        break;
      }
      case "table": {
        const header = Array.from({ length: item.cols }, word);
        header.forEach((h) => tableHeader.add(h));
        const body: string[][] = [];
        for (let r = 1; r < item.rows; r++) {
          const row = Array.from({ length: item.cols }, word);
          body.push(row);
        }
        let caption: Element | undefined;
        if (item.caption) {
          const cw = words(3);
          caption = push({ type: "TableCaption", text: cw.join(" ") }, cw);
        }
        const el = tableElement(header, body, item.form, !!item.span);
        for (const row of el.usedBody) for (const w of row) tableBody.add(w);
        if (item.span && item.form === "structure") body.forEach((row, r) => r % 2 === 0 && r + 1 < body.length && tableSpanned.add(row[0]!));
        const made = push(el.element);
        if (caption) made.metadata = { ...made.metadata, ref_element_id: caption.element_id };
        lastContinuable = made;
        break;
      }
      case "image": {
        const w = item.words > 0 ? words(item.words) : [];
        push({ type: "Image", text: w.join(" "), image_data: { image_url: `https://img/${id}.png`, mime_type: "image/png" }, metadata: { width: 100, height: 80 } }, w);
        if (item.caption) {
          const cw = words(2);
          push({ type: "FigureCaption", text: cw.join(" ") }, cw);
        }
        lastContinuable = undefined;
        break;
      }
      case "noise": {
        push({ type: "Header", text: `running header ${page}` });
        push({ type: "PageNumber", text: String(page) });
        break;
      }
      case "continue": {
        if (!lastContinuable || lastContinuable.page_number === page) break;
        if (lastContinuable.type === "Table") {
          const ts = lastContinuable.table_structure;
          const cols = ts?.cols ?? 2;
          const bodyRow = Array.from({ length: cols }, word);
          bodyRow.forEach((w) => tableBody.add(w));
          const meta = { is_continuation: true, continuation_of: lastContinuable.element_id };
          if (ts) {
            // The continued part repeats the header row, as scanned tables do.
            const header = ts.cells.filter((c) => c.row === 1).sort((a, b) => a.col - b.col).map((c) => c.text);
            push({ ...tableElement(header, [bodyRow], "structure", false).element, metadata: meta });
          } else {
            push({ type: "Table", text: bodyRow.join(" "), metadata: meta });
          }
        } else {
          const w = words(4);
          const made = push({ type: lastContinuable.type, text: w.join(" "), metadata: { is_continuation: true, continuation_of: lastContinuable.element_id } }, w);
          lastContinuable = made;
        }
        break;
      }
    }
  }
  // Hierarchy links.
  const byId = new Map(elements.map((e) => [e.element_id, e]));
  if (opts.hierarchy === "tree" || opts.hierarchy === "broken") {
    for (const e of elements) {
      const chain = titleOf.get(e.element_id)!;
      const parent = e.type === "Title" ? chain[chain.length - 2] : chain[chain.length - 1];
      if (parent) {
        e.metadata = { ...e.metadata, parent_id: parent.id };
        const p = byId.get(parent.id)!;
        p.metadata = { ...p.metadata, children_ids: [...(p.metadata?.children_ids ?? []), e.element_id] };
      }
    }
    if (opts.hierarchy === "broken" && elements.length > 0) {
      const victim = elements[Math.floor(elements.length / 2)]!;
      victim.metadata = { ...victim.metadata, parent_id: "missing-parent" };
    }
  } else if (opts.hierarchy === "none") {
    for (const e of elements) if (e.metadata) delete e.metadata.category_depth;
  }
  const sectionTitle = (elementId: string, headingLevel: number) => {
    const chain = titleOf.get(elementId) ?? [];
    for (let k = chain.length - 1; k >= 0; k--) if (chain[k]!.level <= headingLevel) return chain[k]!.id;
    return "root";
  };
  return {
    result: {
      schema_version: "1.4.0",
      file_id: "file-gen",
      job_id: "job-gen",
      metadata: { filename: "generated.pdf", filetype: "application/pdf", page_count: page },
      elements,
    },
    words: wordMap,
    tableBody,
    tableHeader,
    tableSpanned,
    sectionTitle,
    titleAncestors: ancestorsOf,
  };
}

function tableElement(
  header: string[],
  body: string[][],
  form: "structure" | "html" | "markdown" | "plain",
  span: boolean,
): { element: Omit<Element, "element_id" | "page_number" | "coordinates">; usedBody: string[][] } {
  const cols = header.length;
  const usedBody = body.map((r) => [...r]);
  if (form === "structure") {
    const cells: NonNullable<Element["table_structure"]>["cells"] = [];
    header.forEach((t, c) => cells.push({ row: 1, col: c + 1, text: t, coordinates: [0.1 + c * 0.1, 0.5, 0.2 + c * 0.1, 0.5, 0.2 + c * 0.1, 0.52, 0.1 + c * 0.1, 0.52] }));
    body.forEach((row, r) => {
      row.forEach((t, c) => {
        // With spans, the first cell of every other row spans two rows: the covered
        // cell below is not emitted (its word is never in the table).
        if (span && c === 0 && r % 2 === 1 && r > 0) {
          usedBody[r]![0] = "";
          return;
        }
        const rowSpan = span && c === 0 && r % 2 === 0 && r + 1 < body.length ? 2 : 1;
        const y0 = 0.52 + r * 0.02;
        cells.push({ row: r + 2, col: c + 1, row_span: rowSpan, col_span: 1, text: t, coordinates: [0.1 + c * 0.1, y0, 0.2 + c * 0.1, y0, 0.2 + c * 0.1, y0 + 0.02, 0.1 + c * 0.1, y0 + 0.02] });
      });
    });
    const text = [header, ...body].map((r) => r.join(" ")).join("\n");
    return { element: { type: "Table", text, table_structure: { rows: body.length + 1, cols, cells } }, usedBody: usedBody.map((r) => r.filter((w) => w !== "")) };
  }
  if (form === "html") {
    const tr = (cells: string[], tag: string) => `<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join("")}</tr>`;
    return { element: { type: "Table", text: `<table>${tr(header, "th")}${body.map((r) => tr(r, "td")).join("")}</table>` }, usedBody };
  }
  if (form === "markdown") {
    const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
    return { element: { type: "Table", text: [line(header), `|${" --- |".repeat(cols)}`, ...body.map(line)].join("\n") }, usedBody };
  }
  return { element: { type: "Table", text: [header, ...body].map((r) => r.join(" ")).join("\n") }, usedBody };
}
