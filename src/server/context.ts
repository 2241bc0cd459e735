import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressPolicy } from "../net/address-guard.js";
import type { Parser } from "../parser.js";
import { checkCredentials } from "./auth.js";
import { drainRequest } from "./drain.js";
import type { FaultInjector, FaultRoute } from "./faults.js";
import type { JobStore } from "./job-store.js";
import type { ResolvedServerOptions } from "./options.js";
import { sendBare, sendEnvelope } from "./respond.js";
import type { WorkQueue } from "./work-queue.js";

/** Bytes of an early-refused body still read so the client sees the answer (see drainRequest). */
export const EARLY_DRAIN_BYTES = 8 * 1024 * 1024;

/** Everything a route needs; one per running server. */
export class ServiceContext {
  readonly options: ResolvedServerOptions;
  readonly jobs: JobStore;
  readonly queue: WorkQueue;
  readonly faults: FaultInjector | undefined;
  readonly policy: AddressPolicy;
  /** Aborted at shutdown: stops running parses and webhook retries. */
  readonly closing = new AbortController();
  /** Webhook deliveries in flight, awaited at shutdown. */
  readonly deliveries = new Set<Promise<unknown>>();
  /** Route handlers still running (their cleanup included), awaited at shutdown. */
  readonly handlers = new Set<Promise<unknown>>();
  readonly #parser: () => Promise<Parser>;
  readonly #tokenKey = randomBytes(32);
  publicUrl = "";

  constructor(init: { options: ResolvedServerOptions; jobs: JobStore; queue: WorkQueue; faults: FaultInjector | undefined; parser: () => Promise<Parser> }) {
    this.options = init.options;
    this.jobs = init.jobs;
    this.queue = init.queue;
    this.faults = init.faults;
    this.#parser = init.parser;
    this.policy = { allowedHosts: init.options.allowedHosts, allowPrivate: init.options.allowPrivate };
  }

  parser(): Promise<Parser> {
    return this.#parser();
  }

  /** A token that makes a `result_url` work without credentials, like a presigned URL. */
  resultToken(product: string, jobId: string): string {
    return createHmac("sha256", this.#tokenKey).update(`${product}/${jobId}`).digest("hex");
  }

  checkResultToken(product: string, jobId: string, token: string | null): boolean {
    if (!token) return false;
    const expected = Buffer.from(this.resultToken(product, jobId));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  resultUrl(product: string, jobId: string): string {
    return `${this.publicUrl}/api/v1/${product}/parse/async/${encodeURIComponent(jobId)}/result?token=${this.resultToken(product, jobId)}`;
  }

  /**
   * Authenticates; on failure answers 40101/40102 (after draining a small body) and
   * returns false.
   */
  async authorize(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const code = checkCredentials(req.headers, this.options);
    if (code === 200) return true;
    const drained = await drainRequest(req, EARLY_DRAIN_BYTES);
    sendEnvelope(res, code, undefined, { close: !drained });
    return false;
  }

  /**
   * TEST ONLY: applies injected faults. Returns false when the request was answered (or
   * dropped) by a fault.
   */
  async injectFaults(route: FaultRoute, product: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (!this.faults) return true;
    for (const action of this.faults.decide(route, product)) {
      if ("delayMs" in action) {
        await new Promise((r) => setTimeout(r, action.delayMs));
        continue;
      }
      const drained = await drainRequest(req, EARLY_DRAIN_BYTES);
      if ("drop" in action) {
        req.socket.destroy();
      } else if ("httpStatus" in action) {
        sendBare(res, action.httpStatus, action.retryAfterSeconds);
      } else {
        sendEnvelope(res, action.code, undefined, {
          close: !drained,
          ...(action.retryAfterSeconds !== undefined ? { retryAfterSeconds: action.retryAfterSeconds } : {}),
        });
      }
      return false;
    }
    return true;
  }
}
