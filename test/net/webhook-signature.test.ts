import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhookBody, verifyWebhookSignature } from "../../src/net/webhook-signature.js";

describe("webhook signature", () => {
  const body = JSON.stringify({ job_id: "j1", status: "completed" });

  it("is sha256=<hex HMAC of the exact body>", () => {
    const hex = createHmac("sha256", "s3cret").update(body).digest("hex");
    expect(signWebhookBody("s3cret", body)).toBe(`sha256=${hex}`);
  });

  it("verifies the right signature and refuses others", () => {
    const sig = signWebhookBody("s3cret", body);
    expect(verifyWebhookSignature("s3cret", body, sig)).toBe(true);
    expect(verifyWebhookSignature("other", body, sig)).toBe(false);
    expect(verifyWebhookSignature("s3cret", `${body} `, sig)).toBe(false);
    expect(verifyWebhookSignature("s3cret", body, undefined)).toBe(false);
    expect(verifyWebhookSignature("s3cret", body, "sha256=00")).toBe(false);
  });
});
