/**
 * A Latin caption label's number: `3`, `3.2`, `2-1`, `3a`, `3(a)`, `S1`, `IV`, `A`. What
 * follows it: nothing, a colon or dash, a full stop or hyphen before a space (`Figure 3.`,
 * not `Figure 3.2`), `(continued)`, or a word that is not lower case (`Fig. 1 Sales by
 * region`). A sentence that only starts with a reference (`Table 1 lists…`, `Figure 3.2
 * shows…`, `Table 4 (left) compares…`) is prose.
 */
const LABEL = String.raw`(?:S?\d+(?:[.\-]\d+)*[a-z]?(?:\([a-z]\))?|[IVX]+\b|[A-Z]\b)(?=$|\s*[:|\u2013\u2014]|\s*[.\-](?:\s|$)|\s*\((?:continued|cont(?:'d|\.)?)\)|\s+[^\sa-z(])`;
/** `Figure 3:`, `Fig. 2 Sales`, `图 1`: a figure caption. */
export const FIGURE_CAPTION = new RegExp(String.raw`^(?:(?:[Ff]igure|FIGURE|[Ff]ig\.|FIG\.|Chart|Exhibit|Plate)\s*${LABEL}|(?:图|圖)\s*[\d一二三四五六七八九十])`);
/** `Table 2:`, `TABLE I`, `表 3`: a table caption. */
export const TABLE_CAPTION = new RegExp(String.raw`^(?:(?:[Tt]able|TABLE|[Tt]ab\.)\s*${LABEL}|表\s*[\d一二三四五六七八九十])`);

/** Whether text opens a figure or table caption. */
export const isCaption = (text: string): boolean => FIGURE_CAPTION.test(text) || TABLE_CAPTION.test(text);
