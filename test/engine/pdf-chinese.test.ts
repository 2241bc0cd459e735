import { beforeAll, describe, expect, it } from "vitest";
import type { DraftDocument, DraftElement } from "../../src/engine/draft.js";
import { chromiumPdf, popplerWords, sofficePdf } from "../support/pdf-fixtures.js";
import { missing } from "../support/system.js";
import { parsePdf, wordsNotHeld } from "./pdf-helpers.js";

/*
 * Chinese documents' structure, on PDFs Chromium prints with the Noto CJK fonts: a
 * government notice (公文) set as the national standard GB/T 9704 lays it out — a red
 * head, 三号 (16 pt) type on a fixed 28 pt line, every paragraph set in two characters
 * with its lines wrapping back to the margin, headings numbered 一、 / （一） / 1. / （1）
 * all in the body's size, page numbers `- 3 -`.
 */

const BODY =
  "各区、各部门要严格落实党政领导干部安全生产责任制，按照管行业必须管安全、管业务必须管安全的要求，明确各级各部门安全监管职责，建立健全责任清单，层层压实责任，确保责任落实到岗到人。";

const NOTICE = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><style>
@page { size: A4; margin: 37mm 26mm 35mm 28mm; @bottom-center { content: "- " counter(page) " -"; font-family: "Noto Serif CJK SC"; font-size: 14pt; } }
body { font-family: "Noto Serif CJK SC", serif; font-size: 16pt; line-height: 28pt; }
.red { color: #d00; text-align: center; font-size: 30pt; line-height: 1.3; font-weight: bold; }
.no { text-align: center; margin: 0; padding-bottom: 8pt; border-bottom: 2px solid #d00; }
h1 { font-family: "Noto Sans CJK SC"; font-size: 22pt; line-height: 1.4; text-align: center; font-weight: bold; margin: 20pt 0; }
h2, h3 { font-size: 16pt; font-weight: bold; margin: 0; text-indent: 2em; }
h2 { font-family: "Noto Sans CJK SC"; }
p { margin: 0; text-indent: 2em; text-align: justify; }
.sign { text-align: right; padding-right: 2em; }
</style></head><body>
<div class="red">某某市人民政府办公厅文件</div>
<div class="no">某政办发〔2024〕12号</div>
<h1>关于进一步加强城市安全生产工作的通知</h1>
<p style="text-indent:0">各区人民政府，市政府各部门：</p>
<p>为切实防范化解重大安全风险，坚决遏制重特大事故发生，经市政府同意，现就进一步加强全市安全生产工作有关事项通知如下。</p>
<h2>一、总体要求</h2>
<p>${BODY}</p>
<h3>（一）强化责任落实</h3>
<p>${BODY}</p>
<p>（1）深基坑、高支模、起重机械等危大工程必须编制专项施工方案并按规定组织专家论证。</p>
<p>（2）施工现场要配备专职安全生产管理人员，严格执行关键岗位人员带班制度。</p>
<h3>（二）深化隐患排查。</h3>
<p>${BODY}</p>
<h2>二、保障措施</h2>
<p>${BODY}</p>
<p class="sign" style="margin-top:28pt">某某市人民政府办公厅</p>
<p class="sign">2024年3月15日</p>
</body></html>`;

const compact = (s: string): string => s.replace(/\s+/g, "");
const holding = (doc: DraftDocument, needle: string): DraftElement[] => doc.elements.filter((e) => compact(e.text).includes(compact(needle)));

describe.skipIf(missing("chromium", "pdftotext"))("pdf: a Chinese government notice (公文, Chromium)", () => {
  let bytes: Uint8Array;
  let doc: DraftDocument;
  beforeAll(async () => {
    bytes = await chromiumPdf(NOTICE);
    doc = await parsePdf(bytes);
  }, 120_000);

  it("keeps every word poppler reads inside an element", async () => {
    expect(wordsNotHeld(doc, await popplerWords(bytes))).toEqual([]);
  });

  it("keeps a numbered paragraph whose lines wrap back to the margin in one item, joined without spaces", () => {
    const item = "（1）深基坑、高支模、起重机械等危大工程必须编制专项施工方案并按规定组织专家论证。";
    const els = holding(doc, item.slice(0, 12));
    expect(els.map((e) => e.type)).toEqual(["ListItem"]);
    expect(els[0]!.text).toBe(item);
  });

  it("joins the lines of each paragraph on the short last page, at the notice's 28 pt line pitch", () => {
    const last = Math.max(...doc.elements.map((e) => e.page));
    const item = "（2）施工现场要配备专职安全生产管理人员，严格执行关键岗位人员带班制度。";
    expect(holding(doc, item.slice(0, 12)).map((e) => e.text)).toEqual([item]);
    const bodies = doc.elements.filter((e) => e.page === last && compact(e.text).includes(BODY.slice(0, 12)));
    expect(bodies.length).toBeGreaterThan(0);
    for (const e of bodies) expect(e.text).toBe(BODY);
  });

  it("nests the headings by their numbers, all in the body's size: 一、 over （一）, with or without a full stop", () => {
    const level = (text: string): (number | undefined)[] => holding(doc, text).map((e) => (e.type === "Title" ? e.headingLevel : undefined));
    const [first] = level("一、总体要求");
    expect(first).toBeDefined();
    expect(level("二、保障措施")).toEqual([first]);
    expect(level("（一）强化责任落实")).toEqual([first! + 1]);
    expect(level("（二）深化隐患排查。")).toEqual([first! + 1]);
    // The red head and the notice's title stand over them.
    expect(level("关于进一步加强城市安全生产工作的通知")[0]).toBeLessThan(first!);
  });
});

/*
 * The notice's more common body: its second-level numbers run in with their paragraphs
 * (`（一）强化责任落实。各区…`), and every numbered paragraph — `（一）`, `1.` — is set in
 * the same two characters, so the words after `1.` start further left than after `（一）`.
 */
const RUN_IN = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><style>
@page { size: A4; margin: 37mm 26mm 35mm 28mm; }
body { font-family: "Noto Serif CJK SC", serif; font-size: 16pt; line-height: 28pt; }
p { margin: 0; text-indent: 2em; text-align: justify; }
</style></head><body>
<p>（一）强化责任落实。${BODY}</p>
<p>1. 主要负责人是本地区、本部门安全生产第一责任人，对安全生产工作负全面领导责任。</p>
<p>2. 分管负责人对分管领域安全生产工作负直接领导责任，要定期深入一线检查指导。</p>
<p>（二）深化隐患排查。${BODY}</p>
<p>（三）加强应急管理。${BODY}</p>
</body></html>`;

describe.skipIf(missing("chromium"))("pdf: a Chinese notice's run-in numbered paragraphs (Chromium)", () => {
  it("nests the list by its numbers: （一） over 1., though 1.'s words start further left", async () => {
    const doc = await parsePdf(await chromiumPdf(RUN_IN));
    const level = (text: string): (number | undefined)[] => holding(doc, text).map((e) => (e.type === "ListItem" ? e.listLevel : undefined));
    const [outer] = level("（一）强化责任落实。");
    expect(outer).toBeDefined();
    expect(level("（二）深化隐患排查。")).toEqual([outer]);
    expect(level("（三）加强应急管理。")).toEqual([outer]);
    expect(level("1. 主要负责人")).toEqual([outer! + 1]);
    expect(level("2. 分管负责人")).toEqual([outer! + 1]);
  }, 120_000);
});

/** A one-page notice of two paragraphs of three lines at the notice's 28 pt line: too few lines to learn the page's pitch from. */
const SHORT_BODY = "各区、各部门要严格落实党政领导干部安全生产责任制，明确各级各部门安全监管职责，建立健全责任清单，层层压实责任，确保责任落实到岗到人。";
const SHORT = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><style>
@page { size: A4; margin: 37mm 26mm 35mm 28mm; }
body { font-family: "Noto Serif CJK SC", serif; font-size: 16pt; line-height: 28pt; }
h1 { font-family: "Noto Sans CJK SC"; font-size: 22pt; line-height: 1.5; text-align: center; margin: 20pt 2em; }
p { margin: 0; text-indent: 2em; text-align: justify; }
</style></head><body>
<h1>关于进一步加强城市安全生产和应急管理工作的实施意见</h1>
<p>${SHORT_BODY}</p>
<p>${SHORT_BODY}</p>
</body></html>`;

describe.skipIf(missing("chromium"))("pdf: a short Chinese notice (Chromium)", () => {
  it("joins each paragraph's lines 0.75 em apart, and the two-line title, on a page too short for its pitch", async () => {
    const doc = await parsePdf(await chromiumPdf(SHORT));
    expect(doc.elements.map((e) => [e.type, e.text])).toEqual([
      ["Title", "关于进一步加强城市安全生产和应急管理工作的实施意见"],
      ["NarrativeText", SHORT_BODY],
      ["NarrativeText", SHORT_BODY],
    ]);
  }, 120_000);
});

/** A contract's signature block: 甲方 and 乙方 side by side in a table without rules, exported by LibreOffice. */
const SIGNATURES = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"></head>
<body style="font-family: 'Noto Serif CJK SC'; font-size: 12pt">
<p>因本合同引起的或与本合同有关的任何争议，双方应友好协商解决。</p>
<p>（以下无正文）</p>
<table style="width:100%; font-size:12pt"><tr><td style="width:50%">甲方（盖章）：某某信息技术有限公司</td><td>乙方（盖章）：某某软件科技有限公司</td></tr></table>
</body></html>`;

describe.skipIf(missing("soffice"))("pdf: a Chinese contract's signature block (LibreOffice)", () => {
  it("keeps a space between 甲方's cell and 乙方's beside it, half an em apart", async () => {
    const doc = await parsePdf(await sofficePdf(SIGNATURES));
    const texts = doc.elements.map((e) => e.text);
    expect(texts.filter((t) => t.includes("某某信息技术有限公司"))).toHaveLength(1);
    expect(texts.some((t) => /某某信息技术有限公司(?:\s|$)/.test(t))).toBe(true);
    expect(texts.some((t) => t.includes("有限公司乙方"))).toBe(false);
  }, 120_000);
});

/*
 * The notice's headings as GB/T 9704 sets them: in the body's size and weight, each level
 * in a typeface of its own — 一、 in 黑体 (a sans), （一） in 楷体 (no Kai font here: Noto
 * Serif CJK JP, another face, stands in), 1. in the body's 仿宋 in bold — over text in
 * 仿宋 (Noto Serif CJK SC). A numbered paragraph in the body's own face stays an item.
 */
const FACED = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><style>
@page { size: A4; margin: 37mm 26mm 35mm 28mm; @bottom-center { content: "第 " counter(page) " 页 共 " counter(pages) " 页"; font-family: "Noto Serif CJK SC"; font-size: 12pt; } }
body { font-family: "Noto Serif CJK SC", serif; font-size: 16pt; line-height: 28pt; }
h1 { font-size: 22pt; line-height: 1.4; text-align: center; font-weight: bold; margin: 20pt 0; }
h2, h3, h4 { font-size: 16pt; font-weight: normal; margin: 0; text-indent: 2em; }
h2 { font-family: "Noto Sans CJK SC"; }
h3 { font-family: "Noto Serif CJK JP"; }
h4 { font-weight: bold; }
p { margin: 0; text-indent: 2em; text-align: justify; }
</style></head><body>
<h1>关于进一步加强城市安全生产工作的通知</h1>
<p style="text-indent:0">各区人民政府，市政府各部门：</p>
<p>为切实防范化解重大安全风险，坚决遏制重特大事故发生，经市政府同意，现就进一步加强全市安全生产工作有关事项通知如下。</p>
<h2>一、总体要求</h2>
<p>${SHORT_BODY}</p>
<h3>（一）强化责任落实</h3>
<p>${SHORT_BODY}</p>
<h4>1. 主要负责人职责</h4>
<p>主要负责人是本地区、本部门安全生产第一责任人，对安全生产工作负全面领导责任。</p>
<p>2. 分管负责人对分管领域安全生产工作负直接领导责任，要定期深入一线检查指导。</p>
<p>（二）深化隐患排查。${SHORT_BODY}</p>
<h2>二、保障措施</h2>
<p>（1）深基坑、高支模、起重机械等危大工程必须编制专项施工方案。</p>
<p>（2）施工现场要配备专职安全生产管理人员。</p>
</body></html>`;

describe.skipIf(missing("chromium"))("pdf: a Chinese notice's headings set apart by their typeface (Chromium)", () => {
  let doc: DraftDocument;
  beforeAll(async () => {
    doc = await parsePdf(await chromiumPdf(FACED));
  }, 120_000);

  it("reads 一、 in a sans and （一） in another face, both regular in the body's size, as headings ranked by their numbers", () => {
    const titles = doc.elements.filter((e) => e.type === "Title").map((e) => [e.text, e.headingLevel]);
    expect(titles).toEqual([
      ["关于进一步加强城市安全生产工作的通知", 1],
      ["一、总体要求", 2],
      ["（一）强化责任落实", 3],
      ["1. 主要负责人职责", 4],
      ["二、保障措施", 2],
    ]);
  });

  it("keeps each heading off the paragraph under it, and numbered paragraphs in the body's face items", () => {
    expect(doc.elements.filter((e) => e.text === SHORT_BODY).map((e) => e.type)).toEqual(["NarrativeText", "NarrativeText"]);
    for (const item of ["2. 分管负责人", "（二）深化隐患排查。", "（1）深基坑", "（2）施工现场"]) expect(holding(doc, item).map((e) => e.type)).toEqual(["ListItem"]);
  });

  it("keeps the spaces of the footer's 第 1 页 共 2 页, the one between 页 and 共 too", () => {
    const pages = Math.max(...doc.elements.map((e) => e.page));
    expect(pages).toBeGreaterThan(1);
    const footers = doc.elements.filter((e) => e.text.startsWith("第 ")).map((e) => [e.type, e.text]);
    expect(footers).toEqual(Array.from({ length: pages }, (_, i) => ["PageNumber", `第 ${i + 1} 页 共 ${pages} 页`]));
  });
});

/** An English guide to the notice, naming its parts by their Chinese numbered headings: a CJK font is the only one its Chinese is set in. */
const GUIDE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><style>
body { font-family: "DejaVu Serif", serif; font-size: 12pt; line-height: 1.5; }
p { margin: 0 0 6pt; }
.zh { font-family: "Noto Sans CJK SC"; }
</style></head><body>
<p>This guide summarises the notice for readers outside China. The notice has two parts, each listed below with its Chinese heading, so that readers can find them in the original text and follow the references the local offices make to them in their own letters.</p>
<p class="zh">一、总体要求</p>
<p>The first part sets the general requirements: who is responsible, and how responsibility is passed down from the district governments to each department and on to each post in it.</p>
<p class="zh">二、保障措施</p>
<p>The second part sets out how the work is funded and checked, and how the offices report on it each month to the city's safety committee.</p>
</body></html>`;

describe.skipIf(missing("chromium"))("pdf: Chinese numbered lines in an English document (Chromium)", () => {
  it("takes no heading from the face alone: the body the face is measured against is the document's Chinese text", async () => {
    const doc = await parsePdf(await chromiumPdf(GUIDE));
    expect(holding(doc, "一、总体要求").map((e) => e.type)).toEqual(["ListItem"]);
    expect(holding(doc, "二、保障措施").map((e) => e.type)).toEqual(["ListItem"]);
  }, 120_000);
});

/** A notice whose Latin words and figures come from a Latin font first in the list (as Word's ASCII font does): its items name systems. */
const LATIN_WORDS = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><style>
@page { size: A4; margin: 37mm 26mm 35mm 28mm; }
body { font-family: "DejaVu Serif", "Noto Serif CJK SC", serif; font-size: 16pt; line-height: 28pt; }
p { margin: 0; text-indent: 2em; text-align: justify; }
</style></head><body>
<p>${SHORT_BODY}</p>
<p>本年度信息化建设的重点项目如下：</p>
<p>（一）ERP and CRM 升级</p>
<p>（二）OA 系统迁移</p>
<p>${SHORT_BODY}</p>
</body></html>`;

describe.skipIf(missing("chromium"))("pdf: a Chinese item whose letters are mostly Latin, in a Latin font (Chromium)", () => {
  it("measures its face by its Chinese characters, the body's: an item, no heading", async () => {
    const doc = await parsePdf(await chromiumPdf(LATIN_WORDS));
    expect(holding(doc, "（一）ERP and CRM 升级").map((e) => [e.type, e.text])).toEqual([["ListItem", "（一）ERP and CRM 升级"]]);
  }, 120_000);

  it("ends a numbered item at its short line: the paragraph under it, set in at the item's own start, is whole", async () => {
    const doc = await parsePdf(await chromiumPdf(LATIN_WORDS));
    expect(holding(doc, "（二）OA 系统迁移").map((e) => [e.type, e.text])).toEqual([["ListItem", "（二）OA 系统迁移"]]);
    expect(doc.elements.filter((e) => e.text === SHORT_BODY).map((e) => e.type)).toEqual(["NarrativeText", "NarrativeText"]);
  }, 120_000);
});

describe.skipIf(missing("soffice"))("pdf: a Chinese notice's headings set apart by their typeface (LibreOffice)", () => {
  it("reads the sans 一、 headings as headings over the serif body, the serif numbered paragraphs as items", async () => {
    const doc = await parsePdf(await sofficePdf(FACED));
    const level = (text: string): (number | undefined)[] => holding(doc, text).map((e) => (e.type === "Title" ? e.headingLevel : undefined));
    const [first] = level("一、总体要求");
    expect(first).toBeGreaterThan(1);
    expect(level("二、保障措施")).toEqual([first]);
    expect(level("1. 主要负责人职责")[0]).toBeGreaterThan(first!);
    const at = doc.elements.findIndex((e) => e.text === "一、总体要求");
    expect([doc.elements[at + 1]?.type, doc.elements[at + 1]?.text]).toEqual(["NarrativeText", SHORT_BODY]);
    for (const item of ["2. 分管负责人", "（1）深基坑", "（2）施工现场"]) expect(holding(doc, item).map((e) => e.type)).toEqual(["ListItem"]);
  }, 120_000);
});

/** A notice's close: its attachments listed after `附件：`, the items after the first set under its `1.`. */
const ATTACHMENTS = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><style>
@page { size: A4; margin: 37mm 26mm 35mm 28mm; }
body { font-family: "Noto Serif CJK SC", serif; font-size: 16pt; line-height: 28pt; }
p { margin: 0; text-indent: 2em; text-align: justify; }
.att { text-indent: 0; padding-left: 5em; }
</style></head><body>
<p>${SHORT_BODY}</p>
<p>特此通知。</p>
<p>附件：1. 安全生产责任清单</p>
<p class="att">2. 隐患排查治理台账</p>
<p class="att">3. 应急预案备案表</p>
<p>说明：1. 本通知自印发之日起施行。</p>
<p>${SHORT_BODY}</p>
</body></html>`;

describe.skipIf(missing("chromium"))("pdf: a Chinese notice's list of attachments (Chromium)", () => {
  it("reads 附件：1. … as the first item of the list its 2. and 3. go on, at their level; a label before a 1. with no 2. under it stays text", async () => {
    const doc = await parsePdf(await chromiumPdf(ATTACHMENTS));
    const items = doc.elements.filter((e) => e.type === "ListItem").map((e) => [e.text, e.listLevel]);
    expect(items).toEqual([
      ["附件：1. 安全生产责任清单", 0],
      ["2. 隐患排查治理台账", 0],
      ["3. 应急预案备案表", 0],
    ]);
    expect(holding(doc, "说明：1. 本通知").map((e) => e.type)).toEqual(["NarrativeText"]);
  }, 120_000);
});

/** A short last page: a paragraph, and references whose second lines are mostly figures and Latin; the signature's date right-aligned under the office. */
const REFERENCES = [
  "[1] 国务院安全生产委员会. 安全生产治本攻坚三年行动方案[R]. 北京, 2024.",
  "[2] 应急管理部. 企业安全生产标准化基本规范[S]. 北京: 中国标准出版社, 2016.",
  "[3] 张三, 李四. 城市安全风险评估方法研究[J]. 安全与环境学报, 2023, 23(4): 1-8.",
];
const REFERENCES_PAGE = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><style>
@page { size: A4; margin: 37mm 26mm 35mm 28mm; }
body { font-family: "Noto Serif CJK SC", serif; font-size: 16pt; line-height: 28pt; }
p { margin: 0; text-indent: 2em; text-align: justify; }
.ref { text-indent: 0; }
.sign { text-align: right; padding-right: 2em; }
</style></head><body>
<p>${SHORT_BODY}</p>
<p style="text-indent:0">参考文献</p>
${REFERENCES.map((r) => `<p class="ref">${r}</p>`).join("\n")}
<p class="sign" style="margin-top:28pt">某某市人民政府办公厅</p>
<p class="sign">2024年3月15日</p>
</body></html>`;

describe.skipIf(missing("chromium"))("pdf: a Chinese reference list on a page too short for its pitch (Chromium)", () => {
  it("keeps each entry whole though its second line is mostly figures and Latin, and the right-aligned date apart from the office", async () => {
    const doc = await parsePdf(await chromiumPdf(REFERENCES_PAGE));
    for (const r of REFERENCES) expect(holding(doc, r.slice(0, 8)).map((e) => e.text)).toEqual([r]);
    expect(holding(doc, "2024年3月15日").map((e) => e.text)).toEqual(["2024年3月15日"]);
  }, 120_000);
});
