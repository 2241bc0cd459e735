import { describe, expect, it } from "vitest";
import { Slots } from "../../src/ingest/slots.js";

describe("Slots", () => {
  it("grants at most `size` at once, in order, and hands a released slot to the next waiter", async () => {
    const slots = new Slots(2);
    const order: number[] = [];
    await slots.acquire();
    await slots.acquire();
    const third = slots.acquire().then(() => order.push(3));
    const fourth = slots.acquire().then(() => order.push(4));
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual([]);
    slots.release();
    await third;
    expect(order).toEqual([3]);
    slots.release();
    await fourth;
    expect(order).toEqual([3, 4]);
  });

  it("a waiter cancelled by its signal gives up its place", async () => {
    const slots = new Slots(1);
    await slots.acquire();
    const controller = new AbortController();
    const cancelled = slots.acquire(controller.signal);
    const next = slots.acquire();
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ code: "DOCPARSE_ABORTED" });
    slots.release();
    await expect(next).resolves.toBeUndefined();
  });
});
