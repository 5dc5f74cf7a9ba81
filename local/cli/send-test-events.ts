/**
 * `steward send-test-events [user] [log] [task]`: sends one test datagram of each kind named to
 * the UDP listener the configuration gives it (its `serverHost` and port), so that an operator can
 * see an event arrive without the platform and without other tools (`nc` is missing on Windows
 * and on minimal Linux hosts; this is node:dgram). Without names it sends one of each kind whose
 * listener the configuration switches on (all three, to the default ports, without `--config`).
 * A listener that binds every address (`0.0.0.0`, `::`) is sent to on loopback. Each datagram sent
 * is said on standard output; one that cannot be sent (a name that does not resolve) on standard
 * error, and the exit status is then 1.
 */
import { createSocket } from "node:dgram";
import { isIP } from "node:net";
import { type Config, logEventsEnabled } from "../../core/config/index.ts";
import {
  failedReloadDatagram,
  logWarningDatagram,
  SAMPLE_LOG_SOURCES,
  SAMPLE_NODE,
  type SampleLogSource,
  userSessionDatagram,
} from "../simulated-platform/sample-datagrams.ts";
import type { CliIo } from "./cli.ts";
import { connectHostFor } from "./simulate-platform.ts";

export const TEST_EVENT_KINDS = ["user", "log", "task"] as const;
export type TestEventKind = (typeof TEST_EVENT_KINDS)[number];

interface TestDatagram {
  readonly kind: TestEventKind;
  /** What was sent, for the line that says so. */
  readonly what: string;
  readonly text: string;
  readonly host: string;
  readonly port: number;
}

/** The kinds named on the command line; a message for a name that is not a kind. */
export function testEventKinds(names: readonly string[]): readonly TestEventKind[] | string {
  const unknown = names.find((name) => !(TEST_EVENT_KINDS as readonly string[]).includes(name));
  if (unknown !== undefined) {
    return `send-test-events sends ${TEST_EVENT_KINDS.join(", ")} events (got "${unknown}")`;
  }
  return [...new Set(names as TestEventKind[])];
}

/** The kinds whose listener `config` switches on. */
function switchedOn(config: Config): TestEventKind[] {
  const on = {
    user: config.userEvents.enable,
    log: logEventsEnabled(config),
    task: config.taskEvents.enable,
  };
  return TEST_EVENT_KINDS.filter((kind) => on[kind]);
}

/** The log source the sample is of: the first the configuration switches on (engine otherwise). */
function logSource(config: Config): SampleLogSource {
  return SAMPLE_LOG_SOURCES.find((source) => config.logEvents.source[source].enable) ?? "engine";
}

function datagramFor(kind: TestEventKind, config: Config, nowMs: number): TestDatagram {
  switch (kind) {
    case "user": {
      const { serverHost, portUserActivityEvents } = config.userEvents.udpServerConfig;
      const what = `a user event (session start of LAB\\goran on ${SAMPLE_NODE})`;
      return { kind, what, text: userSessionDatagram(), host: serverHost, port: portUserActivityEvents };
    }
    case "log": {
      const { serverHost, portLogEvents } = config.logEvents.udpServerConfig;
      const source = logSource(config);
      const what = `a log event (${source} WARN from ${SAMPLE_NODE})`;
      return { kind, what, text: logWarningDatagram(source, nowMs), host: serverHost, port: portLogEvents };
    }
    case "task": {
      const { serverHost, portTaskEvents } = config.taskEvents.udpServerConfig;
      const what = "a task event (failed run of Reload Sales)";
      return { kind, what, text: failedReloadDatagram(nowMs), host: serverHost, port: portTaskEvents };
    }
  }
}

/**
 * Sends the datagrams of `kinds` (undefined: those switched on in `config`, all three when
 * `configFile` is undefined); answers the exit status.
 */
export async function sendTestEvents(
  config: Config,
  kinds: readonly TestEventKind[] | undefined,
  configFile: string | undefined,
  io: CliIo,
): Promise<number> {
  const chosen =
    kinds !== undefined && kinds.length > 0
      ? kinds
      : configFile === undefined
        ? TEST_EVENT_KINDS
        : switchedOn(config);
  if (chosen.length === 0) {
    io.stderr.write(
      `steward: no UDP listener is switched on in ${configFile} (userEvents, logEvents.source, taskEvents); ` +
        `name the events to send: send-test-events ${TEST_EVENT_KINDS.join(" ")}\n`,
    );
    return 1;
  }
  const on = new Set(switchedOn(config));
  let failed = 0;
  for (const kind of chosen) {
    const datagram = datagramFor(kind, config, Date.now());
    const host = connectHostFor(datagram.host);
    const where = `${host.includes(":") ? `[${host}]` : host}:${datagram.port}`;
    try {
      await send(datagram.text, host, datagram.port);
      const off = configFile !== undefined && !on.has(kind) ? ` (its listener is off in ${configFile})` : "";
      io.stdout.write(`sent ${datagram.what} to ${where}${off}\n`);
    } catch (error) {
      failed += 1;
      io.stderr.write(`steward: cannot send ${datagram.what} to ${where}: ${reasonOf(error)}\n`);
    }
  }
  return failed === 0 ? 0 : 1;
}

/** One datagram from a socket of its own, closed after the send. */
async function send(text: string, host: string, port: number): Promise<void> {
  const socket = createSocket(isIP(host) === 6 ? "udp6" : "udp4");
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("error", reject);
      socket.send(text, port, host, (error) => (error ? reject(error) : resolve()));
    });
  } finally {
    socket.close();
  }
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message;
}
