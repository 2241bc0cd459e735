import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { resolveInput, type FileUpload } from "../../src/client/input.js";
import { multipartBody } from "../../src/client/multipart.js";

async function collect(body: AsyncIterable<Uint8Array> | Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  if (body instanceof Uint8Array) return new Uint8Array(body);
  const parts: Buffer[] = [];
  if (Array.isArray(body)) return new Uint8Array(Buffer.concat(body as Uint8Array[]));
  for await (const c of body) parts.push(Buffer.from(c));
  return new Uint8Array(Buffer.concat(parts));
}

describe("multipartBody", () => {
  it("round-trips through a standard form-data parser, with an exact content-length", async () => {
    const file = (await resolveInput(new TextEncoder().encode("héllo 世界"), 'we"ird\nname.txt')) as FileUpload;
    const mp = multipartBody([["config", '{"capabilities":{"pages":true}}']], file);
    const bytes = await collect(mp.body);
    expect(mp.contentLength).toBe(bytes.length);
    const form = await new Response(bytes, { headers: { "content-type": mp.contentType } }).formData();
    expect(form.get("config")).toBe('{"capabilities":{"pages":true}}');
    const f = form.get("file") as File;
    expect(await f.text()).toBe("héllo 世界");
    expect(f.name).toContain("we");
  });

  it("passes in-memory bytes in place, without copying them", async () => {
    const bytes = new Uint8Array(10_000);
    const mp = multipartBody([], (await resolveInput(bytes)) as FileUpload);
    const parts = [...(mp.body as unknown as Uint8Array[])];
    expect(parts[1]).toBe(bytes);
    expect(parts.reduce((n, p) => n + p.byteLength, 0)).toBe(mp.contentLength);
  });

  it("streams a Readable without knowing its length", async () => {
    const file = (await resolveInput(Readable.from([Buffer.from("a"), Buffer.from("b")]), "s.txt")) as FileUpload;
    const mp = multipartBody([], file);
    expect(mp.contentLength).toBeUndefined();
    const form = await new Response(await collect(mp.body), { headers: { "content-type": mp.contentType } }).formData();
    expect(await (form.get("file") as File).text()).toBe("ab");
  });

  it("encodes fields alone (file_url requests)", async () => {
    const mp = multipartBody([["file_url", "https://x.test/a.pdf"]]);
    const form = await new Response(await collect(mp.body), { headers: { "content-type": mp.contentType } }).formData();
    expect(form.get("file_url")).toBe("https://x.test/a.pdf");
    expect(form.get("file")).toBeNull();
  });
});
