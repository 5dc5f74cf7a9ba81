/**
 * What an operator sees at `steward start` when the broker's credentials would go without TLS:
 * one WARN naming the risk and the broker, never the password; with TLS, none.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../../helpers/free-port.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";

async function startWithBroker(tls: boolean): Promise<string> {
  const dir = scratchDirectory("steward-cleartext-");
  const [restPort, brokerPort] = [await freePort(), await freePort()];
  writeFileSync(
    join(dir, "steward.yaml"),
    `Service:
  restServer:
    port: ${restPort}
    endpointsEnable:
      mqttPublishMessage: true
  auditEvents:
    enable: false
  mqttConfig:
    enable: true
    brokerHost: 127.0.0.1
    brokerPort: ${brokerPort}
    username: steward
    password: pw-not-for-logs
    tls:
      enable: ${tls}
`,
  );
  const proc = await startStewardIn(dir);
  proc.child.kill("SIGTERM");
  await proc.exited();
  return proc.output();
}

describe("MQTT credentials without TLS, through `steward start`", () => {
  it("warns once at start, naming the broker and not the password", async () => {
    const output = await startWithBroker(false);

    const warnings = output.split("\n").filter((line) => line.includes("MQTT credentials without TLS"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /warn.*in clear; set mqttConfig\.tls\.enable.*broker=mqtt:\/\/127\.0\.0\.1:\d+/,
    );
    expect(output).not.toContain("pw-not-for-logs");
  });

  it("says nothing of it with TLS on", async () => {
    const output = await startWithBroker(true);

    expect(output).not.toContain("MQTT credentials without TLS");
  });
});
