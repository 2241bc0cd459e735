import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { DocParseError } from "../../src/errors.js";
import { SERVER_DEFAULTS, resolveServerOptions } from "../../src/server/index.js";

describe("ServerOptions defaults", () => {
  it("resolve to SERVER_DEFAULTS, open (no credentials) and unsigned", () => {
    const o = resolveServerOptions({ env: {} });
    expect(o).toMatchObject({ ...SERVER_DEFAULTS, products: ["docparse", "xparse"], allowedHosts: [], allowPrivate: false, tempDir: tmpdir() });
    expect(o.appId).toBeUndefined();
    expect(o.webhookSecret).toBeUndefined();
    expect(o.faults).toBeUndefined();
  });

  it("match the @default tags in the TSDoc", () => {
    const src = readFileSync(new URL("../../src/server/options.ts", import.meta.url), "utf8");
    for (const [key, value] of Object.entries(SERVER_DEFAULTS)) {
      const shown = Array.isArray(value) ? JSON.stringify(value).replace(/,/g, ", ") : typeof value === "string" ? `"${value}"` : String(value);
      const escaped = shown.replace(/[[\]()]/g, "\\$&");
      expect(src, `@default of ${key}`).toMatch(new RegExp(`@default ${escaped}[^\\n]*\\*/\\s*\\n\\s*${key}\\?:`));
    }
  });

  it("read credentials and the webhook secret from env", () => {
    const o = resolveServerOptions({ env: { DOCPARSE_APP_ID: "a", DOCPARSE_SECRET_CODE: "b", DOCPARSE_WEBHOOK_SECRET: "c" } });
    expect(o).toMatchObject({ appId: "a", secretCode: "b", webhookSecret: "c" });
  });
});

describe("ServerOptions validation", () => {
  it.each([
    [{ appId: "only-one" }, "both"],
    [{ port: 70000 }, "port"],
    [{ port: -1 }, "port"],
    [{ concurrency: 0 }, "Expected `concurrency` to be an integer >= 1, got 0"],
    [{ maxUploadBytes: 1.5 }, "maxUploadBytes"],
    [{ products: [] }, "products"],
    [{ products: ["a/b"] }, "products"],
    [{ publicUrl: "nope" }, "publicUrl"],
  ])("refuses %j", (opts, message) => {
    let err: unknown;
    try {
      resolveServerOptions({ env: {}, ...opts });
    } catch (e) {
      err = e;
    }
    expect(DocParseError.isInstance(err) && err.code).toBe("DOCPARSE_INVALID_OPTION");
    expect((err as Error).message).toContain(message);
  });
});
