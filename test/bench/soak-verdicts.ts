/**
 * The soak's verdicts, each a PASS or a FAIL with its figures: RSS and p99 flat over the second
 * half, the peak RSS under a ceiling, every request answered 202 on schedule, a clean log, the
 * destinations drained and a clean exit, and every acknowledged event in every destination
 * exactly once. The growths are judged
 * only in runs of at least GROWTH_JUDGED_FROM_S: in a 60 s run the windows are 3 s, and a
 * window's RSS and p99 swing by ±20 % with garbage collection and the neighbours' load (five 60 s
 * runs on 2026-11-24: −24 % to +22 %), so a shorter run prints both growths without judging them.
 */
import { type DestinationCheck, destinationCheckPasses, type Outcomes } from "./soak-counts.ts";
import { carriesObjectData } from "./soak-events.ts";
import type { Growth } from "./soak-windows.ts";

const GROWTH_LIMIT = 0.1;
/**
 * Steward's peak RSS, judged in every run: a ceiling far above what a sound build peaks at (60 s
 * runs on Node 24, 2026-12-06: 150–165 MB), so that the noise never reaches it and a leak does.
 * A build that kept every request of a kept-alive connection (commit `7c229b3`) peaked at 501.8 MB
 * in a 60 s run, where the growths, not judged there, were all that showed it.
 */
const PEAK_RSS_CEILING_MB = 256;
/** Runs shorter than this print the growth figures without judging them (see above). */
const GROWTH_JUDGED_FROM_S = 300;

export type Verdict = [ok: boolean, text: string];

export interface SoakOutcome {
  durationS: number;
  /** Steward's VmHWM at the end of the load. */
  peakRssMb: number;
  rss: Growth;
  p99: Growth;
  /** Requests that were due but not issued on schedule. */
  notIssued: number;
  /** Events answered 202 once the load was over. */
  accepted: number;
  outcomes: Outcomes;
  unexpectedLogLines: readonly string[];
  drainS: number | undefined;
  exitCode: number | null;
  destinations: readonly DestinationCheck[];
}

const percent = (value: number) => `${value >= 0 ? "+" : ""}${(value * 100).toFixed(1)} %`;

function growthVerdicts({ rss, p99 }: SoakOutcome): Verdict[] {
  return [
    [
      rss.growth <= GROWTH_LIMIT,
      `RSS growth over the second half ${percent(rss.growth)} (median of its first 3 windows ${rss.first.toFixed(1)} MB, of its last 3 ${rss.last.toFixed(1)} MB; limit +10 %)`,
    ],
    [
      p99.growth <= GROWTH_LIMIT,
      `p99 growth over the second half ${percent(p99.growth)} (${p99.first.toFixed(2)} ms -> ${p99.last.toFixed(2)} ms; limit +10 %)`,
    ],
  ];
}

/** Prints every verdict (and, in a short run, the growths as INFO); true when all passed. */
export function judgeSoak(soak: SoakOutcome): boolean {
  const { accepted, outcomes, unexpectedLogLines: logLines, drainS, exitCode } = soak;
  const growthJudged = soak.durationS >= GROWTH_JUDGED_FROM_S;
  if (!growthJudged)
    for (const [, text] of growthVerdicts(soak))
      console.log(`INFO (not judged in a run under ${GROWTH_JUDGED_FROM_S} s) ${text}`);
  const refused = outcomes.count("refused");
  const unanswered = outcomes.count("unanswered");
  const verdicts: Verdict[] = [
    ...(growthJudged ? growthVerdicts(soak) : []),
    [
      soak.peakRssMb <= PEAK_RSS_CEILING_MB,
      `peak RSS ${soak.peakRssMb.toFixed(1)} MB (ceiling ${PEAK_RSS_CEILING_MB} MB, which only a leak reaches)`,
    ],
    [
      soak.notIssued === 0 && refused === 0 && unanswered === 0,
      `every request answered 202: ${accepted} of ${outcomes.total} (other answers ${refused}, no answer ${unanswered}, not issued on schedule ${soak.notIssued})`,
    ],
    [
      logLines.length === 0,
      `no ERROR, WARN or stray output in Steward's log${logLines.length === 0 ? "" : `: ${logLines.length} lines, e.g. ${logLines.slice(0, 5).join(" | ")}`}`,
    ],
    [
      drainS !== undefined && exitCode === 0,
      `destinations drained after the load (${drainS === undefined ? "no" : `${drainS.toFixed(1)} s`}) and Steward stopped cleanly (exit ${exitCode})`,
    ],
    [
      soak.destinations.every(destinationCheckPasses),
      `counts: Parquet rows = QVD rows = InfluxDB points = ${accepted} acknowledged, JSON files = ${outcomes.count("accepted", carriesObjectData)} acknowledged with objectData, each once`,
    ],
  ];
  for (const [ok, text] of verdicts) console.log(`${ok ? "PASS" : "FAIL"} ${text}`);
  return verdicts.every(([ok]) => ok);
}
