/**
 * `steward send-test-events` run in process against UDP sockets on loopback standing where
 * Steward's listeners would: each kind goes to the port its section names, by default only the
 * kinds the file switches on, and every datagram has the fields Steward's parsers expect.
 */
import { createSocket, type Socket } from "node:dgram";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { defaultConfig } from "../../../../core/config/index.ts";
import { parseTaskDatagram } from "../../../../core/task-events/task-datagram.ts";
import { splitFields } from "../../../../core/udp/apply-layout.ts";
import { markerOf } from "../../../../core/udp/datagram-text.ts";
import { ENGINE_LAYOUT, PROXY_LAYOUT, USER_SESSION_LAYOUT } from "../../../../core/udp/field-layouts.ts";
import { runCli, USAGE } from "../../../../local/cli/cli.ts";
import { logWarningDatagram } from "../../../../local/simulated-platform/sample-datagrams.ts";
import { until } from "../../../helpers/eventually.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { exitCode, recordingCliIo } from "../../../helpers/recording-cli-io.ts";

/** A UDP socket on a free loopback port, recording what it receives. */
async function listener(): Promise<{ port: number; received: string[] }> {
  const socket: Socket = createSocket("udp4");
  const received: string[] = [];
  socket.on("message", (message) => received.push(message.toString("utf8")));
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => socket.close(() => resolve())));
  return { port: socket.address().port, received };
}

async function listeners() {
  return { user: await listener(), log: await listener(), task: await listener() };
}

type Listeners = Awaited<ReturnType<typeof listeners>>;

/** A configuration whose listeners are on the three sockets; `on` says which are switched on. */
function configFile(ports: Listeners, on: { user: boolean; log: "proxy" | false; task: boolean }): string {
  const dir = scratchDirectory("steward-send-test-events-");
  // Read when task events are on: the repository is asked over the client certificate.
  for (const file of ["client.pem", "client_key.pem", "root.pem"]) writeFileSync(join(dir, file), "");
  writeFileSync(
    join(dir, "steward-udp.yaml"),
    `Service:
  cert:
    clientCert: ${join(dir, "client.pem")}
    clientCertKey: ${join(dir, "client_key.pem")}
    clientCertCA: ${join(dir, "root.pem")}
  platform:
    host: 127.0.0.1
  userEvents:
    enable: ${on.user}
    udpServerConfig:
      serverHost: 0.0.0.0
      portUserActivityEvents: ${ports.user.port}
  logEvents:
    udpServerConfig:
      serverHost: 127.0.0.1
      portLogEvents: ${ports.log.port}
    source:
      proxy:
        enable: ${on.log === "proxy"}
  taskEvents:
    enable: ${on.task}
    udpServerConfig:
      serverHost: 127.0.0.1
      portTaskEvents: ${ports.task.port}
`,
  );
  return dir;
}

describe("steward send-test-events", () => {
  it("sends one event to each listener the configuration switches on, a log event of its first source", async () => {
    // Prepare
    const ports = await listeners();
    const io = recordingCliIo(configFile(ports, { user: true, log: "proxy", task: false }));

    // Act
    const code = exitCode(await runCli(["send-test-events", "--config", "steward-udp.yaml"], io));
    await until(() => ports.user.received.length + ports.log.received.length === 2, 2000);

    // Assess
    expect(code).toBe(0);
    expect(io.out()).toBe(
      `sent a user event (session start of LAB\\goran on qs-node1) to 127.0.0.1:${ports.user.port}\n` +
        `sent a log event (proxy WARN from qs-node1) to 127.0.0.1:${ports.log.port}\n`,
    );
    const [user] = ports.user.received;
    const [log] = ports.log.received;
    expect(splitFields(user ?? "", USER_SESSION_LAYOUT)).toHaveLength(USER_SESSION_LAYOUT.fields.length + 1);
    expect(splitFields(log ?? "", PROXY_LAYOUT)).toHaveLength(PROXY_LAYOUT.fields.length + 1);
    expect(log).toMatch(/^\/qseow-proxy\/;1;\d{4}-\d\d-\d\dT[\d:.]+Z;;WARN;qs-node1;System\.Proxy\.Proxy;/);
    expect(ports.task.received).toEqual([]);
  });

  it("sends the kinds named, saying which listener is off in the file (where its defaults stand)", async () => {
    // Prepare
    const ports = await listeners();
    const dir = configFile(ports, { user: false, log: false, task: true });
    const io = recordingCliIo(dir);

    // Act
    const code = exitCode(
      await runCli(["send-test-events", "task", "user", "--config", "steward-udp.yaml"], io),
    );
    await until(() => ports.task.received.length === 1, 2000);

    // Assess
    expect(io.err()).toBe("");
    expect(code).toBe(0);
    expect(io.out()).toBe(
      `sent a task event (failed run of Reload Sales) to 127.0.0.1:${ports.task.port}\n` +
        "sent a user event (session start of LAB\\goran on qs-node1) to 127.0.0.1:9997 (its listener is off in steward-udp.yaml)\n",
    );
    const [task = ""] = ports.task.received;
    const parsed = parseTaskDatagram(task, markerOf(task), { receivedAtMs: Date.now(), sender: "127.0.0.1" });
    expect(parsed).toMatchObject({ ok: true, event: { kind: "failed", taskName: "Reload Sales" } });
    expect(ports.user.received).toEqual([]);
  });

  it("without --config sends all three kinds to the default listeners, an engine log event among them", () => {
    const defaults = defaultConfig();
    expect([
      defaults.userEvents.udpServerConfig.portUserActivityEvents,
      defaults.logEvents.udpServerConfig.portLogEvents,
      defaults.taskEvents.udpServerConfig.portTaskEvents,
    ]).toEqual([9997, 9996, 9998]);
    const log = logWarningDatagram("engine", Date.now());
    expect(splitFields(log, ENGINE_LAYOUT)).toHaveLength(ENGINE_LAYOUT.fields.length + 1);
    expect(USAGE).toContain(
      "without\n                         --config: all three, to 127.0.0.1 ports 9997, 9996 and 9998",
    );
  });

  it("refuses with exit 1 when the file switches no listener on and no kind is named, or a name is not a kind", async () => {
    const ports = await listeners();
    const dir = configFile(ports, { user: false, log: false, task: false });
    const none = recordingCliIo(dir);
    const bogus = recordingCliIo(dir);

    expect(exitCode(await runCli(["send-test-events", "--config", "steward-udp.yaml"], none))).toBe(1);
    expect(exitCode(await runCli(["send-test-events", "users"], bogus))).toBe(1);

    expect(none.err()).toBe(
      "steward: no UDP listener is switched on in steward-udp.yaml (userEvents, logEvents.source, taskEvents); " +
        "name the events to send: send-test-events user log task\n",
    );
    expect(bogus.err()).toBe(
      `steward: send-test-events sends user, log, task events (got "users")\n\n${USAGE}`,
    );
  });

  it("says which datagram could not be sent and why, sends the others, and exits 1", async () => {
    const ports = await listeners();
    const dir = configFile(ports, { user: true, log: "proxy", task: false });
    const io = recordingCliIo(dir);
    writeFileSync(
      join(dir, "unresolvable.yaml"),
      `Service:\n  userEvents:\n    enable: true\n    udpServerConfig:\n      serverHost: nowhere.invalid\n` +
        `  logEvents:\n    udpServerConfig:\n      serverHost: 127.0.0.1\n      portLogEvents: ${ports.log.port}\n` +
        "    source:\n      engine:\n        enable: true\n",
    );

    const code = exitCode(await runCli(["send-test-events", "--config", "unresolvable.yaml"], io));
    await until(() => ports.log.received.length === 1, 2000);

    expect(code).toBe(1);
    expect(io.err()).toMatch(
      /^steward: cannot send a user event \(session start of LAB\\goran on qs-node1\) to nowhere\.invalid:9997: .*ENOTFOUND/,
    );
    expect(io.out()).toBe(`sent a log event (engine WARN from qs-node1) to 127.0.0.1:${ports.log.port}\n`);
  });
});
