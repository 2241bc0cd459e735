/**
 * TEST ONLY: fault injection for the local service, so clients, ingestion and
 * benchmarks can be exercised against failures a real service shows. Never set in
 * production: it makes the service fail on purpose.
 */

/** The routes faults apply to. */
export type FaultRoute = "sync" | "async" | "status" | "result";

/** What happens to one request. */
export type FaultAction =
  /** Answer with this service code in the envelope (HTTP 200), optionally with Retry-After. */
  | { code: number; retryAfterSeconds?: number }
  /** Answer with this bare HTTP status and no envelope (a proxy's 502/503/504). */
  | { httpStatus: number; retryAfterSeconds?: number }
  /** Destroy the connection without answering. */
  | { drop: true }
  /** Wait this long before handling the request normally (a slow service). */
  | { delayMs: number };

/** The request a fault plan decides about. */
export interface FaultRequest {
  route: FaultRoute;
  product: string;
  /** 0-based count of requests seen on this route so far. */
  index: number;
}

export interface FaultOptions {
  /** Probability (0..1) that a request fails with one of `codes`. @default 0 */
  failRate?: number;
  /** Service codes used by `failRate`. @default [500] */
  codes?: number[];
  /** Probability (0..1) that the connection is dropped without an answer. @default 0 */
  dropRate?: number;
  /** Latency added to every request on the affected routes, in ms. @default 0 */
  latencyMs?: number;
  /** Routes the random faults and latency apply to. @default ["sync", "async"] */
  routes?: FaultRoute[];
  /** Seed of the random draws, for reproducible runs. @default 1 */
  seed?: number;
  /**
   * A plan that decides per request (wins over the random faults); return undefined for
   * no fault. E.g. `({ index }) => index < 2 ? { code: 500 } : undefined`.
   */
  plan?: (request: FaultRequest) => FaultAction | undefined;
}

/** mulberry32: small, fast, reproducible. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Decides the faults of successive requests. */
export class FaultInjector {
  readonly #options: FaultOptions;
  readonly #random: () => number;
  readonly #counts = new Map<FaultRoute, number>();

  constructor(options: FaultOptions) {
    this.#options = options;
    this.#random = rng(options.seed ?? 1);
  }

  /** The actions for one request: at most one delay followed by at most one failure. */
  decide(route: FaultRoute, product: string): FaultAction[] {
    const index = this.#counts.get(route) ?? 0;
    this.#counts.set(route, index + 1);
    const o = this.#options;
    const actions: FaultAction[] = [];
    const planned = o.plan?.({ route, product, index });
    const affected = (o.routes ?? ["sync", "async"]).includes(route);
    if (affected && o.latencyMs) actions.push({ delayMs: o.latencyMs });
    if (planned) {
      actions.push(planned);
      return actions;
    }
    if (!affected) return actions;
    if (o.dropRate && this.#random() < o.dropRate) actions.push({ drop: true });
    else if (o.failRate && this.#random() < o.failRate) {
      const codes = o.codes && o.codes.length > 0 ? o.codes : [500];
      actions.push({ code: codes[Math.floor(this.#random() * codes.length)]! });
    }
    return actions;
  }
}
