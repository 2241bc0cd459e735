import type { BrowserContext } from "playwright-core";
import { CHROMIUM_ARGS, tempDir, which } from "./system.js";

/**
 * Debian's headless Chromium driven by playwright-core, in a fresh user-data-dir (a temp
 * directory removed on close) so runs never share profile state. Playwright refuses a
 * `--user-data-dir` flag, so the profile goes through `launchPersistentContext`.
 */
export async function launchChromium(
  options: { viewport?: { width: number; height: number }; deviceScaleFactor?: number } = {},
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const executablePath = which("chromium");
  if (!executablePath) throw new Error("chromium is not installed (apt-get install -y chromium)");
  const { chromium } = await import("playwright-core");
  const profile = tempDir("docparse-chromium-");
  const context = await chromium.launchPersistentContext(profile.path, {
    executablePath,
    args: [...CHROMIUM_ARGS],
    headless: true,
    timeout: 60_000,
    viewport: options.viewport ?? { width: 1280, height: 900 },
    deviceScaleFactor: options.deviceScaleFactor ?? 1,
  });
  return {
    context,
    close: async () => {
      await context.close().catch(() => undefined);
      profile.cleanup();
    },
  };
}
