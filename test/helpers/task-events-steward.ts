/**
 * `steward start` with reload-task events on, pointed at the simulated platform over its client
 * certificate: the configuration (written with the YAML library, merged with a test's own
 * sections), the scrape endpoint's task-event counts and the status document's task events.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import type { TestPlatform } from "../fixtures/platform/test-platform.ts";
import { freePort } from "./free-port.ts";
import { parsePrometheusText, sampleValue } from "./prometheus-text.ts";

export interface TaskEventPorts {
  readonly udp: number;
  readonly scrape: number;
  readonly ui: number;
}

export async function freeTaskEventPorts(): Promise<TaskEventPorts> {
  return { udp: await freePort(), scrape: await freePort(), ui: await freePort() };
}

/** Writes `steward.yaml` into `dir`: task events on, the platform, the scrape endpoint and /status; `extra` sections added under Service. */
export function writeTaskEventsConfig(
  dir: string,
  options: { platform: TestPlatform; ports: TaskEventPorts; extra?: Record<string, unknown> },
): void {
  const { platform, ports } = options;
  const { taskEvents: extraTaskEvents, ...extra } = options.extra ?? {};
  const config = {
    Service: {
      restServer: { enable: false },
      auditEvents: { enable: false },
      cert: {
        clientCert: platform.pki.clientCertPath,
        clientCertKey: platform.pki.clientKeyPath,
        clientCertCA: platform.pki.caPath,
      },
      platform: { host: "127.0.0.1", repositoryPort: platform.servers[0]?.port, timeoutMs: 2000 },
      scrapeEndpoint: { enable: true, host: "127.0.0.1", port: ports.scrape },
      configVisualisation: { enable: true, host: "127.0.0.1", port: ports.ui },
      taskEvents: {
        enable: true,
        udpServerConfig: { serverHost: "127.0.0.1", portTaskEvents: ports.udp },
        ...(extraTaskEvents as Record<string, unknown> | undefined),
      },
      ...extra,
    },
  };
  writeFileSync(join(dir, "steward.yaml"), stringify(config));
}

/** `steward_task_events_total{kind, outcome}` on the scrape endpoint (0 when not there yet). */
export async function taskEventCount(scrapePort: number, kind: string, outcome: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${scrapePort}/metrics`)).text();
  return sampleValue(parsePrometheusText(text), "steward_task_events_total", { kind, outcome }) ?? 0;
}

export interface ShownTaskEvent {
  kind: string;
  taskName: string;
  appName: string;
  node: string;
  at: string;
  executionId: string;
  alerts: Record<string, string>;
  unavailable: Record<string, string>;
}

/** `taskEvents.last` of `GET /status`. */
export async function lastTaskEvents(uiPort: number): Promise<ShownTaskEvent[]> {
  const status = (await (await fetch(`http://127.0.0.1:${uiPort}/status`)).json()) as {
    taskEvents?: { last?: ShownTaskEvent[] };
  };
  return status.taskEvents?.last ?? [];
}
