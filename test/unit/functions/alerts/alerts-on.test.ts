/**
 * The alerts part is started while any producer of alerts is on, each alone: with none of them
 * the producers would dispatch to no destination, so a producer missing here would lose its
 * alerts without a word.
 */
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../../core/config/index.ts";
import { alertsOn } from "../../../../functions/alerts/alerts-part.ts";

function config(service: Record<string, unknown>) {
  const parsed = parseConfig({ Service: service });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

describe("alertsOn", () => {
  it("is off while no producer of alerts is on", () => {
    expect(alertsOn(config({}))).toBe(false);
  });

  it.each([
    ["reload-task events", { taskEvents: { enable: true } }],
    [
      "the licence monitor reading the server licence",
      {
        licenseMonitor: { enable: true },
        platform: { host: "sense.example.com" },
        cert: { clientCert: "client.pem", clientCertKey: "client_key.pem", clientCertCA: "root.pem" },
      },
    ],
    ["the Windows service monitor", { serviceMonitor: { enable: true } }],
  ])("is on with %s alone", (_what, service) => {
    expect(alertsOn(config(service))).toBe(true);
  });
});
