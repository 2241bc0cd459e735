import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/bench/**", "node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores on CI: forks keep native modules (PGlite, canvas) isolated per file.
    pool: "forks",
    maxWorkers: 2,
    // CI counts tests from the JSON report (.ci/run prints "N passed, N failed").
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".vitest-report.json" }]] : ["default"],
  },
});
