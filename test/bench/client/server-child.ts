/**
 * The service side of the client overhead benchmark, in its own process so that the
 * benchmark can measure the client process's CPU time alone. Prints its URL, then runs
 * until stdin closes.
 */
import type { Parser } from "../../../src/parser.js";
import { startServer } from "../../../src/server/index.js";
import { CREDS, fakeResult } from "../../support/server.js";

const trivial: Parser = { name: "trivial", parse: async () => fakeResult() };
const service = await startServer({ ...CREDS, parser: trivial, concurrency: 4, env: {} });
process.stdout.write(`${service.url}\n`);
process.stdin.resume();
process.stdin.on("end", () => void service.close().then(() => process.exit(0)));
