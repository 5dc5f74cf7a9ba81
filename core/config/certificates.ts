/**
 * Which certificate files the active features read at start, so that loading the config can
 * check they are readable: the platform's client certificate (`cert.*`), the broker's TLS
 * files (`mqttConfig.tls.*`) and the time-series database's CA (`timeseriesdbConfig.tls.caFile`).
 */
import type { Config } from "./schema/config.ts";
import { PLATFORM_ENDPOINT_KEYS } from "./schema/rest-server.ts";

/** The `cert.*` keys naming certificate files. */
export const CERT_FILE_KEYS = ["clientCert", "clientCertKey", "clientCertCA"] as const;

/** True when a feature that talks to the platform with client certificates is active. */
export function needsCertificates(config: Config): boolean {
  const rest = config.restServer;
  return (
    (rest.enable && PLATFORM_ENDPOINT_KEYS.some((k) => rest.endpointsEnable[k])) ||
    config.serversToMonitor.servers.length > 0 ||
    config.appNames.enableAppNameExtract ||
    config.userSessions.enableSessionExtract ||
    config.taskEvents.enable ||
    config.licenseMonitor.enable
  );
}

/** The `mqttConfig.tls.*` keys naming files (PEM). */
export const MQTT_TLS_FILE_KEYS = ["caFile", "certFile", "keyFile"] as const;

export type MqttTlsFileKey = (typeof MQTT_TLS_FILE_KEYS)[number];

/** The broker's TLS files that are set, when it uses TLS (callers check `mqttConfig.enable`). */
export function mqttTlsFiles(mqtt: Config["mqttConfig"]): { key: MqttTlsFileKey; file: string }[] {
  const { tls } = mqtt;
  if (!tls.enable) return [];
  return MQTT_TLS_FILE_KEYS.filter((key) => tls[key] !== "").map((key) => ({ key, file: tls[key] }));
}

/**
 * The time-series database's CA file, when the database is used (by the agent, or by the audit
 * pipeline whatever `timeseriesdbConfig.enable` says) over HTTPS with a CA of its own.
 */
export function timeseriesdbTlsFiles(config: Config): { key: "caFile"; file: string }[] {
  const { tls } = config.timeseriesdbConfig;
  if (!tls.enable || tls.caFile === "" || !timeseriesdbUsed(config)) return [];
  return [{ key: "caFile", file: tls.caFile }];
}

function timeseriesdbUsed(config: Config): boolean {
  const audit = config.auditEvents;
  return (
    config.timeseriesdbConfig.enable ||
    (audit.enable &&
      ((audit.destination.enable && audit.destination.type.includes("timeseriesdb")) ||
        audit.queue.queueMetrics.timeseriesdb.enable))
  );
}
