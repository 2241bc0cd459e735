import type { DocNode } from "./nodes.js";
import type { ChunkWarning } from "./options.js";

/** A stretch of rendered text and the stretch of the element's `text` it came from. */
export interface Segment {
  /** [start, end) in the rendered text. */
  rStart: number;
  rEnd: number;
  /** [start, end) in the element's source `text`. */
  sStart: number;
  sEnd: number;
  /** Set on an inline object: the whole rendered stretch maps to the whole source range. */
  object?: { objectId?: string; type: string };
}

/** An element's text as it goes into chunks, with the way back to source offsets. */
export interface RenderedText {
  text: string;
  /** Ascending, covering `text` without gaps; empty when `text` is the source as is. */
  segments: Segment[];
}

export type { ChunkInlineObject } from "./chunk.js";

const DOLLAR = /^\s*\$[\s\S]*\$\s*$/;

function formula(body: string, display: boolean): string {
  const t = body.trim();
  if (DOLLAR.test(t)) return t;
  return display ? `$$${t}$$` : `$${t}$`;
}

/**
 * Renders a text element: inline formulas become `$...$` (`$$...$$` in display mode),
 * other inline objects (handwriting) keep their text; a whole `Formula` element becomes
 * `$$...$$`. Objects with a bad or overlapping `text_range` are ignored with a warning.
 */
export function renderText(node: DocNode, warn: (w: ChunkWarning) => void): RenderedText {
  const source = node.text;
  if (node.type === "Formula" && source.trim() !== "") {
    const text = formula(source, true);
    return { text, segments: [{ rStart: 0, rEnd: text.length, sStart: 0, sEnd: source.length, object: { type: "formula" } }] };
  }
  const objects = Array.isArray(node.element.objects) ? node.element.objects : [];
  if (objects.length === 0) return plain(source);
  const usable: { start: number; end: number; type: string; objectId?: string; text: string; display: boolean }[] = [];
  for (const o of objects) {
    const range = o && Array.isArray(o.text_range) ? o.text_range : undefined;
    const start = range?.[0];
    const end = range?.[1];
    if (typeof start !== "number" || typeof end !== "number" || start < 0 || end < start || end > source.length) {
      warn({ code: "inline_object_range", message: `inline object ${String(o?.object_id)} of ${node.id} has an unusable text_range`, elementId: node.id });
      continue;
    }
    usable.push({
      start,
      end,
      type: typeof o.type === "string" ? o.type : "unknown",
      ...(typeof o.object_id === "string" ? { objectId: o.object_id } : {}),
      text: typeof o.text === "string" && o.text !== "" ? o.text : source.slice(start, end),
      display: o.metadata?.display_mode === "display",
    });
  }
  usable.sort((a, b) => a.start - b.start || a.end - b.end);
  let text = "";
  const segments: Segment[] = [];
  let pos = 0;
  for (const o of usable) {
    if (o.start < pos) {
      warn({ code: "inline_object_overlap", message: `inline object ${String(o.objectId)} of ${node.id} overlaps another`, elementId: node.id });
      continue;
    }
    if (o.start > pos) {
      segments.push({ rStart: text.length, rEnd: text.length + (o.start - pos), sStart: pos, sEnd: o.start });
      text += source.slice(pos, o.start);
    }
    const rendered = o.type === "formula" ? formula(o.text, o.display) : o.text;
    const seg: Segment = { rStart: text.length, rEnd: text.length + rendered.length, sStart: o.start, sEnd: o.end, object: { type: o.type } };
    if (o.objectId !== undefined) seg.object!.objectId = o.objectId;
    segments.push(seg);
    text += rendered;
    pos = o.end;
  }
  if (pos < source.length) {
    segments.push({ rStart: text.length, rEnd: text.length + (source.length - pos), sStart: pos, sEnd: source.length });
    text += source.slice(pos);
  }
  return { text, segments };
}

// Most elements have no inline objects: one shared empty list means "offsets are the
// source's own" and saves two objects per element.
const IDENTITY: Segment[] = [];

function plain(source: string): RenderedText {
  return { text: source, segments: IDENTITY };
}

/** Maps a rendered range back to the source range it came from (objects map whole). */
export function toSourceRange(r: RenderedText, start: number, end: number): [number, number] {
  if (r.segments.length === 0) return [start, end];
  let sStart = -1;
  let sEnd = -1;
  for (const s of r.segments) {
    if (s.rEnd <= start || s.rStart >= end) continue;
    const a = s.object ? s.sStart : s.sStart + Math.max(0, start - s.rStart);
    const b = s.object ? s.sEnd : s.sStart + (Math.min(end, s.rEnd) - s.rStart);
    if (sStart === -1 || a < sStart) sStart = a;
    if (b > sEnd) sEnd = b;
  }
  return sStart === -1 ? [0, 0] : [sStart, sEnd];
}
