import type { Redis } from "ioredis";
import { DocParseError, LocalErrorCode, invalidOption } from "../errors.js";

/**
 * Opens an ioredis connection for BullMQ from a `redis://` or `rediss://` URL.
 * `maxRetriesPerRequest: null` is what BullMQ workers require (blocking commands).
 */
export async function connectRedis(url: string): Promise<Redis> {
  if (!/^rediss?:\/\//i.test(url)) throw invalidOption(`Expected a queue URL like redis://127.0.0.1:6379, got ${JSON.stringify(url)}`);
  let RedisClass: typeof import("ioredis").Redis;
  try {
    ({ Redis: RedisClass } = await import("ioredis"));
  } catch (cause) {
    throw new DocParseError(LocalErrorCode.MissingDependency, "Distributed ingestion needs ioredis and bullmq: npm i ioredis bullmq", { cause });
  }
  return new RedisClass(url, { maxRetriesPerRequest: null, lazyConnect: false });
}

/** Loads BullMQ, saying how to install it when missing. */
export async function loadBullmq(): Promise<typeof import("bullmq")> {
  try {
    return await import("bullmq");
  } catch (cause) {
    throw new DocParseError(LocalErrorCode.MissingDependency, "Distributed ingestion needs bullmq and ioredis: npm i bullmq ioredis", { cause });
  }
}
