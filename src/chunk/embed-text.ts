import type { ResolvedChunkOptions } from "./options.js";
import type { Section } from "./sections.js";

/** A string template with the heading context filled in: `before + text + after`. */
interface Frame {
  before: string;
  after: string;
  beforeTokens: number;
  afterTokens: number;
}

/**
 * Makes `embedText` from a heading path and a body, and knows what the heading part
 * costs in tokens (cached per section) so the body budget can be planned.
 *
 * A heading path that would take more than half of `maxTokens` is shortened from the
 * root side (the nearest headings say the most), so a very deep or very long outline
 * cannot leave no room for the body.
 */
export class EmbedText {
  private readonly prefixCache = new Map<string, { path: readonly string[]; tokens: number }>();
  private readonly frames = new Map<string, Frame>();
  /** The string template split around its only `{text}` (undefined: a function, or several). */
  private readonly split: [string, string] | undefined;

  constructor(private readonly o: ResolvedChunkOptions) {
    const t = o.embedTemplate;
    if (typeof t === "string") {
      const at = t.indexOf("{text}");
      if (at >= 0 && t.indexOf("{text}", at + 1) === -1) this.split = [t.slice(0, at), t.slice(at + "{text}".length)];
    }
  }

  render(text: string, headingPath: readonly string[], extra?: string): string {
    const frame = this.frame(headingPath, extra);
    if (frame) return frame.before + text + frame.after;
    const context = extra ? [...headingPath, extra].join(" > ") : headingPath.join(" > ");
    const t = this.o.embedTemplate;
    if (typeof t === "function") return t({ text, headingPath: [...headingPath], context });
    const out = t.replaceAll("{headingPath}", headingPath.join(" > ")).replaceAll("{context}", context).replaceAll("{text}", text);
    return context === "" ? out.replace(/^[ \t]*(\r?\n)+/, "") : out;
  }

  /**
   * Tokens of `render(text, ...)` from the tokens of `text`, without counting the text
   * again, when the tokenizer offers `countJoined` and can tell; undefined otherwise.
   */
  tokensAround(text: string, textTokens: number, headingPath: readonly string[], extra?: string): number | undefined {
    const join = this.o.tokenizer.countJoined;
    const frame = this.frame(headingPath, extra);
    if (!join || !frame) return undefined;
    const t = this.o.tokenizer;
    const withBefore = frame.before === "" ? textTokens : join.call(t, frame.before, frame.beforeTokens, "", text, textTokens);
    if (withBefore === undefined || frame.after === "") return withBefore;
    return join.call(t, frame.before + text, withBefore, "", frame.after, frame.afterTokens);
  }

  private frame(headingPath: readonly string[], extra: string | undefined): Frame | undefined {
    if (!this.split) return undefined;
    const key = extra === undefined ? headingPath.join("\u0000") : `${headingPath.join("\u0000")}\u0001${extra}`;
    let frame = this.frames.get(key);
    if (frame) return frame;
    const context = extra ? [...headingPath, extra].join(" > ") : headingPath.join(" > ");
    const fill = (s: string) => s.replaceAll("{headingPath}", headingPath.join(" > ")).replaceAll("{context}", context);
    let before = fill(this.split[0]);
    const after = fill(this.split[1]);
    // With no heading context, the blank lines meant to follow it would lead the text.
    if (context === "") before = before.replace(/^[ \t]*(\r?\n)+/, "");
    const made: Frame = { before, after, beforeTokens: this.o.tokenizer.count(before), afterTokens: this.o.tokenizer.count(after) };
    if (this.frames.size > 10_000) this.frames.clear();
    this.frames.set(key, made);
    return made;
  }

  /** The heading path used in embeddings for a section (maybe shortened) and its cost. */
  prefix(section: Section): { path: readonly string[]; tokens: number } {
    const known = this.prefixCache.get(section.id);
    if (known) return known;
    const count = (path: readonly string[]) => this.o.tokenizer.count(this.render("", path));
    let path = section.headingPath;
    let tokens = count(path);
    while (path.length > 0 && tokens * 2 > this.o.maxTokens) {
      path = path.slice(1);
      tokens = count(path);
    }
    const result = { path, tokens };
    this.prefixCache.set(section.id, result);
    return result;
  }
}
