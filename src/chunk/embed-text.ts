import type { EmbedTemplateContext, ResolvedChunkOptions } from "./options.js";
import type { Section } from "./sections.js";

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

  constructor(private readonly o: ResolvedChunkOptions) {}

  render(text: string, headingPath: readonly string[], extra?: string): string {
    const parts = extra ? [...headingPath, extra] : headingPath;
    const context = parts.join(" > ");
    const t = this.o.embedTemplate;
    if (typeof t === "function") {
      const ctx: EmbedTemplateContext = { text, headingPath: [...headingPath], context };
      return t(ctx);
    }
    const out = t.replaceAll("{headingPath}", headingPath.join(" > ")).replaceAll("{context}", context).replaceAll("{text}", text);
    return context === "" ? out.replace(/^[ \t]*(\r?\n)+/, "") : out;
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
