/**
 * What the benchmarks read of a process (or the machine) from /proc: CPU time (of the process or
 * of its main thread), resident memory now and at its peak, and the load average printed beside
 * every figure. A process that is gone reads as 0 CPU seconds and NaN memory.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Clock ticks per second (`getconf CLK_TCK`): the unit of /proc/<pid>/stat's times. */
export const CLOCK_TICKS_PER_S =
  Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100;

/** utime + stime of `pid` in seconds (fields 14 and 15 of /proc/<pid>/stat); 0 once it is gone. */
export function cpuSeconds(pid: number | undefined): number {
  return pid === undefined ? 0 : statCpuSeconds(`/proc/${pid}/stat`);
}

/** The same for the process's main thread alone (its thread id is the process id). */
export function mainThreadCpuSeconds(pid: number): number {
  return statCpuSeconds(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuSeconds(path: string): number {
  try {
    // The fields after the command name, which is in parentheses and may hold spaces.
    const stat = readFileSync(path, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
  } catch {
    return 0;
  }
}

/** Resident memory now (VmRSS) and its peak so far (VmHWM), MB; NaN once the process is gone. */
export function memoryMb(pid: number): { rss: number; peak: number } {
  let status = "";
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    // gone: both read as NaN
  }
  const read = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN) / 1024;
  return { rss: read("VmRSS"), peak: read("VmHWM") };
}

/** The peak resident memory of `pid` so far (VmHWM), MB. */
export const peakRssMb = (pid: number): number => memoryMb(pid).peak;

/** The 1-, 5- and 15-minute load averages, as /proc/loadavg gives them. */
export function loadAverages(): [number, number, number] {
  const [one, five, fifteen] = readFileSync("/proc/loadavg", "utf8").split(" ").map(Number);
  return [one ?? Number.NaN, five ?? Number.NaN, fifteen ?? Number.NaN];
}

/** The 1-minute load average. */
export const loadAverage1 = (): number => loadAverages()[0];
