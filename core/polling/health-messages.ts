/**
 * Engine health as broker messages, as Butler SOS publishes it: one message per value, its payload
 * the plain value as text, on `<mqttConfig.baseTopic><host without port>/<suffix>`: `version`,
 * `started`, `mem/comitted` [sic], `mem/allocated`, `mem/free`, `cpu/total`, `session/active`,
 * `session/total`, `apps/active_docs`, `apps/loaded_docs`, `apps/in_memory_docs` (ids joined with
 * `,`), `apps/calls`, `apps/selections`, `users/active`, `users/total`, `cache/hits`,
 * `cache/lookups`, `cache/added`, `cache/replaced`, `cache/bytes_added`, `saturated` (`true` /
 * `false`), and `cache/hit_ratio` = ⌊hits / lookups × 100⌋ only when lookups > 0. The base topic
 * gets a trailing `/` when it lacks one (broker-topic-base.ts).
 */
import type { MqttConfig } from "../config/index.ts";
import type { EngineHealth } from "../ports.ts";
import type { BrokerMessage } from "../shared/broker-message.ts";
import { topicBase } from "./broker-topic-base.ts";
import { hostWithoutPort } from "./server-tags.ts";

/** `serverHost`: `servers[].host`, with or without its port. */
export type HealthMessageMapper = (health: EngineHealth, serverHost: string) => BrokerMessage[];

export function createHealthMessageMapper(mqttConfig: Pick<MqttConfig, "baseTopic">): HealthMessageMapper {
  const base = topicBase(mqttConfig.baseTopic);

  return function toHealthMessages(health, serverHost) {
    const prefix = `${base}${hostWithoutPort(serverHost)}/`;
    const values: (readonly [string, string | number | boolean])[] = [
      ["version", health.version],
      ["started", health.started],
      ["mem/comitted", health.mem.committed],
      ["mem/allocated", health.mem.allocated],
      ["mem/free", health.mem.free],
      ["cpu/total", health.cpu.total],
      ["session/active", health.session.active],
      ["session/total", health.session.total],
      ["apps/active_docs", health.apps.active_docs.join(",")],
      ["apps/loaded_docs", health.apps.loaded_docs.join(",")],
      ["apps/in_memory_docs", health.apps.in_memory_docs.join(",")],
      ["apps/calls", health.apps.calls],
      ["apps/selections", health.apps.selections],
      ["users/active", health.users.active],
      ["users/total", health.users.total],
      ["cache/hits", health.cache.hits],
      ["cache/lookups", health.cache.lookups],
      ["cache/added", health.cache.added],
      ["cache/replaced", health.cache.replaced],
      ["cache/bytes_added", health.cache.bytes_added],
      ["saturated", health.saturated],
    ];
    if (health.cache.lookups > 0) {
      values.push(["cache/hit_ratio", Math.floor((health.cache.hits / health.cache.lookups) * 100)]);
    }
    return values.map(([suffix, value]) => ({ topic: `${prefix}${suffix}`, payload: String(value) }));
  };
}
