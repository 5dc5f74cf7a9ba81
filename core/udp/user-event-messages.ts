/**
 * User events as broker messages, as Butler SOS publishes them: a JSON payload `{messageType, host,
 * command, userDir, userId, origin, context, message, tags}` plus `appId`, `appName` and the
 * user-agent members when known, published to the everything topic when enabled and to the topic of
 * the event's command (`Start session`, `Stop session`, `Open connection`, `Close connection`,
 * matched exactly) when that topic is enabled.
 */
import type { UserEventsConfig } from "../config/index.ts";
import type { BrokerMessage } from "../shared/broker-message.ts";
import type { UserEvent } from "./user-event.ts";

export type UserEventMessageMapper = (event: UserEvent) => BrokerMessage[];

export function createUserEventMessageMapper(config: UserEventsConfig): UserEventMessageMapper {
  const { postTo } = config.sendToMQTT;
  const everything = postTo.everythingTopic.enable ? postTo.everythingTopic.topic : undefined;
  const byCommand = new Map<string, string>();
  const commandTopics = [
    ["Start session", postTo.sessionStartTopic],
    ["Stop session", postTo.sessionStopTopic],
    ["Open connection", postTo.connectionOpenTopic],
    ["Close connection", postTo.connectionCloseTopic],
  ] as const;
  for (const [command, topic] of commandTopics) if (topic.enable) byCommand.set(command, topic.topic);
  const tags = Object.fromEntries(config.tags.map((tag) => [tag.name, tag.value]));

  return function toUserEventMessages(event) {
    const commandTopic = byCommand.get(event.command);
    if (everything === undefined && commandTopic === undefined) return [];
    const body: Record<string, unknown> = {
      messageType: event.source,
      host: event.host,
      command: event.command,
      userDir: event.user_directory,
      userId: event.user_id,
      origin: event.origin,
      context: event.context,
      message: event.message,
      tags,
    };
    if (event.appId !== "") {
      body.appId = event.appId;
      body.appName = event.appName;
    }
    if (event.uaBrowserName !== "") body.uaBrowserName = event.uaBrowserName;
    if (event.uaBrowserMajorVersion !== "") body.uaBrowserMajorVersion = event.uaBrowserMajorVersion;
    if (event.uaOsName !== "") body.uaOsName = event.uaOsName;
    if (event.uaOsVersion !== "") body.uaOsVersion = event.uaOsVersion;
    const payload = JSON.stringify(body);
    const messages: BrokerMessage[] = [];
    if (everything !== undefined) messages.push({ topic: everything, payload });
    if (commandTopic !== undefined) messages.push({ topic: commandTopic, payload });
    return messages;
  };
}
