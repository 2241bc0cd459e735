import { describe, expect, it } from "vitest";
import { WorkQueue } from "../../src/server/work-queue.js";

describe("WorkQueue", () => {
  it("runs `concurrency`, holds `maxQueued`, refuses the next", async () => {
    const q = new WorkQueue({ concurrency: 1, maxQueued: 1 });
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const a = q.tryAdd(() => gate.then(() => "a"));
    const b = q.tryAdd(async () => "b");
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    expect(q.hasRoom).toBe(false);
    expect(q.tryAdd(async () => "c")).toBeUndefined();
    open();
    expect(await a).toBe("a");
    expect(await b).toBe("b");
    expect(q.hasRoom).toBe(true);
  });

  it("settles dropped tasks on close(), so no caller waits forever", async () => {
    const q = new WorkQueue({ concurrency: 1, maxQueued: 5 });
    let open!: () => void;
    const running = q.tryAdd(() => new Promise<string>((r) => (open = () => r("done"))));
    const waiting = q.tryAdd(async () => "never");
    q.close();
    await expect(waiting).rejects.toMatchObject({ code: "DOCPARSE_ABORTED" });
    open();
    expect(await running).toBe("done");
  });

  it("refuses work added after close(), though it has room", async () => {
    const q = new WorkQueue({ concurrency: 2, maxQueued: 5 });
    q.close();
    let started = false;
    const late = q.tryAdd(async () => {
      started = true;
    });
    await expect(late).rejects.toMatchObject({ code: "DOCPARSE_ABORTED" });
    expect(started).toBe(false);
  });
});
