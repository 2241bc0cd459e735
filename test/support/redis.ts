import { spawn, type ChildProcess } from "node:child_process";
import { createServer, connect } from "node:net";
import { which } from "./system.js";

/** A private redis-server for one test file. */
export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (bind port 0, read it, release it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts Debian's redis-server on 127.0.0.1 with no persistence. redis-server cannot
 * listen on port 0, so a free port is picked first (retried if someone else takes it).
 */
export async function startRedis(): Promise<RedisServer> {
  const bin = which("redis-server");
  if (!bin) throw new Error("redis-server is not installed (apt-get install -y redis-server)");
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const child = spawn(bin, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "yes"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    if (await ready(child, port)) {
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        stop: () => stopChild(child),
      };
    }
    await stopChild(child);
  }
  throw new Error("could not start redis-server");
}

async function ready(child: ChildProcess, port: number): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return false;
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.write("PING\r\n");
      });
      socket.once("data", (data) => {
        socket.destroy();
        resolve(data.toString().startsWith("+PONG"));
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 3000).unref();
  });
}
