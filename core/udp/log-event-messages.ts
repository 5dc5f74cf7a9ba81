/**
 * Log events as broker messages, as Butler SOS publishes them: the payload is the parsed event as
 * JSON with `tags` (from `logEvents.tags`) added, published to `logEvents.sendToMQTT.baseTopic`
 * when `postTo.baseTopic`, and to the base topic plus the subsystem as a path when
 * `postTo.subsystemTopics` (`System.Scheduler.Slave` → `<base>/system/scheduler/slave`). A
 * subsystem that would make an invalid publish topic (empty, or holding the wildcards `+`/`#`) gets
 * no subsystem message rather than a publish the broker refuses.
 */
import type { LogEventsConfig } from "../config/index.ts";
import type { BrokerMessage } from "../shared/broker-message.ts";
import type { LogEvent } from "./log-event.ts";

/** Maps a log event (with its JSON, shared with `raw_event`) to its broker messages. */
export type LogEventMessageMapper = (event: LogEvent, rawEvent: string) => BrokerMessage[];

/** `A.B.C` → `a/b/c`, or undefined when it cannot be part of a publish topic. */
export function subsystemPath(subsystem: string): string | undefined {
  if (subsystem === "" || subsystem.includes("+") || subsystem.includes("#")) return undefined;
  return subsystem
    .split(".")
    .map((part) => part.toLowerCase())
    .join("/");
}

export function createLogEventMessageMapper(config: LogEventsConfig): LogEventMessageMapper {
  const { baseTopic, postTo } = config.sendToMQTT;
  const subsystemBase = baseTopic.endsWith("/") ? baseTopic : `${baseTopic}/`;
  // The event JSON always ends with `}`: the tags member is spliced in instead of re-serialising.
  const tagsMember = `,"tags":${JSON.stringify(Object.fromEntries(config.tags.map((t) => [t.name, t.value])))}}`;

  return function toLogEventMessages(event, rawEvent) {
    const payload = `${rawEvent.slice(0, -1)}${tagsMember}`;
    const messages: BrokerMessage[] = [];
    if (postTo.baseTopic) messages.push({ topic: baseTopic, payload });
    if (postTo.subsystemTopics) {
      const path = subsystemPath(event.subsystem);
      if (path !== undefined) messages.push({ topic: `${subsystemBase}${path}`, payload });
    }
    return messages;
  };
}
