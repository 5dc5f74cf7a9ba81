/**
 * Datagrams the operating system dropped for one UDP listener since it started: when a burst
 * outruns the socket's receive buffer the kernel discards them before Steward sees them, so no
 * queue counter can. The kernel's own cumulative counter (proc-net-udp.ts on Linux, read by the
 * local runtime) is read when someone asks — a scrape, the status page, a queue-metrics point —
 * and on a timer, so that growth is logged even when nobody asks: a WARN at most once a minute,
 * with the number dropped since the previous line and what to do about it.
 *
 * Where the system offers no such counter the answer is `dropped: null` with the reason, never 0:
 * a 0 would claim that nothing was lost. On a platform that keeps no such counter at all (Windows,
 * macOS: only Linux's UDP table has one) the answer also says `notOnThisPlatform`, so the status
 * page can say "not available on this platform" instead of a reason that might pass. A first reading that fails is said once and tried again at
 * every later reading, because its reason may pass (a socket the table did not list yet): the
 * count then starts from the first good reading. The kernel counts in 32 bits, so the increase is
 * summed from reading to reading modulo 2^32 and survives a wrap.
 */
import type { Clock, Logger, Stoppable, TimerHandle } from "../ports.ts";
import type { KernelDropsReading } from "./proc-net-udp.ts";

/** Dropped by the operating system since the listener started, or why that is not known. */
export type KernelDropCount =
  | { readonly dropped: number }
  | { readonly dropped: null; readonly reason: string; readonly notOnThisPlatform?: true };

export interface KernelDrops extends Stoppable {
  /** Reads the kernel's counter now (logging growth); after `stop()`, the last count. */
  count(): KernelDropCount;
}

export interface KernelDropsOptions {
  /** The listener, e.g. "user_events". */
  label: string;
  /** How often growth is looked for when nobody asks (10 s by default). */
  checkIntervalMs?: number;
  /** The shortest time between two WARN lines (a minute by default). */
  warnIntervalMs?: number;
}

export interface KernelDropsDeps {
  /** The kernel's cumulative counter for this listener's socket. */
  read: () => KernelDropsReading;
  clock: Clock;
  logger: Logger;
}

const COUNTER_RANGE = 2 ** 32;

export const KERNEL_DROPS_HINT =
  "the socket's receive buffer was full: raise udpServerConfig.receiveBufferBytes and the OS's " +
  "net.core.rmem_max; if it goes on, check that the destinations keep up and the host has CPU to spare";

export function startKernelDrops(options: KernelDropsOptions, deps: KernelDropsDeps): KernelDrops {
  const { label } = options;
  const { clock, logger, read } = deps;
  const checkIntervalMs = options.checkIntervalMs ?? 10_000;
  const warnIntervalMs = options.warnIntervalMs ?? 60_000;

  let total = 0;
  let reported = 0;
  let warnedAtMs: number | undefined;
  let lostReason: string | undefined;
  let timer: TimerHandle | undefined;
  let final: KernelDropCount | undefined;

  const first = read();
  // The counter's last reading; undefined until a reading succeeds.
  let last = "drops" in first ? first.drops : undefined;
  if ("unavailable" in first) {
    // Said once: every answer repeats the reason until a reading succeeds.
    logger.info(`The operating system does not report the datagrams it drops for ${label}`, {
      reason: first.unavailable,
    });
    lostReason = first.unavailable;
  }

  function report(nowMs: number, force: boolean): void {
    if (total === reported) return;
    if (!force && warnedAtMs !== undefined && nowMs - warnedAtMs < warnIntervalMs) return;
    logger.warn(
      `The operating system dropped ${total - reported} datagrams for ${label} since the last report`,
      {
        droppedSinceStart: total,
        hint: KERNEL_DROPS_HINT,
      },
    );
    reported = total;
    warnedAtMs = nowMs;
  }

  function count(force = false): KernelDropCount {
    if (final !== undefined) return final;
    const reading = read();
    if ("unavailable" in reading) {
      if (lostReason === undefined) {
        logger.warn(`The operating system's count of datagrams dropped for ${label} cannot be read`, {
          reason: reading.unavailable,
        });
      }
      lostReason = reading.unavailable;
      return {
        dropped: null,
        reason: reading.unavailable,
        ...(reading.notOnThisPlatform ? { notOnThisPlatform: true } : {}),
      };
    }
    lostReason = undefined;
    if (last === undefined) {
      logger.info(`The operating system reports the datagrams it drops for ${label}, counted from now`);
      last = reading.drops;
    }
    total += (((reading.drops - last) % COUNTER_RANGE) + COUNTER_RANGE) % COUNTER_RANGE;
    last = reading.drops;
    report(clock.now(), force);
    return { dropped: total };
  }

  function check(): void {
    count();
    timer = clock.setTimeout(check, checkIntervalMs);
  }
  timer = clock.setTimeout(check, checkIntervalMs);

  return {
    count: () => count(),
    async stop() {
      if (final !== undefined) return;
      if (timer !== undefined) clock.clearTimeout(timer);
      // The last growth is reported now, whatever the minute: nothing reads the counter after this.
      final = count(true);
    },
  };
}
