/**
 * A virtual proxy's sessions as one broker message, as Butler SOS publishes it: topic
 * `<mqttConfig.baseTopic><userSessions.host without port>/usersession<prefix>` — so
 * `…/usersession/` for the root proxy `/` and `…/usersession/hdr` for `/hdr` (a prefix given
 * without its leading `/` gets one) — and payload the proxy's answer as it came, unfiltered
 * (`excludeUser` does not apply), pretty-printed as JSON with 2-space indentation. The base topic
 * gets a trailing `/` when it lacks one (broker-topic-base.ts).
 */
import type { MqttConfig } from "../config/index.ts";
import type { ProxySessionList } from "../ports.ts";
import type { BrokerMessage } from "../shared/broker-message.ts";
import { topicBase } from "./broker-topic-base.ts";
import { hostWithoutPort } from "./server-tags.ts";

/** `sessionHost`: `userSessions.host` (`host:port`); `virtualProxy`: the prefix, `/` for the root. */
export type SessionMessageMapper = (
  list: ProxySessionList,
  sessionHost: string,
  virtualProxy: string,
) => BrokerMessage;

export function createSessionMessageMapper(mqttConfig: Pick<MqttConfig, "baseTopic">): SessionMessageMapper {
  const base = topicBase(mqttConfig.baseTopic);

  return function toSessionMessage(list, sessionHost, virtualProxy) {
    const prefix = virtualProxy.startsWith("/") ? virtualProxy : `/${virtualProxy}`;
    return {
      topic: `${base}${hostWithoutPort(sessionHost)}/usersession${prefix}`,
      payload: JSON.stringify(list.raw, null, 2) ?? "null",
    };
  };
}
