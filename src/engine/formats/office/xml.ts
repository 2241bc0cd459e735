import { DocParseError } from "../../../errors.js";

/**
 * XML for OOXML parts: fast-xml-parser in document order, entity expansion off.
 *
 * OOXML never declares a DTD, so a part with `<!DOCTYPE` or `<!ENTITY` is refused
 * (40422) instead of parsed: that closes billion-laughs and external entities. With
 * `processEntities: false` the parser leaves even `&amp;` alone, so the five predefined
 * entities and numeric references are decoded here, once, without recursion.
 */

/** An element: qualified name (`w:p`), attributes, children in order. */
export interface XNode {
  name: string;
  attrs: Record<string, string>;
  children: XNode[];
  /** Text content for `#text` nodes (decoded). */
  text?: string;
}

/** Deepest element nesting accepted. @default 256 */
export const MAX_XML_DEPTH = 256;

const PREDEFINED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Decodes the predefined XML entities and numeric character references. */
export function decodeEntities(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, body: string) => {
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    }
    return PREDEFINED[body] ?? m;
  });
}

type FxpNode = Record<string, unknown>;

let parserPromise: Promise<{ parse(xml: string): unknown }> | undefined;

async function parser(): Promise<{ parse(xml: string): unknown }> {
  parserPromise ??= import("fast-xml-parser").then(
    ({ XMLParser }) =>
      new XMLParser({
        preserveOrder: true,
        ignoreAttributes: false,
        attributeNamePrefix: "",
        processEntities: false,
        htmlEntities: false,
        parseTagValue: false,
        parseAttributeValue: false,
        trimValues: false,
        ignoreDeclaration: true,
        ignorePiTags: true,
        maxNestedTags: MAX_XML_DEPTH,
      }),
  );
  return parserPromise;
}

/**
 * Parses one XML part into an {@link XNode} root (a synthetic `#document`).
 * @throws DocParseError 40422 for a DTD or malformed XML, 40425 for nesting beyond {@link MAX_XML_DEPTH}.
 */
export async function parseXml(xml: string, part = "XML part"): Promise<XNode> {
  const head = xml.slice(0, 4096);
  if (/<!DOCTYPE|<!ENTITY/i.test(head) || /<!ENTITY/i.test(xml)) {
    throw new DocParseError(40422, `${part} declares a DTD or entities; refused (entity expansion is disabled)`);
  }
  let raw: unknown;
  try {
    raw = (await parser()).parse(xml);
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    if (/nested|depth/i.test(message)) throw new DocParseError(40425, `${part} nests elements deeper than ${MAX_XML_DEPTH} levels`, { cause });
    throw new DocParseError(40422, `${part} is not well-formed XML: ${message}`, { cause });
  }
  return { name: "#document", attrs: {}, children: convert(raw as FxpNode[]) };
}

function convert(list: FxpNode[]): XNode[] {
  const out: XNode[] = [];
  for (const item of list) {
    let attrs: Record<string, string> = {};
    let name: string | undefined;
    let value: unknown;
    for (const key of Object.keys(item)) {
      if (key === ":@") {
        attrs = {};
        for (const [k, v] of Object.entries(item[key] as Record<string, unknown>)) attrs[k] = decodeEntities(String(v));
      } else {
        name = key;
        value = item[key];
      }
    }
    if (name === undefined) continue;
    if (name === "#text") {
      out.push({ name, attrs: {}, children: [], text: decodeEntities(String(value)) });
    } else {
      out.push({ name, attrs, children: Array.isArray(value) ? convert(value as FxpNode[]) : [] });
    }
  }
  return out;
}

/** Local name without the namespace prefix (`w:p` → `p`). */
export function local(name: string): string {
  const i = name.indexOf(":");
  return i < 0 ? name : name.slice(i + 1);
}

/** First child with the given qualified name. */
export function child(node: XNode | undefined, name: string): XNode | undefined {
  return node?.children.find((c) => c.name === name);
}

/** All children with the given qualified name. */
export function children(node: XNode | undefined, name: string): XNode[] {
  return node ? node.children.filter((c) => c.name === name) : [];
}

/** Follows a path of qualified names from a node. */
export function path(node: XNode | undefined, ...names: string[]): XNode | undefined {
  let cur = node;
  for (const n of names) cur = child(cur, n);
  return cur;
}

/** First descendant (depth-first) with the given qualified name. */
export function find(node: XNode | undefined, name: string): XNode | undefined {
  if (!node) return undefined;
  const stack = [...node.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (n.name === name) return n;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return undefined;
}

/** All descendants with the given qualified name, in document order. */
export function findAll(node: XNode | undefined, name: string): XNode[] {
  const out: XNode[] = [];
  if (!node) return out;
  const stack = [...node.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (n.name === name) out.push(n);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

/** Concatenated text of all `#text` descendants. */
export function textOf(node: XNode | undefined): string {
  if (!node) return "";
  if (node.text !== undefined) return node.text;
  let s = "";
  for (const c of node.children) s += textOf(c);
  return s;
}

/** Reads a relationships part (`_rels/x.rels`) into id → { target, type }. */
export async function readRels(xml: string | undefined, basePath: string): Promise<Map<string, { target: string; type: string; external: boolean }>> {
  const map = new Map<string, { target: string; type: string; external: boolean }>();
  if (!xml) return map;
  const root = await parseXml(xml, "relationships");
  for (const r of findAll(root, "Relationship")) {
    const id = r.attrs.Id;
    const target = r.attrs.Target;
    if (!id || !target) continue;
    const external = r.attrs.TargetMode === "External";
    map.set(id, { target: external ? target : resolvePart(basePath, target), type: r.attrs.Type ?? "", external });
  }
  return map;
}

/** Resolves a relationship target against the folder of the part that owns it. */
export function resolvePart(baseDir: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = baseDir.split("/").filter(Boolean);
  for (const seg of target.split("/")) {
    if (seg === "..") parts.pop();
    else if (seg !== "." && seg !== "") parts.push(seg);
  }
  return parts.join("/");
}
