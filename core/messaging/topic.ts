/** MQTT publish topic rules (MQTT 3.1.1, section 4.7): non-empty, no wildcards, no NUL, ≤ 65535 bytes. */
import { InvalidTopicError } from "./errors.ts";

export function assertPublishTopic(topic: string): void {
  if (topic.length === 0) throw new InvalidTopicError("topic must not be empty");
  if (topic.includes("\0")) throw new InvalidTopicError("topic must not contain NUL characters");
  if (topic.includes("#") || topic.includes("+")) {
    throw new InvalidTopicError("topic must not contain the wildcards '#' or '+'");
  }
  if (Buffer.byteLength(topic) > 65_535) throw new InvalidTopicError("topic is longer than 65535 bytes");
}
