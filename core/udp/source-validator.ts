/**
 * Source validation for a UDP socket: `allowedSources` is turned into a set of addresses once, at
 * start — literal IPv4/IPv6 addresses kept, names resolved through the injected resolver (all IPv4
 * and IPv6 addresses of each name), never re-resolved — so the per-datagram check is one Set
 * lookup.
 *
 * Fail-open, as in Butler SOS: an empty list, or a list of which nothing resolves, switches
 * validation off with a WARN rather than silently dropping every datagram. An unresolvable name
 * is logged and skipped. Rejections are logged at WARN once per sender address per minute and at
 * DEBUG otherwise; the queue counts them (`dropped_source`).
 */
import { isIPv4, isIPv6 } from "../config/validators.ts";
import { describeError } from "../destinations/describe-error.ts";
import { createLogThrottle } from "../logging/log-throttle.ts";
import type { Logger } from "../ports.ts";
import { canonicalAddress, type UdpSender } from "./udp-sender.ts";

/** Every address of a host name (IPv4 and IPv6); rejects when the name does not resolve. */
export type HostResolver = (name: string) => Promise<string[]>;

export interface SourceValidator {
  /** False when every sender is accepted (validation disabled, or failed open at start). */
  readonly enforcing: boolean;
  /** Whether a datagram from `sender` may enter the queue; logs a rejection (throttled). */
  accepts(sender: UdpSender, nowMs: number): boolean;
}

export interface SourceValidatorOptions {
  enable: boolean;
  allowedSources: readonly string[];
  /** Names the socket in log lines, e.g. `user_events`. */
  label: string;
}

export interface SourceValidatorDeps {
  resolve: HostResolver;
  logger: Logger;
}

/** The validator of a socket without source validation. */
export const acceptAllSources: SourceValidator = { enforcing: false, accepts: () => true };

export async function createSourceValidator(
  options: SourceValidatorOptions,
  deps: SourceValidatorDeps,
): Promise<SourceValidator> {
  const { label, allowedSources } = options;
  const { logger } = deps;
  if (!options.enable) return acceptAllSources;
  if (allowedSources.length === 0) {
    logger.warn(`${label} SOURCE VALIDATION: enabled but allowedSources is empty; accepting every source`);
    return acceptAllSources;
  }

  const allowed = await resolveSources(allowedSources, label, deps);
  if (allowed.size === 0) {
    logger.warn(`${label} SOURCE VALIDATION: none of the allowed sources resolved; accepting every source`, {
      allowedSources: allowedSources.join(", "),
    });
    return acceptAllSources;
  }
  logger.info(`${label} SOURCE VALIDATION: accepting datagrams only from ${allowed.size} addresses`, {
    addresses: [...allowed].join(", "),
  });
  return enforcingValidator(allowed, label, logger);
}

async function resolveSources(
  sources: readonly string[],
  label: string,
  deps: SourceValidatorDeps,
): Promise<Set<string>> {
  const allowed = new Set<string>();
  const names: string[] = [];
  for (const source of sources) {
    const literal = source.startsWith("[") && source.endsWith("]") ? source.slice(1, -1) : source;
    if (isIPv4(literal) || isIPv6(literal)) allowed.add(canonicalAddress(literal));
    else names.push(source);
  }
  const results = await Promise.allSettled(names.map((name) => deps.resolve(name)));
  let skipped = 0;
  results.forEach((result, i) => {
    const name = names[i] ?? "";
    const addresses = result.status === "fulfilled" ? result.value : [];
    if (addresses.length === 0) {
      skipped += 1;
      const reason = result.status === "rejected" ? describeError(result.reason) : "no addresses";
      deps.logger.error(`${label} SOURCE VALIDATION: cannot resolve allowed source "${name}"; skipped`, {
        reason,
      });
      return;
    }
    for (const address of addresses) allowed.add(canonicalAddress(address));
  });
  if (skipped > 0 && allowed.size > 0) {
    deps.logger.warn(
      `${label} SOURCE VALIDATION: ${skipped} allowed sources did not resolve and were skipped`,
    );
  }
  return allowed;
}

function enforcingValidator(allowed: ReadonlySet<string>, label: string, logger: Logger): SourceValidator {
  const throttle = createLogThrottle();
  return {
    enforcing: true,
    accepts(sender, nowMs) {
      const { address } = sender;
      // IPv4 senders hit or miss with one lookup; only IPv6 spellings need canonicalising.
      if (allowed.has(address) || (address.includes(":") && allowed.has(canonicalAddress(address)))) {
        return true;
      }
      const since = throttle.admit(address, nowMs);
      const message = `${label} SOURCE VALIDATION: Rejected message from unauthorized source ${address}:${sender.port}`;
      if (since !== undefined)
        logger.warn(message, since > 1 ? { heldBackSinceLastWarning: since - 1 } : undefined);
      else if (logger.isLevelEnabled("debug")) logger.debug(message);
      return false;
    },
  };
}
