/**
 * MQTT topic rules (MQTT 3.1.1, section 4.7): a topic a message is published to (non-empty, no
 * wildcards, no NUL, ≤ 65535 bytes), a topic filter a subscription names (`+` alone in a level,
 * `#` alone in the last level), and whether a topic falls under a filter. The configuration checks
 * its topics with the same rules the broker client applies, so a topic that check-config accepts
 * is never refused at run time.
 */
import { InvalidTopicError } from "./errors.ts";

const MAX_TOPIC_BYTES = 65_535;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the check is for control characters.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why `topic` cannot be published to, or undefined when it can. */
export function publishTopicProblem(topic: string): string | undefined {
  if (topic.length === 0) return "topic must not be empty";
  if (topic.includes("\0")) return "topic must not contain NUL characters";
  if (topic.includes("#") || topic.includes("+")) return "topic must not contain the wildcards '#' or '+'";
  if (Buffer.byteLength(topic) > MAX_TOPIC_BYTES) return "topic is longer than 65535 bytes";
  return undefined;
}

export function assertPublishTopic(topic: string): void {
  const problem = publishTopicProblem(topic);
  if (problem !== undefined) throw new InvalidTopicError(problem);
}

/** Why `filter` cannot be subscribed to, or undefined when it can. */
export function topicFilterProblem(filter: string): string | undefined {
  if (filter.length === 0) return "topic filter must not be empty";
  if (CONTROL.test(filter)) return "topic filter must not contain control characters";
  if (Buffer.byteLength(filter) > MAX_TOPIC_BYTES) return "topic filter is longer than 65535 bytes";
  const levels = filter.split("/");
  for (const [i, level] of levels.entries()) {
    if (level.includes("#") && (level !== "#" || i !== levels.length - 1)) {
      return "'#' must stand alone in the last level of a topic filter (e.g. qliksense/#)";
    }
    if (level.includes("+") && level !== "+")
      return "'+' must stand alone in its level (e.g. qliksense/+/start)";
  }
  return undefined;
}

/**
 * True when a message published to `topic` reaches a subscription to `filter`. A filter that
 * begins with a wildcard does not match topics beginning with `$` (the broker's own topics).
 */
export function topicMatches(filter: string, topic: string): boolean {
  if (topic.startsWith("$") && (filter.startsWith("#") || filter.startsWith("+"))) return false;
  const wanted = filter.split("/");
  const levels = topic.split("/");
  for (const [i, level] of wanted.entries()) {
    if (level === "#") return true;
    if (i >= levels.length) return false;
    if (level !== "+" && level !== levels[i]) return false;
  }
  return wanted.length === levels.length;
}
