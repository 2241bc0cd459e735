/**
 * The viewer's stylesheet. `.hl-quote` is the quote highlight; the end-to-end test looks
 * for its colour in screenshot pixels, so change both together
 * (see `QUOTE_HIGHLIGHT_RGBA` in `start-viewer.ts`).
 */
export const APP_CSS = `
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; font: 14px/1.45 system-ui, "Noto Sans", "Noto Sans CJK SC", sans-serif; color: #1d1d1f; background: #f4f4f6; }
header { padding: 10px 16px; background: #fff; border-bottom: 1px solid #ddd; display: flex; gap: 16px; align-items: center; }
#search-form { display: flex; gap: 8px; flex: 1; max-width: 760px; }
#q { flex: 1; padding: 7px 10px; font-size: 15px; border: 1px solid #bbb; border-radius: 6px; }
button { padding: 7px 14px; border-radius: 6px; border: 1px solid #888; background: #fafafa; cursor: pointer; }
#status { margin: 0; color: #666; }
main { display: grid; grid-template-columns: minmax(260px, 380px) 1fr; height: calc(100% - 58px); }
nav { overflow: auto; border-right: 1px solid #ddd; background: #fff; }
#results { list-style: none; margin: 0; padding: 0; outline: none; }
#results li { padding: 10px 14px; border-bottom: 1px solid #eee; cursor: pointer; }
#results li[aria-selected="true"] { background: #e8f0fe; box-shadow: inset 3px 0 0 #1a73e8; }
#results li:hover { background: #f1f5fd; }
.r-file { font-weight: 600; }
.r-meta { color: #666; font-size: 12px; }
.r-quote { margin-top: 4px; color: #333; display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; }
#source { overflow: auto; padding: 16px; outline: none; }
.hint, .note { color: #666; }
.page { position: relative; margin: 0 auto 18px; max-width: 900px; background: #fff; box-shadow: 0 1px 4px rgba(0,0,0,.2); }
.page img { display: block; width: 100%; height: auto; }
.page-label { font-size: 12px; color: #555; margin: 0 auto 4px; max-width: 900px; }
.overlay { position: absolute; inset: 0; pointer-events: none; }
.hl { position: absolute; }
.hl-region { outline: 2px solid rgba(26, 115, 232, 0.8); background: rgba(26, 115, 232, 0.06); }
.hl-quote { background: rgba(255, 0, 200, 0.35); }
.hl-approx { outline: 1px dashed rgba(180, 0, 140, 0.9); }
.text-fallback { max-width: 900px; margin: 0 auto 18px; padding: 14px 18px; background: #fff; white-space: pre-wrap; box-shadow: 0 1px 4px rgba(0,0,0,.2); }
mark.hl-quote { color: inherit; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
`;
