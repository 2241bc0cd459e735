import type { Line } from "./types.js";

/*
 * Dialogue: transcripts, interviews, depositions and scripts set each utterance as a
 * paragraph opening with its speaker (`INTERVIEWER:`, `Maria Lopez:`, `Q.`), often with no
 * spacing between them and lines of about the column's width, so neither the spacing nor
 * a short last line tells where one ends. The speaker does: `buildBlocks` starts a new
 * paragraph at a line opening with a speaker once the line above ends its sentence.
 */

/**
 * A speaker opening a line: up to four capitalised words (`MR. KLEIN`, `Dr. Anna de Vries`,
 * `THE WITNESS`) and a colon, or a deposition's `Q.` / `A.`. Group 1 is the speaker.
 */
const SPEAKER = /^\s*((?:\p{Lu}[\p{L}'’.-]*)(?:\s(?:\p{Lu}[\p{L}'’.-]*|de|van|von|der|da|di|le|la|al|bin|ibn)){0,3})\s?:\s+\S|^\s*([QA])[.:]\s+\S/u;

/** Where a speaker's colon can stand in a line (a cheap test before {@link SPEAKER}). */
const MAX_LABEL = 40;

/**
 * The lines of a page that open with a speaker, when three lines or more do and one
 * speaker speaks twice at least: one `Note:` or `Warning:` line is no dialogue. A speaker
 * must speak twice, or be written in capitals: a label met once (`Address: 12 Elm
 * Street`) is no speaker.
 */
export function speakerLines(lines: readonly Line[]): ReadonlySet<Line> {
  const found: Array<[Line, string]> = [];
  const seen = new Map<string, number>();
  for (const line of lines) {
    const text = line.text;
    const colon = text.indexOf(":");
    const qa = (text.startsWith("Q") || text.startsWith("A")) && (text[1] === "." || text[1] === ":");
    if (!qa && (colon < 1 || colon > MAX_LABEL)) continue;
    const m = SPEAKER.exec(text);
    if (!m) continue;
    const who = m[1] ?? m[2]!;
    found.push([line, who]);
    seen.set(who, (seen.get(who) ?? 0) + 1);
  }
  const speakers = new Set<Line>();
  if (found.length < 3 || ![...seen.values()].some((n) => n >= 2)) return speakers;
  // In a dialogue, a speaker in capitals speaks once too (`MR. KLEIN:` between the `Q.`s and `A.`s).
  for (const [line, who] of found) if (seen.get(who)! >= 2 || (who.length > 1 && who === who.toUpperCase())) speakers.add(line);
  return speakers;
}
