import type { PdfjsPatch } from "./pdfjs-patch.js";

/**
 * The pdfjs patches that read a tagged PDF's tables (applied with the others by
 * pdfjs-patch.ts, all or nothing): a page's structure tree, tables only, at a cost that
 * does not grow with the document. pdf-struct.ts reads the tree.
 */
export const TABLE_TREE_PATCHES: readonly PdfjsPatch[] = [
  {
    name: "table-tree",
    why: "Not speed: tables, at a cost that stays linear. pdfjs' page structure tree (getStructTree) builds every structure element on the way from the page's content to the root, and each one parses all of its kids: Chromium hangs every paragraph of a document from one Document element, so each page parsed that element's thousands of kids again (30 ms a page at 550 pages, growing with the document). docparse reads only tables from the tree (pdf-struct.ts): each marked content's owner (the parent tree's array for the page, indexed by MCID) is followed up to its TD or TH, and the table's rows and each row's cells are read once per document. The tree has pdfjs' shape, tables only: Root › Table › TR (rows holding this page's content, in order) › TD/TH (every cell of such a row, with colSpan and rowSpan from its attributes) › content leaves; a table holding another table, a heading or a list is marked `layout`",
    find: `  _parseStructTree(structTreeRoot) {
    const tree = new StructTreePage(structTreeRoot, this.pageDict);
    tree.parse(this.ref);
    return tree;
  }`,
    replace: `  _parseStructTree(structTreeRoot) {
    const tree = new StructTreePage(structTreeRoot, this.pageDict);
    tree.parse(this.ref);
    return tree;
  }
  async getTableTree() {
    const root = await this.pdfManager.ensureCatalog("structTreeRoot");
    const id = this.pageDict.get("StructParents");
    if (!root?.parentTree || !Number.isInteger(id) || !(this.ref instanceof Ref)) {
      return null;
    }
    const owners = root.parentTree.get(id);
    if (!Array.isArray(owners)) {
      return null;
    }
    const xref = root.xref;
    const roleOf = dict => {
      const name = dict.get("S");
      const role = name instanceof Name ? name.name : "";
      return root.roleMap.get(role) ?? role;
    };
    const parentOf = dict => {
      const parent = dict.get("P");
      return parent instanceof Dict ? parent : null;
    };
    const kidsOf = dict => {
      const k = dict.getArray("K");
      return (Array.isArray(k) ? k : [k]).map(kid => xref.fetchIfRef(kid)).filter(kid => kid instanceof Dict && !isName(kid.get("Type"), "MCR") && !isName(kid.get("Type"), "OBJR"));
    };
    const spanOf = (cell, key) => {
      const attributes = cell.getArray("A");
      for (const attribute of Array.isArray(attributes) ? attributes : [attributes]) {
        const span = attribute instanceof Dict ? attribute.get(key) : undefined;
        if (Number.isInteger(span) && span > 1) {
          return Math.min(span, 100000);
        }
      }
      return undefined;
    };
    const known = root.docparseTables ??= new Map();
    const shapeOf = table => {
      let shape = known.get(table);
      if (!shape) {
        const rows = [];
        const walk = (dict, depth) => {
          for (const kid of kidsOf(dict)) {
            const role = roleOf(kid);
            if (role === "TR" && rows.length < 100000) {
              rows.push(kid);
            } else if (depth === 0 && (role === "THead" || role === "TBody" || role === "TFoot")) {
              walk(kid, 1);
            }
          }
        };
        walk(table, 0);
        shape = { rowOf: new Map(rows.map((row, i) => [row, i])), cellsOf: new Map(), layout: false, nested: false };
        for (let up = parentOf(table), depth = 0; up && depth < 40; up = parentOf(up), depth++) {
          const role = roleOf(up);
          if (role === "TD" || role === "TH") {
            shape.nested = true;
            break;
          }
        }
        known.set(table, shape);
      }
      return shape;
    };
    const page = this.ref.toString();
    const found = new Map();
    for (let mcid = 0; mcid < owners.length; mcid++) {
      let dict = xref.fetchIfRef(owners[mcid]);
      let cell = null;
      let sectioned = false;
      for (let depth = 0; dict instanceof Dict && depth < 40; depth++) {
        const role = roleOf(dict);
        if (role === "TD" || role === "TH") {
          cell = dict;
          break;
        }
        if (role === "Table" || isName(dict.get("Type"), "StructTreeRoot")) {
          break;
        }
        if (/^(?:H[1-6]?|L|LI)$/.test(role)) {
          sectioned = true;
        }
        dict = parentOf(dict);
      }
      const row = cell && parentOf(cell);
      if (!row || roleOf(row) !== "TR") {
        continue;
      }
      let table = parentOf(row);
      if (table && ["THead", "TBody", "TFoot"].includes(roleOf(table))) {
        table = parentOf(table);
      }
      if (!table || roleOf(table) !== "Table") {
        continue;
      }
      const shape = shapeOf(table);
      const at = shape.rowOf.get(row);
      if (at === undefined) {
        continue;
      }
      if (sectioned) {
        shape.layout = true;
      }
      let cells = shape.cellsOf.get(row);
      if (!cells) {
        cells = kidsOf(row).filter(kid => roleOf(kid) === "TD" || roleOf(kid) === "TH").map(kid => ({ dict: kid, role: roleOf(kid), colSpan: spanOf(kid, "ColSpan"), rowSpan: spanOf(kid, "RowSpan") }));
        shape.cellsOf.set(row, cells);
      }
      let rows = found.get(table);
      if (!rows) {
        found.set(table, rows = new Map());
      }
      let node = rows.get(at);
      if (!node) {
        node = { role: "TR", children: cells.map(({ role, colSpan, rowSpan }) => ({ role, children: [], ...(colSpan ? { colSpan } : {}), ...(rowSpan ? { rowSpan } : {}) })) };
        rows.set(at, node);
      }
      const k = cells.findIndex(c => c.dict === cell);
      if (k >= 0) {
        node.children[k].children.push({ type: "content", id: \`p\${page}_mc\${mcid}\` });
      }
    }
    const layouts = new Set();
    for (const [table, shape] of known) {
      if (shape.nested) {
        for (let up = parentOf(table), depth = 0; up && depth < 40; up = parentOf(up), depth++) {
          if (roleOf(up) === "Table") {
            layouts.add(up);
            break;
          }
        }
      }
    }
    const children = [...found].map(([table, rows]) => ({ role: "Table", layout: known.get(table).layout || layouts.has(table), children: [...rows].sort((a, b) => a[0] - b[0]).map(([, node]) => node) }));
    return { role: "Root", tablesOnly: true, children };
  }`,
  },
  {
    name: "table-tree-handler",
    why: "Not speed: the page's structure tree docparse asks for is the tables-only tree of `table-tree`",
    find: `    handler.on("GetStructTree", function (data) {
      return pdfManager.getPage(data.pageIndex).then(page => pdfManager.ensure(page, "getStructTree"));
    });`,
    replace: `    handler.on("GetStructTree", function (data) {
      return pdfManager.getPage(data.pageIndex).then(page => page.getTableTree());
    });`,
  },
];
