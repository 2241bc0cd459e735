import { describe, expect, it } from "vitest";
import { DirectPort } from "../../src/engine/formats/pdf-port.js";
import { rawPdf } from "../support/pdf-fixtures.js";
import { parsePdf } from "./pdf-helpers.js";

type Event = { data: unknown };

function listen(port: DirectPort, signal?: AbortSignal): Event[] {
  const got: Event[] = [];
  port.addEventListener("message", (e) => got.push(e), signal ? { signal } : undefined);
  return got;
}

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe("DirectPort", () => {
  it("delivers asynchronously, in order, to every listener", async () => {
    const port = new DirectPort();
    const a = listen(port);
    const b = listen(port);
    port.postMessage({ n: 1 });
    port.postMessage({ n: 2 });
    expect(a).toHaveLength(0);
    await tick();
    expect(a.map((e) => (e.data as { n: number }).n)).toEqual([1, 2]);
    expect(b).toHaveLength(2);
  });

  it("clones ordinary messages, so the sender may change them afterwards", async () => {
    const port = new DirectPort();
    const got = listen(port);
    const message = { action: "x", data: { items: [1, 2] } };
    port.postMessage(message);
    message.data.items.length = 0;
    await tick();
    expect(got[0]!.data).toEqual({ action: "x", data: { items: [1, 2] } });
    expect(got[0]!.data).not.toBe(message);
  });

  it("hands operator-list chunks over by reference, copying the two arrays the worker empties", async () => {
    const port = new DirectPort();
    const got = listen(port);
    const glyphs = [{ unicode: "A", width: 500 }];
    const chunk = { fnArray: [44], argsArray: [[glyphs]], lastChunk: true, length: 1 };
    port.postMessage({ sourceName: "w", targetName: "m", stream: 4, streamId: 1, chunk });
    // What OperatorList.flush does right after enqueueing.
    chunk.fnArray.length = 0;
    chunk.argsArray.length = 0;
    await tick();
    const sent = (got[0]!.data as { chunk: typeof chunk; streamId: number }).chunk;
    expect(sent.fnArray).toEqual([44]);
    expect(sent.lastChunk).toBe(true);
    expect((sent.argsArray[0] as unknown[])[0]).toBe(glyphs);
    expect((got[0]!.data as { streamId: number }).streamId).toBe(1);
  });

  it("stops delivering to a listener removed directly, by its abort signal, or on terminate", async () => {
    const port = new DirectPort();
    const ac = new AbortController();
    const bySignal = listen(port, ac.signal);
    const kept = listen(port);
    const removed: Event[] = [];
    const listener = (e: Event): void => void removed.push(e);
    port.addEventListener("message", listener);
    port.removeEventListener("message", listener);
    ac.abort();
    port.postMessage({ n: 1 });
    await tick();
    expect(bySignal).toHaveLength(0);
    expect(removed).toHaveLength(0);
    expect(kept).toHaveLength(1);
    port.terminate();
    port.postMessage({ n: 2 });
    await tick();
    expect(kept).toHaveLength(1);
  });

  it("ignores a listener whose signal is already aborted", async () => {
    const port = new DirectPort();
    const got = listen(port, AbortSignal.abort());
    port.postMessage({ n: 1 });
    await tick();
    expect(got).toHaveLength(0);
  });

  // A value nested deeper than structuredClone's stack allows (what pdfjs' getOutline
  // answers for an outline 20,000 levels deep).
  const nested = (depth: number): unknown => {
    let v: unknown = {};
    for (let i = 0; i < depth; i++) v = { items: [v] };
    return v;
  };

  it("turns an answer it cannot clone into that request's error, instead of throwing", async () => {
    const port = new DirectPort();
    const got = listen(port);
    expect(() => port.postMessage({ sourceName: "w", targetName: "m", callback: 1, callbackId: 7, data: nested(200_000) })).not.toThrow();
    expect(() => port.postMessage({ sourceName: "w", targetName: "m", stream: 4, streamId: 3, chunk: nested(200_000) })).not.toThrow();
    await tick();
    expect(got.map((e) => e.data)).toMatchObject([
      { sourceName: "w", targetName: "m", callback: 2, callbackId: 7, reason: { name: "UnknownErrorException" } },
      { sourceName: "w", targetName: "m", stream: 5, streamId: 3, reason: { name: "UnknownErrorException" } },
    ]);
    // A message that answers nothing still throws to its sender.
    expect(() => port.postMessage({ action: "x", data: nested(200_000) })).toThrow(RangeError);
  });
});

describe("DirectPort: a hostile outline", () => {
  it("reads a document whose outline nests 20,000 levels deep (it stopped the parser thread twice: code 500)", async () => {
    const depth = 20_000;
    const first = 7;
    const items = Array.from({ length: depth }, (_, i) => {
      const kid = i + 1 < depth ? ` /First ${first + i + 1} 0 R /Last ${first + i + 1} 0 R /Count 1` : "";
      return `<< /Title (Level ${i}) /Parent ${i ? first + i - 1 : 6} 0 R /Dest [5 0 R /Fit]${kid} >>`;
    });
    const bytes = rawPdf([
      "<< /Type /Catalog /Pages 2 0 R /Outlines 6 0 R >>",
      "<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
      { dict: "", data: "BT /F1 12 Tf 72 700 Td (Deep outline body) Tj ET" },
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 3 0 R >> >> >>",
      `<< /Type /Outlines /First ${first} 0 R /Last ${first} 0 R /Count 1 >>`,
      ...items,
    ]);
    const doc = await parsePdf(bytes);
    expect(doc.elements.map((e) => e.text)).toContain("Deep outline body");
  });
});
