import { describe, expect, it } from "vitest";
import { interpretEnvelope, makeRedactor, parseRetryAfter, validateData } from "../../src/client/response.js";
import { DocParseError } from "../../src/errors.js";
import { JobStatusSchema } from "../../src/wire/index.js";

const none = makeRedactor([]);
const ctx = (httpStatus = 200) => ({ httpStatus, requestId: "req-1" });

function thrown(fn: () => unknown): DocParseError {
  try {
    fn();
  } catch (e) {
    if (DocParseError.isInstance(e)) return e;
    throw e;
  }
  throw new Error("expected a throw");
}

describe("interpretEnvelope", () => {
  it("trusts the body code over an HTTP 200", () => {
    const e = thrown(() => interpretEnvelope(JSON.stringify({ code: 40422, message: "bad file", data: { page: 3 } }), ctx(), none));
    expect(e).toMatchObject({ code: 40422, isRetryable: false, requestId: "req-1", httpStatus: 200, location: { page: 3 } });
  });

  it("trusts the body code over an HTTP 500", () => {
    const e = thrown(() => interpretEnvelope(JSON.stringify({ code: 30203, message: "upstream" }), ctx(500), none));
    expect(e).toMatchObject({ code: 30203, isRetryable: true, httpStatus: 500 });
  });

  it("falls back to the HTTP status without an envelope", () => {
    expect(thrown(() => interpretEnvelope("<html>bad gateway</html>", ctx(502), none))).toMatchObject({ code: "DOCPARSE_HTTP", isRetryable: true, httpStatus: 502 });
    expect(thrown(() => interpretEnvelope("{}", ctx(404), none))).toMatchObject({ code: "DOCPARSE_HTTP", isRetryable: false });
    expect(thrown(() => interpretEnvelope("nope", ctx(200), none))).toMatchObject({ code: "DOCPARSE_INVALID_RESPONSE" });
  });

  it("does not retry a 500 marked as the engine's timeout; any other 500 stays retryable", () => {
    const body = JSON.stringify({ code: 500, message: "Parsing took longer than 50 ms" });
    expect(thrown(() => interpretEnvelope(body, { ...ctx(500), errorName: "DOCPARSE_TIMEOUT" }, none))).toMatchObject({ code: 500, isRetryable: false });
    expect(thrown(() => interpretEnvelope(body, ctx(500), none))).toMatchObject({ code: 500, isRetryable: true });
    expect(thrown(() => interpretEnvelope(body, { ...ctx(500), errorName: "DOCPARSE_SOMETHING_ELSE" }, none))).toMatchObject({ code: 500, isRetryable: true });
    // The marker exempts only the 500 it stands behind.
    const busy = JSON.stringify({ code: 40306, message: "busy" });
    expect(thrown(() => interpretEnvelope(busy, { ...ctx(200), errorName: "DOCPARSE_TIMEOUT" }, none))).toMatchObject({ code: 40306, isRetryable: true });
  });

  it("types unknown codes instead of crashing", () => {
    const e = thrown(() => interpretEnvelope(JSON.stringify({ code: 41999, message: "new thing" }), ctx(), none));
    expect(e.code).toBe(41999);
    expect(e.message).toContain("UNKNOWN_41999");
    expect(e.isRetryable).toBe(false);
  });

  it("accepts 50207 only when partial results are allowed", () => {
    const body = JSON.stringify({ code: 50207, message: "partial", data: {} });
    expect(interpretEnvelope(body, ctx(), none, { partialOk: true }).code).toBe(50207);
    expect(thrown(() => interpretEnvelope(body, ctx(), none)).code).toBe(50207);
  });

  it("masks echoed credentials in messages", () => {
    const e = thrown(() => interpretEnvelope(JSON.stringify({ code: 40102, message: "bad secret super-secret-123" }), ctx(), makeRedactor(["super-secret-123"])));
    expect(e.message).not.toContain("super-secret-123");
  });
});

describe("validateData", () => {
  it("keeps the zod issues on DOCPARSE_INVALID_RESPONSE", () => {
    const e = thrown(() => validateData(JobStatusSchema, { job_id: 1 }, ctx(), "job status"));
    expect(e.code).toBe("DOCPARSE_INVALID_RESPONSE");
    expect(e.issues?.length).toBeGreaterThan(0);
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates", () => {
    expect(parseRetryAfter("3")).toBe(3);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
