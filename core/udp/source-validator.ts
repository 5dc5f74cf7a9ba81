/**
 * Source validation for a UDP socket: `allowedSources` is turned into a set of addresses at
 * start — literal IPv4/IPv6 addresses kept, names resolved through the injected resolver (all IPv4
 * and IPv6 addresses of each name) — so the per-datagram check is one Set lookup.
 *
 * A list that is given fails closed: when none of its names resolves (a DNS outage while the
 * service starts, a name mistyped), every datagram is refused (counted as `dropped_source`), with
 * one WARN saying so, rather than every sender being let in for the life of the process. A name
 * that does not resolve is logged and retried every minute until it does; its addresses are then
 * accepted. Names that resolved are not looked up again. An empty list is no list, as Butler SOS
 * has it: every sender is accepted, with a WARN.
 *
 * Rejections are logged at WARN once per sender address per minute and at DEBUG otherwise; the
 * queue counts them (`dropped_source`).
 */
import { isIPv4, isIPv6 } from "../config/index.ts";
import { createLogThrottle } from "../logging/log-throttle.ts";
import type { Clock, Logger, Stoppable, TimerHandle } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import { canonicalAddress, type UdpSender } from "./udp-sender.ts";

/** Every address of a host name (IPv4 and IPv6); rejects when the name does not resolve. */
export type HostResolver = (name: string) => Promise<string[]>;

export interface SourceValidator {
  /** False when every sender is accepted (validation disabled, or no list given). */
  readonly enforcing: boolean;
  /** Whether a datagram from `sender` may enter the queue; logs a rejection (throttled). */
  accepts(sender: UdpSender, nowMs: number): boolean;
}

/** A validator that may still be resolving names: `stop()` ends the retries. */
export type StartedSourceValidator = SourceValidator & Stoppable;

export interface SourceValidatorOptions {
  enable: boolean;
  allowedSources: readonly string[];
  /** Names the socket in log lines, e.g. `user_events`. */
  label: string;
}

export interface SourceValidatorDeps {
  resolve: HostResolver;
  logger: Logger;
  /** Times the retries of names that did not resolve. */
  clock: Clock;
}

/** How long a name that did not resolve waits before it is looked up again. */
export const SOURCE_RETRY_MS = 60_000;

/** The validator of a socket without source validation. */
export const acceptAllSources: StartedSourceValidator = {
  enforcing: false,
  accepts: () => true,
  stop: async () => undefined,
};

export async function createSourceValidator(
  options: SourceValidatorOptions,
  deps: SourceValidatorDeps,
): Promise<StartedSourceValidator> {
  const { label, allowedSources } = options;
  const { logger } = deps;
  if (!options.enable) return acceptAllSources;
  if (allowedSources.length === 0) {
    logger.warn(`${label} SOURCE VALIDATION: enabled but allowedSources is empty; accepting every source`);
    return acceptAllSources;
  }

  const allowed = new Set<string>();
  const names: string[] = [];
  for (const source of allowedSources) {
    const literal = source.startsWith("[") && source.endsWith("]") ? source.slice(1, -1) : source;
    if (isIPv4(literal) || isIPv6(literal)) allowed.add(canonicalAddress(literal));
    else names.push(source);
  }
  const pending = await resolveNames(names, allowed, label, deps, "error");
  if (allowed.size === 0) {
    logger.warn(
      `${label} SOURCE VALIDATION: none of the allowed sources resolved; refusing every datagram until one does (retrying every ${SOURCE_RETRY_MS / 1000} s)`,
      { allowedSources: allowedSources.join(", ") },
    );
  } else {
    if (pending.length > 0) {
      logger.warn(
        `${label} SOURCE VALIDATION: ${pending.length} allowed sources did not resolve and were skipped (retrying every ${SOURCE_RETRY_MS / 1000} s)`,
      );
    }
    logger.info(`${label} SOURCE VALIDATION: accepting datagrams only from ${allowed.size} addresses`, {
      addresses: [...allowed].join(", "),
    });
  }
  const retries = retryUnresolved(pending, allowed, label, deps);
  return { ...enforcingValidator(allowed, label, logger), stop: async () => retries.stop() };
}

/**
 * Adds the addresses of each name that resolves to `allowed`; returns the names that did not.
 * Each of those is logged at `level`: ERROR at start, DEBUG on the retries (the start said it).
 */
async function resolveNames(
  names: readonly string[],
  allowed: Set<string>,
  label: string,
  deps: SourceValidatorDeps,
  level: "error" | "debug",
): Promise<string[]> {
  const results = await Promise.allSettled(names.map((name) => deps.resolve(name)));
  const unresolved: string[] = [];
  results.forEach((result, i) => {
    const name = names[i] ?? "";
    const addresses = result.status === "fulfilled" ? result.value : [];
    if (addresses.length === 0) {
      unresolved.push(name);
      const reason = result.status === "rejected" ? describeError(result.reason) : "no addresses";
      deps.logger[level](`${label} SOURCE VALIDATION: cannot resolve allowed source "${name}"; skipped`, {
        reason,
      });
      return;
    }
    for (const address of addresses) allowed.add(canonicalAddress(address));
  });
  return unresolved;
}

/** Looks the names up again every SOURCE_RETRY_MS until all resolve or it is stopped. */
function retryUnresolved(
  names: readonly string[],
  allowed: Set<string>,
  label: string,
  deps: SourceValidatorDeps,
): { stop(): void } {
  let pending = names;
  let stopped = false;
  let timer: TimerHandle | undefined;
  const schedule = () => {
    if (stopped || pending.length === 0) return;
    timer = deps.clock.setTimeout(() => void retry(), SOURCE_RETRY_MS);
  };
  async function retry(): Promise<void> {
    const before = pending;
    const still = await resolveNames(before, allowed, label, deps, "debug");
    if (stopped) return;
    pending = still;
    const resolved = before.filter((name) => !still.includes(name));
    if (resolved.length > 0) {
      deps.logger.info(
        `${label} SOURCE VALIDATION: allowed sources resolved (${resolved.join(", ")}); accepting datagrams only from ${allowed.size} addresses`,
        { addresses: [...allowed].join(", "), stillUnresolved: still.length },
      );
    }
    schedule();
  }
  schedule();
  return {
    stop() {
      stopped = true;
      if (timer !== undefined) deps.clock.clearTimeout(timer);
    },
  };
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
