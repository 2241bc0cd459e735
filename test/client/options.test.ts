import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLIENT_DEFAULTS, DocParseClient, resolveClientOptions } from "../../src/client/index.js";
import { DocParseError } from "../../src/errors.js";

const base = { baseUrl: "http://127.0.0.1:1", env: {} };

function invalid(fn: () => unknown): DocParseError {
  try {
    fn();
  } catch (e) {
    if (DocParseError.isInstance(e)) {
      expect(e.code).toBe("DOCPARSE_INVALID_OPTION");
      return e;
    }
    throw e;
  }
  throw new Error("expected an invalid-option error");
}

describe("DocParseClientOptions defaults", () => {
  it("resolve to CLIENT_DEFAULTS", () => {
    const o = resolveClientOptions(base);
    expect(o).toMatchObject({ ...CLIENT_DEFAULTS, allowedHosts: [] });
    expect(o.appId).toBeUndefined();
  });

  it("match the @default tags in the TSDoc", () => {
    // The docs and the code must not drift: every default in CLIENT_DEFAULTS appears
    // verbatim as `@default <value>` on its option.
    const src = readFileSync(new URL("../../src/client/options.ts", import.meta.url), "utf8");
    for (const [key, value] of Object.entries(CLIENT_DEFAULTS)) {
      const doc = new RegExp(`@default[^\\n]*${typeof value === "string" ? `"${value}"` : String(value)}[^\\n]*\\*/\\s*\\n\\s*${key}\\?:`);
      expect(src, `@default of ${key}`).toMatch(doc);
    }
  });

  it("come from DOCPARSE_* env", () => {
    const o = resolveClientOptions({
      env: { DOCPARSE_BASE_URL: "https://api.example.com", DOCPARSE_APP_ID: "id", DOCPARSE_SECRET_CODE: "sec", DOCPARSE_PRODUCT: "xparse" },
    });
    expect(o.baseUrl.href).toBe("https://api.example.com/");
    expect(o.appId).toBe("id");
    expect(o.secretCode).toBe("sec");
    expect(o.product).toBe("xparse");
  });

  it("prefer explicit options over env", () => {
    const o = resolveClientOptions({ baseUrl: "http://a.test", product: "docparse", env: { DOCPARSE_BASE_URL: "http://b.test", DOCPARSE_PRODUCT: "xparse" } });
    expect(o.baseUrl.host).toBe("a.test");
    expect(o.product).toBe("docparse");
  });
});

describe("DocParseClientOptions validation", () => {
  it("requires a base URL", () => {
    expect(invalid(() => resolveClientOptions({ env: {} })).message).toContain("DOCPARSE_BASE_URL");
  });
  it.each([
    [{ baseUrl: "ftp://x" }, "http or https"],
    [{ baseUrl: "nope" }, "absolute"],
    [{ baseUrl: "http://u:p@x.test" }, "credentials"],
    [{ ...base, product: "a/b" }, "product"],
    [{ ...base, timeoutMs: 0 }, "Expected `timeoutMs` to be a number > 0, got 0"],
    [{ ...base, maxRetries: -1 }, "Expected `maxRetries` to be an integer >= 0, got -1"],
    [{ ...base, maxRetries: 1.5 }, "maxRetries"],
    [{ ...base, requestsPerSecond: 0 }, "requestsPerSecond"],
    [{ ...base, concurrency: Number.NaN }, "concurrency"],
    [{ ...base, allowedHosts: [""] }, "allowedHosts"],
  ])("refuses %j", (opts, message) => {
    expect(invalid(() => resolveClientOptions({ env: {}, ...opts })).message).toContain(message);
  });
});

describe("DocParseClient", () => {
  it("is named remote:<host> and hides the credentials", () => {
    const c = new DocParseClient({ ...base, appId: "the-app-id", secretCode: "the-secret-code" });
    expect(c.name).toBe("remote:127.0.0.1:1");
    expect(JSON.stringify(c)).not.toContain("the-secret-code");
    expect(JSON.stringify(c.options)).not.toContain("the-secret-code");
  });
});
