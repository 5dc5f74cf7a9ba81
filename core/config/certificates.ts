/**
 * The broker's TLS files (`mqttConfig.tls.*`) that the broker connection reads at start. Loading
 * the config checks them (with every other file a validated section names) through the file
 * marker of schema/primitives.ts.
 */
import type { Config } from "./schema/config.ts";

/** The `mqttConfig.tls.*` keys naming files (PEM). */
export const MQTT_TLS_FILE_KEYS = ["caFile", "certFile", "keyFile"] as const;

export type MqttTlsFileKey = (typeof MQTT_TLS_FILE_KEYS)[number];

/** The broker's TLS files that are set, when it uses TLS (callers check `mqttConfig.enable`). */
export function mqttTlsFiles(mqtt: Config["mqttConfig"]): { key: MqttTlsFileKey; file: string }[] {
  const { tls } = mqtt;
  if (!tls.enable) return [];
  return MQTT_TLS_FILE_KEYS.filter((key) => tls[key] !== "").map((key) => ({ key, file: tls[key] }));
}
