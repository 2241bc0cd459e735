/**
 * Layout analysis over positioned text, generic over formats: runs → lines → blocks,
 * reading order (XY-cut), tables from ruling lines and alignment, headings, running
 * headers/footers, captions and continuations. Pure functions, no I/O.
 */
export * from "./types.js";
export { buildLines, makeLine, type LineOptions } from "./lines.js";
export { buildBlocks, finishBlock, type BlockOptions } from "./blocks.js";
export { LIST_MARKER } from "./list-marker.js";
export { readingOrder, type ReadingOrderOptions } from "./reading-order.js";
export { findTables, type TableOptions, type TableResult } from "./tables.js";
export { mergeSegments, distinct } from "./segments.js";
export { classifyBlocks, blockChars, inlineFormulas, FIGURE_CAPTION, TABLE_CAPTION } from "./classify.js";
export { assignListLevels } from "./list-levels.js";
export { layoutPage, tableText, type PageContent, type PageLayoutOptions } from "./page.js";
export { finishDocument, type PageLayout, type OutlineEntry, type LaidElement, type DocumentOptions } from "./document.js";
export { toDraftElements, normaliseBox, type ToDraftOptions } from "./to-draft.js";
export { type Frame, frameSize, toFrame, fromFrame, dominantAngle, contentToFrame } from "./frame.js";
export { markVerticalWriting, uprightLinesAsRuns } from "./vertical.js";
export { findAlignedTables, type AlignedTableOptions } from "./aligned-tables.js";
export { bulletRuns, withoutControlDots, BULLET_TEXT, type BulletShape, type BulletOptions } from "./bullets.js";
export { chartGrids, findFigures, FIGURE_SCALE, type VectorFigure } from "./figures.js";
