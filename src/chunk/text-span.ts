/** A box of part of a text, with the offsets it covers. */
export interface TextBox {
  /** [start, end) in the text the box belongs to. */
  start: number;
  end: number;
  coordinates: number[];
}

/**
 * A piece of a chunk's text with its box: an entry of the optional `metadata.textSpans`
 * that `addCitationGeometry` writes and the retrieve stage reads for exact highlights.
 */
export interface ChunkTextSpan extends TextBox {
  page: number;
  elementId: string;
  /** How fine the box is. @default "element" */
  granularity?: "char" | "run" | "line" | "element";
}
