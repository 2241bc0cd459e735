import { describe, expect, it } from "vitest";
import { isLoopback, listeningLine, noAuthWarning } from "../../../src/cli/commands/serve.js";
import { EXIT, runCli } from "../../../src/cli/index.js";
import { bufferIo } from "../support.js";

async function waitFor(read: () => string, pattern: RegExp): Promise<RegExpMatchArray> {
  for (let i = 0; i < 600; i++) {
    const m = read().match(pattern);
    if (m) return m;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${pattern}; got ${read()}`);
}

describe("serve start-up", () => {
  it("warns on stderr when no credentials are configured", async () => {
    const io = bufferIo();
    const running = runCli(["serve", "--port", "0"], io);
    await waitFor(io.out, /listening on http:\/\/127\.0\.0\.1:\d+\n/);
    expect(io.err()).toMatch(/^warning: authentication is disabled .*--app-id and --secret-code/);
    io.interrupt();
    expect(await running).toBe(EXIT.ok);
  }, 60_000);

  it("does not warn when credentials come from the flags or the environment", async () => {
    for (const [args, env] of [
      [["--app-id", "app-123456", "--secret-code", "secret-123456"], {}],
      [[], { DOCPARSE_APP_ID: "app-123456", DOCPARSE_SECRET_CODE: "secret-123456" }],
    ] as const) {
      const io = bufferIo({ env: { ...env } });
      const running = runCli(["serve", "--port", "0", ...args], io);
      await waitFor(io.out, /listening on /);
      expect(io.err()).toBe("");
      io.interrupt();
      expect(await running).toBe(EXIT.ok);
    }
  }, 60_000);

  it("is louder off loopback", () => {
    expect(noAuthWarning("127.0.0.1")).toMatch(/^warning: /);
    const loud = noAuthWarning("0.0.0.0");
    expect(loud).toContain("!!! WARNING: AUTHENTICATION IS DISABLED and the service is bound to 0.0.0.0");
    expect(loud.split("\n").filter((l) => l.startsWith("!!!")).length).toBeGreaterThanOrEqual(3);
    expect(noAuthWarning("192.168.1.20")).toContain("bound to 192.168.1.20");
    for (const h of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) expect(isLoopback(h)).toBe(true);
    for (const h of ["0.0.0.0", "::", "10.0.0.5", "example.org"]) expect(isLoopback(h)).toBe(false);
  });

  it("prints the host actually bound", () => {
    expect(listeningLine("127.0.0.1", 8080)).toBe("docparse-rag serve listening on http://127.0.0.1:8080");
    expect(listeningLine("0.0.0.0", 8080)).toBe("docparse-rag serve listening on http://0.0.0.0:8080 (all interfaces; from this machine http://127.0.0.1:8080)");
    expect(listeningLine("::", 8080)).toMatch(/^docparse-rag serve listening on http:\/\/\[::\]:8080 \(all interfaces; from this machine http:\/\/\[::1\]:8080\)$/);
    expect(listeningLine("10.0.0.5", 9)).toBe("docparse-rag serve listening on http://10.0.0.5:9");
  });
});
