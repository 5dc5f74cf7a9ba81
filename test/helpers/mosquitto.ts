/**
 * Debian's mosquitto broker (MQTT 3.1.1 and 5) on a loopback port, started as a child process
 * with a throw-away config; `port` may be fixed to restart on the same port. Options add users
 * from a password file (`mosquitto_passwd -b`, anonymous clients refused) and make the listener
 * TLS (`cafile/certfile/keyfile`, optionally requiring a client certificate). The broker logs
 * connections to a file, read with `log()`. Absent binary: tests skip loudly outside CI and fail
 * in CI.
 */
import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process";
import { chmod, copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./free-port.ts";

const run = promisify(execFile);

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

export interface MosquittoOptions {
  /** Listen on this port (to restart a stopped broker on the same one). */
  port?: number;
  /** User name → password; when given, clients without valid credentials are refused. */
  users?: Readonly<Record<string, string>>;
  /** Make the listener TLS with these PEM files (copied, so the broker's own user can read them). */
  tls?: { caPath: string; certPath: string; keyPath: string; requireCertificate?: boolean };
}

export interface Mosquitto {
  port: number;
  /** The broker's log so far (connections with client id and user name, refusals). */
  log(): Promise<string>;
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

export async function startMosquitto(portOrOptions?: number | MosquittoOptions): Promise<Mosquitto> {
  const options = typeof portOrOptions === "number" ? { port: portOrOptions } : (portOrOptions ?? {});
  const listenPort = options.port ?? (await freePort());
  const directory = await mkdtemp(path.join(tmpdir(), "steward-mosquitto-"));
  // Run as root, mosquitto drops to its own user before it reads the password and TLS files and
  // opens its log: everything it reads or writes after start must be reachable by that user.
  await chmod(directory, 0o755);
  const inDirectory = (name: string) => path.join(directory, name);
  const logFile = inDirectory("mosquitto.log");
  await writeFile(logFile, "");
  await chmod(logFile, 0o666);
  const lines = [
    `listener ${listenPort} 127.0.0.1`,
    "persistence false",
    `log_dest file ${logFile}`,
    "log_type error",
    "log_type warning",
    "log_type notice",
    "log_type information",
    "connection_messages true",
  ];
  if (options.users === undefined) {
    lines.push("allow_anonymous true");
  } else {
    const passwords = inDirectory("passwords");
    for (const [i, [user, password]] of Object.entries(options.users).entries()) {
      await run("mosquitto_passwd", ["-b", ...(i === 0 ? ["-c"] : []), passwords, user, password]);
    }
    await chmod(passwords, 0o644);
    lines.push("allow_anonymous false", `password_file ${passwords}`);
  }
  if (options.tls !== undefined) {
    const files = {
      cafile: options.tls.caPath,
      certfile: options.tls.certPath,
      keyfile: options.tls.keyPath,
    };
    for (const [setting, source] of Object.entries(files)) {
      const copy = inDirectory(`${setting}.pem`);
      await copyFile(source, copy);
      await chmod(copy, 0o644);
      lines.push(`${setting} ${copy}`);
    }
    lines.push(`require_certificate ${options.tls.requireCertificate === true}`);
  }
  const config = inDirectory("mosquitto.conf");
  await writeFile(config, `${lines.join("\n")}\n`);
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
    log: () => readFile(logFile, "utf8"),
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
