import { request } from "undici";
import { describe, expect, it } from "vitest";
import { runServe } from "../../src/server/index.js";

describe("runServe", () => {
  it("prints the URL it listens on and shuts down on SIGTERM", async () => {
    const lines: string[] = [];
    const handle = await runServe({ port: 0, env: {}, print: (l) => lines.push(l) });
    expect(lines[0]).toBe(`docparse-rag serve listening on ${handle.url}`);
    const health = await request(`${handle.url}/healthz`);
    expect(JSON.parse(await health.body.text())).toMatchObject({ code: 200, data: { status: "ok" } });
    const listeners = process.listenerCount("SIGTERM");
    process.emit("SIGTERM", "SIGTERM");
    await handle.closed;
    expect(process.listenerCount("SIGTERM")).toBe(listeners - 1);
    expect(handle.server.listening).toBe(false);
    await expect(request(`${handle.url}/healthz`)).rejects.toThrow();
  });
});
