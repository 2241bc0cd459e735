/**
 * Formats a spreadsheet number or date as Excel shows it, from the cell's number format
 * code (`#,##0.00`, `0%`, `yyyy-mm-dd`, `"$"#,##0;[Red]-"$"#,##0`, ...). Covers the
 * formats people use in tables; an exotic code (fractions, conditions) falls back to
 * Excel's General display rather than to something wrong-looking.
 */

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** Excel's General display: integers as is, others to 10 significant digits. */
export function generalNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  const abs = Math.abs(v);
  if (abs !== 0 && (abs >= 1e11 || abs < 1e-9)) return v.toExponential(5).replace(/\.?0+e/, "E").replace(/E(\d)/, "E+$1");
  return String(Number(v.toPrecision(10)));
}

/** Splits a format code into its `;` sections, respecting quotes, escapes and brackets. */
function sections(code: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  let bracket = false;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i]!;
    if (ch === "\\" && !quoted) {
      cur += ch + (code[i + 1] ?? "");
      i++;
      continue;
    }
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === "[") bracket = true;
    else if (!quoted && ch === "]") bracket = false;
    if (ch === ";" && !quoted && !bracket) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** Removes colours/conditions, turns `[$€-407]` into `€` and drops locale-only tags. */
function cleanBrackets(section: string): string {
  return section.replace(/\[([^\]]*)\]/g, (_m, inner: string) => {
    if (inner.startsWith("$")) return quote(inner.slice(1).split("-")[0] ?? "");
    if (/^(h+|m+|s+)$/i.test(inner)) return inner; // elapsed time: [h]:mm
    return "";
  });
}

const quote = (s: string) => (s ? `"${s}"` : "");

/** Splits into tokens: quoted literals (kept with a marker), escapes and plain characters. */
function literalize(section: string): { pattern: string; literals: string[] } {
  const literals: string[] = [];
  let pattern = "";
  for (let i = 0; i < section.length; i++) {
    const ch = section[i]!;
    if (ch === '"') {
      const end = section.indexOf('"', i + 1);
      literals.push(section.slice(i + 1, end < 0 ? undefined : end));
      pattern += "\u0001";
      i = end < 0 ? section.length : end;
    } else if (ch === "\\") {
      literals.push(section[i + 1] ?? "");
      pattern += "\u0001";
      i++;
    } else if (ch === "_") {
      // `_x`: a space as wide as x.
      literals.push(" ");
      pattern += "\u0001";
      i++;
    } else if (ch === "*") {
      i++; // fill character: no fixed width in text
    } else pattern += ch;
  }
  return { pattern, literals };
}

function restore(s: string, literals: string[]): string {
  let k = 0;
  return s.replace(/\u0001/g, () => literals[k++] ?? "");
}

/** True when a format code displays a date or time. */
export function isDateFormat(code: string | undefined): boolean {
  if (!code) return false;
  const { pattern } = literalize(cleanBrackets(sections(code)[0] ?? ""));
  return /[ymdhs]/i.test(pattern.replace(/AM\/PM|A\/P/gi, "")) && !/[0#?]/.test(pattern.replace(/\.0+/g, ""));
}

/** Formats a number with a format code. */
export function formatNumber(v: number, code: string | undefined): string {
  if (!code || /^general$/i.test(code.trim()) || code === "@") return generalNumber(v);
  const secs = sections(code);
  let section = secs[0]!;
  let value = v;
  if (v < 0 && secs.length >= 2 && secs[1]!.trim() !== "") {
    section = secs[1]!;
    value = -v;
  } else if (v === 0 && secs.length >= 3) section = secs[2]!;
  if (/^general$/i.test(section.trim())) return generalNumber(v);
  const cleaned = cleanBrackets(section);
  const { pattern, literals } = literalize(cleaned);
  if (isDateFormat(cleaned)) return restore(formatDatePattern(serialToDate(value), pattern), literals);
  if (/\?\/|#\/|\/\?/.test(pattern)) return generalNumber(v);
  const first = pattern.search(/[0#?]/);
  if (first < 0) return restore(pattern, literals) || generalNumber(v);
  let last = first;
  for (let i = first; i < pattern.length; i++) if (/[0#?]/.test(pattern[i]!)) last = i;
  const core = pattern.slice(first, last + 1);
  // Commas right after the last digit scale by 1000 each and are not separators.
  let scale = 0;
  while (pattern[last + 1 + scale] === ",") scale++;
  const prefix = pattern.slice(0, first);
  const suffix = pattern.slice(first + core.length + scale);
  const percent = (prefix + suffix).split("%").length - 1;
  const x = Math.abs(value) * 100 ** percent / 1000 ** scale;
  const sci = /[Ee][+-]/.exec(core);
  let body: string;
  if (sci) {
    const mant = core.slice(0, sci.index);
    const decimals = (mant.split(".")[1] ?? "").replace(/[^0#?]/g, "").length;
    const [m, e] = x.toExponential(decimals).split("e");
    const expDigits = core.slice(sci.index + 2).length;
    const en = Number(e);
    body = `${m}E${en < 0 ? "-" : "+"}${String(Math.abs(en)).padStart(expDigits, "0")}`;
  } else {
    const [intPat = "", decPat = ""] = core.split(".");
    const decimals = decPat.replace(/[^0#?]/g, "").length;
    const minDecimals = decPat.replace(/[^0]/g, "").length;
    const minInt = intPat.replace(/[^0]/g, "").length;
    const grouped = intPat.includes(",");
    let [ip = "0", dp = ""] = x.toFixed(decimals).split(".");
    while (dp.length > minDecimals && dp.endsWith("0")) dp = dp.slice(0, -1);
    if (ip === "0" && minInt === 0) ip = "";
    ip = ip.padStart(minInt, "0");
    if (grouped) ip = ip.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    body = dp ? `${ip}.${dp}` : ip;
    if (body === "") body = "0";
  }
  const sign = value < 0 && (secs.length < 2 || secs[1]!.trim() === "") ? "-" : "";
  return restore(prefix, literals.slice(0, count(prefix))) + sign + body + restore(suffix, literals.slice(count(prefix)));
}

const count = (s: string) => s.split("\u0001").length - 1;

/** Excel serial (1900 system) → Date at UTC. */
export function serialToDate(serial: number): Date {
  // 25569 = days from 1899-12-30 (Excel's effective epoch, after its 1900 leap bug) to 1970-01-01.
  return new Date(Math.round((serial - 25569) * 86400 * 1000));
}

/** Formats a Date (its UTC fields, as exceljs builds dates) with a date format code. */
export function formatDate(d: Date, code: string | undefined): string {
  if (Number.isNaN(d.getTime())) return "";
  if (!code || /^general$/i.test(code.trim()) || !isDateFormat(code)) {
    const iso = d.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.slice(0, 19).replace("T", " ");
  }
  const { pattern, literals } = literalize(cleanBrackets(sections(code)[0]!));
  return restore(formatDatePattern(d, pattern), literals);
}

function formatDatePattern(d: Date, pattern: string): string {
  const tokens = pattern.match(/\u0001|AM\/PM|am\/pm|A\/P|a\/p|y+|m+|d+|h+|s+(?:\.0+)?|[^ymdhsAa\u0001]+|./gi) ?? [];
  const ampm = /AM\/PM|A\/P/i.test(pattern);
  const out: string[] = [];
  tokens.forEach((t, i) => {
    const lower = t.toLowerCase();
    const prev = tokens.slice(0, i).reverse().find((x) => /^[hms]/i.test(x) || /^[yd]/i.test(x));
    const next = tokens.slice(i + 1).find((x) => /^[hmsyd]/i.test(x));
    if (lower.startsWith("y")) out.push(lower.length <= 2 ? String(d.getUTCFullYear() % 100).padStart(2, "0") : String(d.getUTCFullYear()));
    else if (lower.startsWith("m") && !/^am\/pm$/.test(lower)) {
      // "m" is minutes right after an hour or right before seconds, months otherwise.
      const minutes = (prev && /^h/i.test(prev)) || (next && /^s/i.test(next));
      if (minutes) out.push(lower.length >= 2 ? String(d.getUTCMinutes()).padStart(2, "0") : String(d.getUTCMinutes()));
      else if (lower.length === 1) out.push(String(d.getUTCMonth() + 1));
      else if (lower.length === 2) out.push(String(d.getUTCMonth() + 1).padStart(2, "0"));
      else if (lower.length === 3) out.push(MONTHS[d.getUTCMonth()]!.slice(0, 3));
      else if (lower.length === 5) out.push(MONTHS[d.getUTCMonth()]![0]!);
      else out.push(MONTHS[d.getUTCMonth()]!);
    } else if (lower.startsWith("d")) {
      if (lower.length === 1) out.push(String(d.getUTCDate()));
      else if (lower.length === 2) out.push(String(d.getUTCDate()).padStart(2, "0"));
      else if (lower.length === 3) out.push(DAYS[d.getUTCDay()]!.slice(0, 3));
      else out.push(DAYS[d.getUTCDay()]!);
    } else if (lower.startsWith("h")) {
      let h = d.getUTCHours();
      if (ampm) h = h % 12 || 12;
      out.push(lower.length >= 2 ? String(h).padStart(2, "0") : String(h));
    } else if (lower.startsWith("s")) {
      const [sPart, frac] = lower.split(".");
      out.push(sPart!.length >= 2 ? String(d.getUTCSeconds()).padStart(2, "0") : String(d.getUTCSeconds()));
      if (frac) out.push("." + String(d.getUTCMilliseconds()).padStart(3, "0").slice(0, frac.length));
    } else if (lower === "am/pm") out.push(d.getUTCHours() < 12 ? "AM" : "PM");
    else if (lower === "a/p") out.push(d.getUTCHours() < 12 ? "A" : "P");
    else out.push(t);
  });
  return out.join("");
}
