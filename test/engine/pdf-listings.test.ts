import { beforeAll, describe, expect, it } from "vitest";
import type { DraftDocument } from "../../src/engine/draft.js";
import { chromiumPdf } from "../support/pdf-fixtures.js";
import { missing } from "../support/system.js";
import { ofType, parsePdf } from "./pdf-helpers.js";

// Code listings as documentation sites print them (Sphinx, MkDocs, Pygments): keywords in
// bold, columns aligned with spaces, line numbers in a column of their own, PEP 8's two
// blank lines; each read back as one snippet, indentation and spacing kept.

const FLUSH = `def flush(self):
    if not self._pending:
        return
    for attempt in range(3):
        try:
            put_object(self.bucket, key)
            break
        except TransientError:
            log.warning("retry")


def close(self):
    self.flush()`;
const KEYWORDS = /\b(def|if|not|return|for|in|try|break|except)\b/g;
const STATUS = `NAME            STATE      ROWS
orders-daily    running    120394
refunds         paused     0`;
const NUMBERED = `from tidepool import Client

def main() -> None:
    for table in ("orders", "refunds"):
        pipeline.add(table, mode="incremental")
    print("done")`;

const PAGE = `<html><head><style>body { font: 11px "DejaVu Sans", sans-serif; margin: 30px; width: 420px }
  pre { font: 10px/1.5 "DejaVu Sans Mono", monospace; background: #f8f8f8; padding: 10px } b { color: #008000 }
  table.hl { border-collapse: collapse } table.hl td { vertical-align: top; padding: 0 }
  td.linenos pre { color: #999; text-align: right; padding-right: 6px }</style></head><body>
<p>The flush method:</p><pre>${FLUSH.replace(KEYWORDS, "<b>$1</b>")}</pre>
<p>The workers:</p><pre>${STATUS}</pre>
<p>A numbered listing:</p><table class="hl"><tr><td class="linenos"><pre>${NUMBERED.split("\n")
  .map((_, k) => k + 1)
  .join("\n")}</pre></td><td><pre>${NUMBERED.replace(">", "&gt;")}</pre></td></tr></table>
<p>That is all.</p></body></html>`;

describe.skipIf(missing("chromium"))("pdf: code listings printed by Chromium (Pygments, MkDocs)", () => {
  let doc: DraftDocument;
  beforeAll(async () => {
    doc = await parsePdf(await chromiumPdf(PAGE));
  }, 120_000);

  it("reads each listing as one snippet, its indentation, aligned columns and blank lines kept, its line numbers dropped", () => {
    expect(ofType(doc, "CodeSnippet").map((e) => e.text)).toEqual([FLUSH, STATUS, NUMBERED]);
  });
});
