import { Agent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/index.js";
import { startTestServer, testClient } from "../support/server.js";

const TEXT = new TextEncoder().encode("# Title\n\nBody text.\n");
let service: RunningServer | undefined;
let agent: Agent | undefined;
afterEach(async () => {
  await agent?.close();
  await service?.close();
  agent = service = undefined;
});

/** Keeps the event loop busy, as JSON.parse and schema checks of a many-MB result do. */
function stall(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy on purpose: no timer and no socket event can run meanwhile
  }
}

describe("attempt", () => {
  it("does not send on a kept-alive socket the server closed while the caller held the event loop (the fuzz run's DOCPARSE_NETWORK after a 3,001-page result)", async () => {
    service = await startTestServer();
    // The server's keep-alive, shortened so the test stalls two seconds instead of six:
    // node closes an idle socket 1 s after keepAliveTimeout (2 s here) and announces
    // `Keep-Alive: timeout=1`, which undici keeps for 1 s when given no safety margin
    // (its default margin of 2 s would drop it at once; the race is the same with it
    // and the default 5 s, only slower to show).
    service.server.keepAliveTimeout = 1_000;
    agent = new Agent({ keepAliveTimeoutThreshold: 0 });
    const client = testClient(service, { maxRetries: 0, dispatcher: agent });
    for (let round = 0; round < 2; round++) {
      await client.parse(TEXT, { filename: "a.md" });
      // No await between the answer and the next request: neither undici's keep-alive
      // timer nor the server's FIN can be processed before the next request is sent.
      stall(2_300);
      const next = await client.parse(TEXT, { filename: "b.md" }).then(
        () => "ok",
        (e: { code?: unknown; message?: string }) => `${String(e.code)}: ${e.message}`,
      );
      expect(next).toBe("ok");
    }
  }, 20_000);
});
