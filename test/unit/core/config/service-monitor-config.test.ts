/**
 * serviceMonitor's settings: Butler's keys and defaults (every 30 seconds, Butler's topics), the
 * hosts and services checked only when the section is on, and its alert blocks in each channel.
 */
import { describe, expect, it } from "vitest";
import { parseConfig, platformProblems } from "../../../../core/config/index.ts";
import { parseOk, problemsOf } from "./helpers.ts";

const MONITOR = [{ host: "sense1.example.com", services: [{ name: "QlikSenseRepositoryService" }] }];

describe("serviceMonitor settings", () => {
  it("default to Butler's schedule and topics, off, with every alert block off", () => {
    const config = parseOk({});

    expect(config.serviceMonitor).toMatchObject({
      enable: false,
      frequency: "every 30 seconds",
      timeoutSeconds: 15,
      monitor: [],
      timeseriesdb: { enable: true, tag: { static: [] } },
      sendToMQTT: {
        enable: false,
        serviceRunningTopic: "qliksense/service_running",
        serviceStoppedTopic: "qliksense/service_stopped",
        serviceStatusTopic: "qliksense/service_status",
      },
    });
    expect(config.emailNotification.serviceStopped).toMatchObject({ enable: false, rateLimit: 30 });
    expect(config.teamsNotification.serviceStarted.basicMsgTemplate).toBe(
      'Windows service started: "{{serviceName}}" on host "{{host}}"',
    );
    expect(config.slackNotification.serviceStopped.enable).toBe(false);
    expect(config.webhookNotification.serviceMonitor).toEqual({
      enable: false,
      rateLimit: 300,
      webhooks: [],
    });
    expect(config.incidentTool.newRelic.serviceMonitor.monitorServiceState).toEqual({
      running: { enable: true },
      stopped: { enable: true },
    });
  });

  it("takes hosts with their services, the friendly name defaulting to empty", () => {
    const config = parseOk({ serviceMonitor: { enable: true, monitor: MONITOR } });

    expect(config.serviceMonitor.monitor).toEqual([
      { host: "sense1.example.com", services: [{ name: "QlikSenseRepositoryService", friendlyName: "" }] },
    ]);
  });

  it("refuses a schedule that does not parse, a host that is not one and a service without a name, when on", () => {
    const problems = problemsOf({
      serviceMonitor: {
        enable: true,
        frequency: "whenever",
        monitor: [{ host: "not a host", services: [{ name: "" }] }],
      },
    });

    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^Service\.serviceMonitor\.frequency: 'whenever' is not a schedule/);
    expect(problems[1]).toMatch(/^Service\.serviceMonitor\.monitor\[0\]\.host: /);
    expect(problems[2]).toBe("Service.serviceMonitor.monitor[0].services[0].name: must not be empty");
    expect(problemsOf({ serviceMonitor: { enable: false, frequency: "whenever" } })).toEqual([]);
  });

  it("is a problem of the platform only when on and not on Windows", () => {
    const on = parseOk({ serviceMonitor: { enable: true, monitor: MONITOR } });
    const off = parseConfig({ Service: {} });

    expect(platformProblems(on, "linux")).toEqual([
      {
        path: "Service.serviceMonitor.enable",
        message: "serviceMonitor runs only on Windows: it queries services with sc.exe (this is linux)",
      },
    ]);
    expect(platformProblems(on, "win32")).toEqual([]);
    expect(off.ok && platformProblems(off.config, "linux")).toEqual([]);
  });
});
