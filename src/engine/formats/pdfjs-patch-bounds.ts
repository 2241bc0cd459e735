import type { PdfjsPatch } from "./pdfjs-patch.js";

/**
 * The pdfjs patches that bound hostile documents (applied with the others by
 * pdfjs-patch.ts, all or nothing, in this order): work that grew without end on a few
 * kilobytes of content stream. Found by the fuzz driver (test/bench/pdf/fuzz.ts); real
 * documents read the same with and without them (pdfjs-patch.test.ts compares).
 */
export const BOUND_PATCHES: readonly PdfjsPatch[] = [
  {
    name: "flat-graphics-state",
    why: "Not speed on real documents but a bound on hostile ones: each \`q\` made the new graphics state an Object.create() of the current one, so n unclosed \`q\` built a prototype chain n deep that every state read walked (and V8 re-optimised as each state became a prototype): 10,000 nested saves took 4 s of operator list, 200,000 (1 KB of Flate) never finished. The copy now takes the state's own fields (all of them: every state is such a copy) with the class prototype; a path buffer is still shared unless newPath, as before",
    find: `  clone({
    newPath = false
  } = {}) {
    const clone = Object.create(this);`,
    replace: `  clone({
    newPath = false
  } = {}) {
    const clone = Object.assign(Object.create(Object.getPrototypeOf(this)), this);`,
  },
  {
    name: "tiling-pattern-cycle",
    why: "Not speed but a bound: pdfjs refuses a form XObject that draws itself (prevRefs) but not a tiling pattern painting with itself, which it parsed again inside itself without end, asynchronously (no stack overflow): a 10 KB page grew its thread's heap to the 2 GB cap or held it until the document's timeout. A pattern already being parsed on this page's evaluator is now refused like a circular form: pdfjs ignores the pattern (its ignoreErrors), the rest of the page reads",
    find: `    return this.getOperatorList({
      stream: pattern,
      task,
      resources: patternResources,
      operatorList: tilingOpList
    }).then(function () {`,
    replace: `    const patternId = patternDict.objId;
    const inProgress = this._tilingInProgress ||= new Set();
    let parsed;
    if (patternId && inProgress.has(patternId)) {
      parsed = Promise.reject(new Error(\`handleTilingType - ignoring circular reference: \${patternId}\`));
    } else {
      if (patternId) inProgress.add(patternId);
      parsed = this.getOperatorList({
        stream: pattern,
        task,
        resources: patternResources,
        operatorList: tilingOpList
      });
      if (patternId) parsed = parsed.finally(() => inProgress.delete(patternId));
    }
    return parsed.then(function () {`,
  },
];
