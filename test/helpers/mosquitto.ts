/**
 * Debian's mosquitto broker (MQTT 3.1.1 and 5) on a loopback port, started as a child process
 * with a throw-away config; `port` may be fixed to restart on the same port. Absent binary:
 * tests skip loudly outside CI and fail in CI.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./free-port.ts";

export const mosquittoAvailable = spawnSync("which", ["mosquitto"]).status === 0;

/** Call at module level of a test file; returns true when the tests must be skipped. */
export function skipWithoutMosquitto(): boolean {
  if (mosquittoAvailable) return false;
  if (process.env.CI === "true")
    throw new Error("mosquitto is required in CI (apt-get install -y mosquitto)");
  console.warn(
    "\n*** mosquitto not installed: mosquitto broker tests SKIPPED (apt-get install -y mosquitto) ***\n",
  );
  return true;
}

export interface Mosquitto {
  port: number;
  stop(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export async function startMosquitto(port?: number): Promise<Mosquitto> {
  const listenPort = port ?? (await freePort());
  const directory = await mkdtemp(path.join(tmpdir(), "steward-mosquitto-"));
  const config = path.join(directory, "mosquitto.conf");
  await writeFile(
    config,
    [
      `listener ${listenPort} 127.0.0.1`,
      "allow_anonymous true",
      "persistence false",
      "log_dest none",
      "",
    ].join("\n"),
  );
  const child: ChildProcess = spawn("mosquitto", ["-c", config], { stdio: "ignore" });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(listenPort))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      await rm(directory, { recursive: true, force: true });
      throw new Error(`mosquitto did not listen on 127.0.0.1:${listenPort}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    port: listenPort,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
