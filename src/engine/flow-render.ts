import { DocParseError, LocalErrorCode } from "../errors.js";
import { FLOW_PAGE, type PaintItem } from "./flow-layout.js";

/**
 * Page images for the estimated layout (TXT, Markdown, office files without
 * LibreOffice): each page is drawn from what the layout placed on it, so a citation's
 * box lands on the text it cites. The look is plain (one sans font, tables as grids,
 * the images the document holds, placeholders for linked ones): a picture of the
 * layout, not of the source.
 * Drawn with `@napi-rs/canvas` (pdfjs-dist's optional dependency), imported lazily.
 */

/** What a page image is drawn from: stored at parse time as `layout-N.json`. */
export interface FlowPageSnapshot {
  /** Format version of this snapshot. */
  v: 1;
  /** Pixels at 144 dpi. */
  width: number;
  height: number;
  items: PaintItem[];
}

/** The asset name of a page's snapshot (internal, never served). */
export function layoutAssetName(page: number): string {
  return `layout-${page}.json`;
}

const SANS = '"DejaVu Sans", "Noto Sans CJK SC", "Noto Sans CJK", sans-serif';
const MONO = '"DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace';
// Canvas backends refuse very large surfaces; tall "fixed" pages are scaled down to fit.
const MAX_SIDE = 16_384;

type CanvasModule = typeof import("@napi-rs/canvas");
let canvasModule: Promise<CanvasModule | undefined> | undefined;

/** The canvas library, or undefined when it is not installed (then there are no estimated page images). */
export function loadCanvas(): Promise<CanvasModule | undefined> {
  canvasModule ??= import("@napi-rs/canvas").then(
    (m) => m,
    () => undefined,
  );
  return canvasModule;
}

/** Draws one estimated page as PNG at `dpi`. */
export async function renderFlowPage(snapshot: FlowPageSnapshot, dpi: number): Promise<Uint8Array> {
  const canvas = await loadCanvas();
  if (!canvas) {
    throw new DocParseError(LocalErrorCode.MissingDependency, "Page images of text documents need @napi-rs/canvas: npm install @napi-rs/canvas");
  }
  let scale = dpi / FLOW_PAGE.dpi;
  scale = Math.min(scale, MAX_SIDE / snapshot.width, MAX_SIDE / snapshot.height);
  const c = canvas.createCanvas(Math.max(1, Math.round(snapshot.width * scale)), Math.max(1, Math.round(snapshot.height * scale)));
  const g = c.getContext("2d");
  g.fillStyle = "#ffffff";
  g.fillRect(0, 0, c.width, c.height);
  g.scale(scale, scale);
  g.textBaseline = "alphabetic";
  const baseline = (px: number, lineHeight: number) => (lineHeight - px) / 2 + px * 0.82;
  const drawLines = (lines: { t: string; w: number }[], x: number, y: number, px: number, lineHeight: number) => {
    lines.forEach((line, i) => {
      // The layout measured `w` with its own font model; squeeze the real glyphs into it.
      if (line.t) g.fillText(line.t, x, y + i * lineHeight + baseline(px, lineHeight), Math.max(1, line.w));
    });
  };
  for (const item of snapshot.items) {
    if (item.kind === "text") {
      if (item.mono) {
        g.fillStyle = "#f3f3f3";
        g.fillRect(item.x - 8, item.y, FLOW_PAGE.width - 2 * FLOW_PAGE.margin + 16, item.lines.length * item.lineHeight);
      }
      g.fillStyle = "#111111";
      g.font = `${item.bold ? "bold " : ""}${item.px}px ${item.mono ? MONO : SANS}`;
      drawLines(item.lines, item.x, item.y, item.px, item.lineHeight);
      if (item.bullet) g.fillText("•", item.x - item.px, item.y + baseline(item.px, item.lineHeight));
    } else if (item.kind === "cell") {
      const [x0, y0, x1, y1] = item.box;
      if (item.header) {
        g.fillStyle = "#eeeeee";
        g.fillRect(x0, y0, x1 - x0, y1 - y0);
      }
      g.strokeStyle = "#888888";
      g.lineWidth = 1;
      g.strokeRect(x0, y0, x1 - x0, y1 - y0);
      g.fillStyle = "#111111";
      g.font = `${item.header ? "bold " : ""}${item.px}px ${SANS}`;
      drawLines(item.lines, x0 + 8, y0 + 8, item.px, item.lineHeight);
    } else {
      const [x0, y0, x1, y1] = item.box;
      if (item.data) {
        try {
          const picture = await canvas.loadImage(Buffer.from(item.data, "base64"));
          g.drawImage(picture, x0, y0, x1 - x0, y1 - y0);
          continue;
        } catch {
          // Undecodable: the placeholder below.
        }
      }
      g.fillStyle = "#e4e4e4";
      g.fillRect(x0, y0, x1 - x0, y1 - y0);
      g.strokeStyle = "#999999";
      g.strokeRect(x0, y0, x1 - x0, y1 - y0);
      if (item.label) {
        g.fillStyle = "#555555";
        g.font = `20px ${SANS}`;
        g.fillText(item.label, x0 + 12, y0 + 32, Math.max(1, x1 - x0 - 24));
      }
    }
  }
  return new Uint8Array(c.toBuffer("image/png"));
}
