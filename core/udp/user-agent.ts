/**
 * The browser and operating system of a user event: the proxy writes the user agent after
 * `UserAgent:` in the message. Parsing one with bowser costs about 10 µs, and a platform's users
 * send few distinct agents, so results are kept in a small cache (oldest entry evicted first) owned
 * by each parser.
 */
import Bowser from "bowser";

export interface UserAgentInfo {
  readonly browserName: string;
  /** The leading digits of the browser version, e.g. `58` for `58.0`; `''` when unknown. */
  readonly browserMajorVersion: string;
  readonly osName: string;
  readonly osVersion: string;
}

const MARKER = "UserAgent:";
const DEFAULT_CACHE_SIZE = 500;
const LEADING_DIGITS = /^\d+/;

/** Returns the user agent of a message, or undefined when the message names none. */
export type UserAgentParser = (message: string) => UserAgentInfo | undefined;

export function createUserAgentParser(cacheSize = DEFAULT_CACHE_SIZE): UserAgentParser {
  const cache = new Map<string, UserAgentInfo>();
  return function parseUserAgent(message) {
    const at = message.indexOf(MARKER);
    if (at < 0) return undefined;
    // The proxy quotes the agent: `UserAgent: 'Mozilla/5.0 …'`.
    const agent = message
      .slice(at + MARKER.length)
      .replaceAll("'", "")
      .trim();
    if (agent === "") return undefined;
    const cached = cache.get(agent);
    if (cached !== undefined) return cached;
    const info = describe(agent);
    if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
    cache.set(agent, info);
    return info;
  };
}

const UNKNOWN: UserAgentInfo = { browserName: "", browserMajorVersion: "", osName: "", osVersion: "" };

function describe(agent: string): UserAgentInfo {
  try {
    // skipParsing: only the browser and the OS are needed, each parsed on first access.
    const parser = Bowser.getParser(agent, true);
    const browser = parser.getBrowser();
    const os = parser.getOS();
    return {
      browserName: browser.name ?? "",
      browserMajorVersion: LEADING_DIGITS.exec(browser.version ?? "")?.[0] ?? "",
      osName: os.name ?? "",
      osVersion: os.version ?? "",
    };
  } catch {
    // bowser is third-party code fed with network input; an agent it cannot read is just unknown.
    return UNKNOWN;
  }
}
