/**
 * What the soak's client knows of each event (by its number: answered 202, answered otherwise,
 * or no answer), and the check of a destination's eventIds against it: exactly the acknowledged
 * events (those carrying objectData, for the JSON files), each once. Nothing crashes in a soak,
 * so no event is replayed and no duplicate is allowed.
 */

export type Outcome = "accepted" | "refused" | "unanswered";
const CODES: Record<Outcome, number> = { unanswered: 0, accepted: 1, refused: 2 };

/** One byte per event number, so that millions of events cost the client no garbage collection. */
export class Outcomes {
  private codes = new Uint8Array(1 << 20);
  private issued = 0;

  /** The next event number, not yet answered. */
  take(): number {
    const seq = this.issued++;
    if (seq >= this.codes.length) {
      const grown = new Uint8Array(this.codes.length * 2);
      grown.set(this.codes);
      this.codes = grown;
    }
    return seq;
  }

  note(seq: number, status: number): void {
    this.codes[seq] = status === 202 ? CODES.accepted : status === 0 ? CODES.unanswered : CODES.refused;
  }

  get total(): number {
    return this.issued;
  }

  isAccepted(seq: number): boolean {
    return seq < this.issued && this.codes[seq] === CODES.accepted;
  }

  count(outcome: Outcome, where: (seq: number) => boolean = () => true): number {
    let n = 0;
    for (let seq = 0; seq < this.issued; seq++) if (this.codes[seq] === CODES[outcome] && where(seq)) n++;
    return n;
  }
}

export interface DestinationCheck {
  destination: string;
  /** Rows, points or files found. */
  found: number;
  expected: number;
  /** Expected events not there. */
  missing: number;
  /** Events there more than once (each extra copy counts). */
  duplicates: number;
  /** Events there that were never acknowledged, or not of this run. */
  unexpected: number;
}

export function checkDestination(
  destination: string,
  eventIds: Iterable<string>,
  options: {
    outcomes: Outcomes;
    seqOf(eventId: string): number | undefined;
    /** Whether an acknowledged event belongs in this destination. */
    belongs(seq: number): boolean;
  },
): DestinationCheck {
  const { outcomes, seqOf, belongs } = options;
  const seen = new Uint8Array(outcomes.total);
  let found = 0;
  let duplicates = 0;
  let unexpected = 0;
  let present = 0;
  for (const id of eventIds) {
    found += 1;
    const seq = seqOf(id);
    if (seq === undefined || !outcomes.isAccepted(seq) || !belongs(seq)) {
      unexpected += 1;
      continue;
    }
    if (seen[seq] === 1) duplicates += 1;
    else {
      seen[seq] = 1;
      present += 1;
    }
  }
  const expected = outcomes.count("accepted", belongs);
  return { destination, found, expected, missing: expected - present, duplicates, unexpected };
}

export const destinationCheckPasses = (check: DestinationCheck): boolean =>
  check.missing === 0 && check.duplicates === 0 && check.unexpected === 0 && check.found === check.expected;
