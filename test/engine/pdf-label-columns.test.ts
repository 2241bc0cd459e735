import { beforeAll, describe, expect, it } from "vitest";
import type { DraftDocument } from "../../src/engine/draft.js";
import { chromiumPdf } from "../support/pdf-fixtures.js";
import { missing } from "../support/system.js";
import { parsePdf } from "./pdf-helpers.js";

// A label column beside what it labels, printed by Chromium: a CV's dates beside its
// entries, a Sphinx field list set as a table. Each label is read right before its entry.

const CV = `<!doctype html><html><head><meta charset="utf-8"><style>
body { margin: 40px; font-family: "DejaVu Sans"; font-size: 10pt; width: 500px }
h2 { font-size: 12pt; margin: 12px 0 6px 0; text-transform: uppercase }
.entry { display: flex; gap: 4mm; margin-bottom: 8px }
.dates { width: 24mm; flex: none; font-size: 9pt }
h3 { font-size: 10pt; margin: 0 } p { margin: 0 } ul { margin: 2px 0 0 0; padding-left: 14px }
</style></head><body>
<h2>Work history</h2>
<div class="entry"><div class="dates">2021 – now</div><div><h3>Lead Product Designer</h3><p>Quantia Analytics · Lisbon</p>
<ul><li>Owned the dashboard work stream, working with product managers and operations staff to ship it.</li><li>Ran the research behind it.</li></ul></div></div>
<div class="entry"><div class="dates">2018 – 2021</div><div><h3>Senior UX Designer</h3><p>Helio Payments · Porto</p>
<ul><li>Redesigned the checkout, working with engineers and the support team.</li></ul></div></div>
<h2>Education</h2>
<div class="entry"><div class="dates">2012 – 2013</div><div><h3>MA Interaction Design</h3><p>Universidade do Porto</p></div></div>
<div class="entry"><div class="dates">2008 – 2012</div><div><h3>BA Communication Design</h3><p>Universidade de Lisboa</p></div></div>
</body></html>`;

// A Sphinx signature with its field list (docutils sets it as a borderless table).
const FIELDS = `<!doctype html><html><head><meta charset="utf-8"><style>
body{font-family:"DejaVu Sans";font-size:11px;margin:30px;width:480px;color:#404040}
dt.sig{font-family:"DejaVu Sans Mono";background:#e7f2fa;border-top:3px solid #6ab0de;padding:6px;display:table}
dl.field-list{display:grid;grid-template-columns:max-content auto}
dl.field-list>dt{font-weight:bold;padding-right:10px;margin-bottom:6px}
dl.field-list>dd{margin:0 0 6px 0}
dl.field-list ul{margin:0;padding-left:16px}
p{margin:0 0 6px;line-height:1.5}
</style></head><body>
<dl><dt class="sig">tidepool.sinks.S3Sink(bucket, prefix='', max_retries=3)</dt><dd>
<p>A sink that writes batches as JSON Lines objects to an S3 bucket.</p>
<table class="docutils field-list" frame="void" rules="none" style="border:none;border-collapse:collapse">
<tbody valign="top">
<tr class="field"><th class="field-name" style="text-align:left;padding-right:12px;white-space:nowrap">Parameters:</th><td class="field-body"><ul style="margin:0;padding-left:16px">
<li><strong>bucket</strong> (<em>str</em>) – Name of the target bucket.</li>
<li><strong>prefix</strong> (<em>str</em>) – Key prefix for every object written.</li>
<li><strong>max_retries</strong> (<em>int</em>) – Attempts after the first failed upload.</li></ul></td></tr>
<tr class="field"><th class="field-name" style="text-align:left">Returns:</th><td class="field-body">A configured sink, ready to be registered.</td></tr>
</tbody></table></dl></dd></dl>
<p>See also the GCS sink, which takes the same arguments.</p>
</body></html>`;

const texts = (doc: DraftDocument): string[] => doc.elements.map((e) => e.text);

describe.skipIf(missing("chromium"))("pdf: a label column beside its entries", () => {
  let cv: DraftDocument;
  let fields: DraftDocument;
  beforeAll(async () => {
    cv = await parsePdf(await chromiumPdf(CV));
    fields = await parsePdf(await chromiumPdf(FIELDS));
  }, 120_000);

  it("reads a CV's dates each right before its entry, a section heading between them in its place", () => {
    const order = ["WORK HISTORY", "2021 – now", "Lead Product Designer", "Ran the research", "2018 – 2021", "Senior UX Designer", "Redesigned", "EDUCATION", "2012 – 2013", "MA Interaction", "2008 – 2012", "BA Communication"];
    const at = order.map((w) => texts(cv).findIndex((t) => t.includes(w)));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });

  it("reads each field's name before its own value, the value apart from the last parameter", () => {
    const t = texts(fields);
    expect(t).toContain("A configured sink, ready to be registered.");
    const order = ["Parameters:", "bucket (str)", "max_retries (int)", "Returns:", "A configured sink"].map((w) => t.findIndex((x) => x.includes(w)));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
});
