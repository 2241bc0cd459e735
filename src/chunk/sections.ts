import type { Block } from "./blocks.js";
import type { DocumentTree } from "./document-tree.js";
import type { DocNode } from "./nodes.js";
import type { ChunkStrategy } from "./options.js";

/** The section a block belongs to: the nearest heading at or above `headingLevel`. */
export interface Section {
  /** Element id of the section's heading, or `"root"` before the first one. */
  id: string;
  /** Node indexes of the titles from the root down to the section heading. */
  titleIndexes: readonly number[];
  /** Their element ids. */
  titleIds: readonly string[];
  /** Their texts: the chunk's `headingPath`. */
  headingPath: readonly string[];
}

const ROOT: Section = { id: "root", titleIndexes: [], titleIds: [], headingPath: [] };

/** Finds sections, memoised per heading so 100k elements cost 100k lookups. */
export class SectionIndex {
  private readonly byTitle = new Map<number, Section>();

  constructor(
    private readonly nodes: readonly DocNode[],
    private readonly tree: DocumentTree,
    private readonly headingLevel: number,
  ) {}

  of(node: DocNode): Section {
    const chain = this.tree.headingChain(node.index);
    if (chain.length === 0) return ROOT;
    const nearest = chain[chain.length - 1]!;
    const known = this.byTitle.get(nearest);
    if (known) return known;
    let k = chain.length - 1;
    while (k >= 0 && this.tree.level[chain[k]!]! > this.headingLevel) k--;
    let section = ROOT;
    if (k >= 0) {
      const titleIndexes = chain.slice(0, k + 1);
      section = {
        id: this.nodes[chain[k]!]!.id,
        titleIndexes,
        titleIds: titleIndexes.map((i) => this.nodes[i]!.id),
        headingPath: titleIndexes.map((i) => headingText(this.nodes[i]!.text)),
      };
    }
    this.byTitle.set(nearest, section);
    return section;
  }
}

/** A title as it appears in a heading path: one line, spaces collapsed. */
export function headingText(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** A run of consecutive blocks that chunks never cross. */
export interface Run {
  blocks: Block[];
  sections: Section[];
}

/**
 * Groups blocks into runs: by section (`hierarchy`), by the page a block starts on
 * (`by_page`), or one block per run (`by_element`).
 */
export function groupRuns(blocks: readonly Block[], sections: SectionIndex, strategy: ChunkStrategy): Run[] {
  const runs: Run[] = [];
  let current: Run | undefined;
  let currentKey: string | number | undefined;
  for (const block of blocks) {
    const section = sections.of(block.anchor);
    const key = strategy === "hierarchy" ? section.id : strategy === "by_page" ? block.anchor.page : undefined;
    if (!current || key === undefined || key !== currentKey) {
      current = { blocks: [], sections: [] };
      runs.push(current);
      currentKey = key;
    }
    current.blocks.push(block);
    current.sections.push(section);
  }
  return runs;
}
