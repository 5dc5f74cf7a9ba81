/**
 * The `uptime` field of `sense_server`, in Butler SOS's format: `"<days> days, <h>h <mm>m <ss>s"` —
 * hours unpadded, minutes and seconds two digits — from the engine's `started` timestamp (compact
 * `20211109T153726.028+0200`, parsed by the UDP timestamp parser) to the poll time. Deviations from
 * Butler SOS, which read `started` as local wall-clock time and ignored its offset (and took the
 * hours from a Date in the local zone, so they were off by the machine's offset): the offset is
 * applied, so the uptime is the true time since that instant whatever the zones of the engine and
 * this machine. A value that does not parse — including one without a zone — gives `''`, as Butler
 * SOS did for garbage; a start after the poll time (clock skew between the machines) gives zero,
 * never a negative uptime.
 */
import { isoTimestampMs } from "../udp/index.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** A duration in ms as `"<days> days, <h>h <mm>m <ss>s"`; negative durations count as zero. */
export function formatUptime(durationMs: number): string {
  const ms = Math.max(0, Math.floor(durationMs));
  const days = Math.floor(ms / DAY);
  const hours = Math.floor((ms % DAY) / HOUR);
  const minutes = Math.floor((ms % HOUR) / MINUTE);
  const seconds = Math.floor((ms % MINUTE) / SECOND);
  return `${days} days, ${hours}h ${twoDigits(minutes)}m ${twoDigits(seconds)}s`;
}

/** The engine's uptime at `nowMs`, or `''` when `started` is not a timestamp with a zone. */
export function engineUptime(started: string, nowMs: number): string {
  const startedMs = isoTimestampMs(started);
  return startedMs === undefined ? "" : formatUptime(nowMs - startedMs);
}
