import type { Element, ParseResult } from "../../../src/wire/index.js";

/**
 * A deterministic, realistic-looking parse result of `pages` pages (~50 elements a page):
 * headings three levels deep with parent links, paragraphs in English and Chinese from a
 * fixed vocabulary (so a tokenizer sees repeated words, as in real text), list items,
 * tables (some split across pages as continuations), figures with captions, running
 * headers and page numbers, and the `markdown` the service would return.
 */
export function largeResult(pages: number, seed = 1): ParseResult {
  let s = seed >>> 0 || 1;
  const rand = () => {
    // xorshift32: fast, deterministic, good enough to vary lengths.
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const int = (a: number, b: number) => a + Math.floor(rand() * (b - a + 1));
  const sentence = () => {
    const n = int(6, 22);
    const ws: string[] = [];
    for (let i = 0; i < n; i++) ws.push(pick(WORDS));
    const first = ws[0]!;
    ws[0] = first.charAt(0).toUpperCase() + first.slice(1);
    return `${ws.join(" ")}.`;
  };
  const chinese = () => {
    let out = "";
    const n = int(2, 5);
    for (let i = 0; i < n; i++) {
      const k = int(4, 10);
      for (let j = 0; j < k; j++) out += pick(CJK);
      out += pick(["，", "。", "；", "。"]);
    }
    return out;
  };
  const paragraph = () => {
    if (rand() < 0.2) return chinese();
    const n = int(1, 4);
    const xs: string[] = [];
    for (let i = 0; i < n; i++) xs.push(sentence());
    return xs.join(" ");
  };

  const elements: Element[] = [];
  const md: string[] = [];
  let id = 0;
  const titles: { id: string; level: number }[] = [];
  const add = (page: number, el: Omit<Element, "element_id" | "page_number" | "coordinates">, y: number): Element => {
    const depth = (el.metadata as { category_depth?: number } | undefined)?.category_depth ?? 0;
    const parent = [...titles].reverse().find((t) => el.type !== "Title" || t.level < depth + 1);
    const full: Element = {
      element_id: `el-${id++}`,
      page_number: page,
      coordinates: [0.08, y, 0.92, y, 0.92, y + 0.015, 0.08, y + 0.015],
      ...el,
      metadata: { ...(el.metadata ?? {}), ...(parent ? { parent_id: parent.id } : {}) },
    } as Element;
    elements.push(full);
    return full;
  };
  let openTable: { el: Element; cols: number; header: string[] } | undefined;
  for (let page = 1; page <= pages; page++) {
    let y = 0.02;
    const next = () => (y = y >= 0.95 ? 0.05 : y + 0.018);
    add(page, { type: "Header", text: "Annual Report 2026 — Confidential" }, next());
    // A table left open at the end of the previous page continues here.
    if (openTable) {
      const rows = tableRows(int(3, 8), openTable.cols, pick, int);
      const el = tableElement([openTable.header, ...rows], openTable.header.length);
      const cont = add(page, { ...el, metadata: { is_continuation: true, continuation_of: openTable.el.element_id } }, next());
      md.push(htmlTable([openTable.header, ...rows]));
      void cont;
      openTable = undefined;
    }
    const count = int(44, 52);
    for (let k = 0; k < count; k++) {
      const r = rand();
      if (r < 0.05) {
        const level = int(1, 3);
        while (titles.length > 0 && titles[titles.length - 1]!.level >= level) titles.pop();
        const text = `${int(1, 20)}.${int(1, 9)} ${sentence().slice(0, -1).split(" ").slice(0, int(2, 6)).join(" ")}`;
        const t = add(page, { type: "Title", text, metadata: { category_depth: level - 1 } }, next());
        titles.push({ id: t.element_id, level });
        md.push(`${"#".repeat(level)} ${text}`);
      } else if (r < 0.09 && k < count - 2) {
        const cols = int(2, 6);
        const header = Array.from({ length: cols }, () => pick(WORDS));
        const rows = tableRows(int(4, 30), cols, pick, int);
        const cap = add(page, { type: "TableCaption", text: `Table ${id}: ${sentence()}` }, next());
        const el = add(page, tableElement([header, ...rows], cols), next());
        el.metadata = { ...el.metadata, ref_element_id: cap.element_id };
        md.push(cap.text, htmlTable([header, ...rows]));
        if (k >= count - 4) openTable = { el, cols, header };
      } else if (r < 0.11) {
        const img = add(page, { type: "Image", text: "", image_data: { image_url: `https://example.invalid/img/${id}.png`, mime_type: "image/png" }, metadata: { width: 640, height: 480 } }, next());
        const cap = add(page, { type: "FigureCaption", text: `Figure ${id}: ${sentence()}` }, next());
        md.push(`![](${img.image_data!.image_url})`, cap.text);
      } else if (r < 0.25) {
        const text = sentence();
        add(page, { type: "ListItem", text }, next());
        md.push(`- ${text}`);
      } else {
        const text = paragraph();
        add(page, { type: "NarrativeText", text }, next());
        md.push(text);
      }
    }
    // The last paragraph of some pages runs over onto the next one.
    if (!openTable && rand() < 0.3) {
      const text = paragraph();
      const a = add(page, { type: "NarrativeText", text }, next());
      const rest = paragraph();
      elements.push({
        element_id: `el-${id++}`,
        type: "NarrativeText",
        text: rest,
        page_number: page + 1 <= pages ? page + 1 : page,
        coordinates: [0.08, 0.05, 0.92, 0.05, 0.92, 0.065, 0.08, 0.065],
        metadata: { ...a.metadata, is_continuation: true, continuation_of: a.element_id },
      });
      md.push(`${text} ${rest}`);
    }
    add(page, { type: "PageNumber", text: String(page) }, 0.97);
  }
  return {
    schema_version: "1.4.0",
    file_id: `bench-${pages}`,
    job_id: "bench",
    metadata: { filename: "bench.pdf", filetype: "application/pdf", page_count: pages },
    markdown: md.join("\n\n"),
    elements,
  };
}

function tableRows(n: number, cols: number, pick: <T>(xs: readonly T[]) => T, int: (a: number, b: number) => number): string[][] {
  return Array.from({ length: n }, () => Array.from({ length: cols }, (_, c) => (c === 0 ? pick(WORDS) : String(int(1, 99999)))));
}

function tableElement(rows: string[][], cols: number): Omit<Element, "element_id" | "page_number" | "coordinates"> {
  const cells = rows.flatMap((row, r) =>
    row.map((text, c) => ({ row: r + 1, col: c + 1, row_span: 1, col_span: 1, text, coordinates: [0.1 + c * 0.1, 0.3 + r * 0.01, 0.2 + c * 0.1, 0.3 + r * 0.01, 0.2 + c * 0.1, 0.31 + r * 0.01, 0.1 + c * 0.1, 0.31 + r * 0.01] })),
  );
  return { type: "Table", text: rows.map((r) => r.join(" ")).join("\n"), table_structure: { rows: rows.length, cols, cells } };
}

function htmlTable(rows: string[][]): string {
  return `<table>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("")}</table>`;
}

const WORDS = (
  "the of and to in is for that with as on by this be are from at or an it which not can revenue growth market " +
  "customer product service quarter annual report financial operating income expense cost margin total net " +
  "increase decrease compared previous year period result business segment region asset liability equity cash " +
  "flow investment capital share risk management strategy development research technology data system process " +
  "policy control audit compliance governance board director committee employee performance target objective " +
  "sustainability environment energy emission supply chain partner contract agreement legal regulatory tax rate " +
  "interest loan debt credit fair value impairment depreciation amortization inventory receivable payable reserve"
).split(" ");

const CJK = Array.from("的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严"
);
