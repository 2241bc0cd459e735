import type { IncomingMessage, ServerResponse } from "node:http";
import { DocParseError } from "../errors.js";
import type { ServiceContext } from "./context.js";
import { sendEnvelope } from "./respond.js";

/** What an engine offers to serve page and element images (LocalParser does). */
export interface AssetSource {
  asset(fileId: string, name: string): Promise<{ bytes: Uint8Array; mimeType: string } | undefined>;
}

function hasAssets(parser: unknown): parser is AssetSource {
  return typeof (parser as Partial<AssetSource> | null)?.asset === "function";
}

// Validated here too, before the engine sees anything from the URL.
const SAFE_SEGMENT = /^[A-Za-z0-9._-]{1,200}$/;

/**
 * `GET /api/v1/{product}/assets/{fileId}/{name}`: page images (rendered on demand) and
 * element images from the engine's asset store. No credentials: the URLs are embedded in
 * results for viewers and browsers, and a file id (sha256 of the document) is only
 * known to someone who has the document or its result.
 */
export async function handleAsset(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse, fileId: string, name: string): Promise<void> {
  const notFound = () => {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found");
  };
  if (!SAFE_SEGMENT.test(fileId) || !SAFE_SEGMENT.test(name) || name.startsWith(".")) return notFound();
  const parser = await ctx.parser();
  if (!hasAssets(parser)) return notFound();
  try {
    const file = await parser.asset(fileId, name);
    if (!file) return notFound();
    res.writeHead(200, {
      "content-type": file.mimeType,
      "content-length": file.bytes.byteLength,
      // Content-addressed: a file id never changes its bytes.
      "cache-control": "private, max-age=3600",
      "x-content-type-options": "nosniff",
    });
    res.end(req.method === "HEAD" ? undefined : file.bytes);
  } catch (error) {
    if (DocParseError.isInstance(error) && typeof error.code === "number" && error.code !== 500) return notFound();
    ctx.options.logger.error?.("asset failed", { error: error instanceof Error ? error.stack : String(error) });
    sendEnvelope(res, 500, undefined, { message: "Internal server error", httpStatus: 500 });
  }
}
