import { DocParseError } from "../errors.js";
import { assertAllowedUrl, type AddressPolicy } from "../net/address-guard.js";
import { ParseConfigSchema, formatIssues, type ParseConfig } from "../wire/index.js";
import type { ParsedForm } from "./form.js";

/** A checked parse request: exactly one source, a valid config, an allowed webhook. */
export interface ParseRequest {
  source: { kind: "file"; path: string; filename: string } | { kind: "url"; url: string };
  config?: ParseConfig;
  webhook?: string;
}

const bad = (message: string) => new DocParseError(40004, message, { isRetryable: false });

/**
 * Validates a form against the contract with the same zod schemas the client uses.
 * Throws DocParseErrors with service codes: 40305 no file, 40004 both sources / bad
 * config / bad or forbidden webhook, 40400 a malformed or forbidden `file_url`.
 */
export async function buildParseRequest(form: ParsedForm, mode: "sync" | "async", policy: AddressPolicy): Promise<ParseRequest> {
  const { fields } = form;
  let config: ParseConfig | undefined;
  if (fields.config !== undefined && fields.config.trim() !== "") {
    let json: unknown;
    try {
      json = JSON.parse(fields.config);
    } catch {
      throw bad("`config` is not valid JSON");
    }
    const parsed = ParseConfigSchema.safeParse(json);
    if (!parsed.success) throw bad(`Invalid config:\n${formatIssues(parsed.error)}`);
    config = parsed.data;
  }
  // A browser form with no file chosen sends an empty, nameless part: that is no file.
  const file = form.file && (form.file.size > 0 || form.file.filename !== "") ? form.file : undefined;
  const fileUrl = fields.file_url?.trim() || undefined;
  if (file && fileUrl) throw bad("Send exactly one of `file` and `file_url`, not both");
  if (!file && !fileUrl) throw new DocParseError(40305, "No file: send a `file` part or a `file_url` field", { isRetryable: false });

  let source: ParseRequest["source"];
  if (file) source = { kind: "file", path: file.path, filename: file.filename };
  else {
    try {
      source = { kind: "url", url: (await assertAllowedUrl(fileUrl!, policy)).href };
    } catch (error) {
      const why = DocParseError.isInstance(error) ? error.message : "invalid URL";
      throw new DocParseError(40400, `file_url refused: ${why}`, { isRetryable: false, cause: error });
    }
  }
  const out: ParseRequest = { source };
  if (config) out.config = config;
  const webhook = fields.webhook?.trim();
  if (mode === "async" && webhook) {
    try {
      out.webhook = (await assertAllowedUrl(webhook, policy)).href;
    } catch (error) {
      const why = DocParseError.isInstance(error) ? error.message : "invalid URL";
      throw bad(`webhook refused: ${why}`);
    }
  }
  return out;
}
