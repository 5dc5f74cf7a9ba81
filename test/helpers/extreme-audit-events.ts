/**
 * Audit events with extreme shapes, as JSON texts a client could post, made from a seed (the same
 * seed makes the same events): nesting at and around the 64-level limit, wide objects and arrays,
 * long strings, unusual Unicode (lone surrogates, NUL and other control characters, right-to-left
 * marks, emoji, combining marks, line separators, the characters line protocol escapes) and
 * numbers at the limits (±1e308, -0, integers beyond 2^53 and beyond a double's exact range, the
 * smallest subnormal). Each event mixes a few of these in the places a client fills freely:
 * context names and ids, objectData (its keys and values), selection details, durations and
 * dataStateIds. Most pass the ingest checks; some are refused there (too deep, a value a payload
 * schema does not take), which is part of what is tried.
 */
import { envelopeOfType } from "./audit-envelopes.ts";

/** mulberry32: a small deterministic pseudo-random generator, uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ExtremeEvent {
  eventId: string;
  /** What makes it extreme, for a failure message. */
  shapes: string[];
  /** The body to post. */
  text: string;
  /** Whether it carries objectData (the json destination writes a file only for those). */
  carriesObjectData: boolean;
}

const ODD_TEXTS = [
  "\ud800",
  "lone \udfff low",
  "nul\u0000inside",
  "\u0000",
  "bell\u0007 and \u001b[31m escape",
  "\u202eright-to-left override",
  "שלום \u200f עולם",
  "مرحبا",
  "👩‍💻🚀🏳️‍🌈",
  "e\u0301\u0301\u0301",
  "\ufeffbom",
  "line\u2028separator\u2029paragraph",
  "new\nline\r\nand\ttab",
  'quote " and \\ backslash',
  "comma, equals= space",
  "trailing backslash\\",
  "\\",
  "",
  " ",
  "Ω≈ç√∫˜µ≤≥÷",
  "𝕿𝖍𝖊 𝖖𝖚𝖎𝖈𝖐",
  "null",
  "0",
  "-0",
  "NaN",
  "Infinity",
];

/** Number literals as text: JSON.stringify would turn -0 into 0 and round the long integers. */
const ODD_NUMBERS = [
  "1e308",
  "-1e308",
  "1.7976931348623157e308",
  "-0",
  "0",
  "5e-324",
  "-5e-324",
  "9007199254740993",
  "-9007199254740993",
  "123456789012345678901234567890",
  "1e21",
  "2.5e-300",
  "0.1",
];

/** Places a number literal in the text: the string `#n<i>#` is replaced by ODD_NUMBERS[i]. */
const numberMark = (index: number) => `#n${index}#`;

class Picker {
  constructor(private readonly random: () => number) {}
  int(below: number): number {
    return Math.floor(this.random() * below);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  chance(p: number): boolean {
    return this.random() < p;
  }
  oddText(): string {
    return this.pick(ODD_TEXTS);
  }
  oddNumber(): string {
    return numberMark(this.int(ODD_NUMBERS.length));
  }
}

/** Objects or arrays nested `levels` deep around a leaf. */
function nested(levels: number, pick: Picker, leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < levels; level += 1)
    value = pick.chance(0.5) ? [value] : { [pick.oddText()]: value };
  return value;
}

/** The objectData of an event: one to three extreme shapes. */
function objectData(pick: Picker, shapes: string[]): Record<string, unknown> {
  const data: Record<string, unknown> = { objectType: pick.oddText() };
  const kinds = 1 + pick.int(3);
  for (let i = 0; i < kinds; i += 1) {
    switch (pick.int(5)) {
      case 0: {
        // The envelope, payload, event and objectData take 4 levels; 55–70 in all, around the limit.
        const depth = 55 + pick.int(16);
        shapes.push(`depth ${depth}`);
        data[`deep${i}`] = nested(depth - 4, pick, pick.oddNumber());
        break;
      }
      case 1: {
        const width = 1 + pick.int(20_000);
        shapes.push(`array of ${width}`);
        data[`wide${i}`] = Array.from({ length: width }, (_, n) => (n % 3 === 0 ? pick.oddNumber() : n));
        break;
      }
      case 2: {
        const members = 1 + pick.int(3000);
        shapes.push(`object of ${members} members`);
        data[`members${i}`] = Object.fromEntries(
          Array.from({ length: members }, (_, n) => [`${pick.oddText()}${n}`, pick.oddText()]),
        );
        break;
      }
      case 3: {
        const length = 1 + pick.int(300_000);
        shapes.push(`string of ${length}`);
        data[`long${i}`] = pick
          .oddText()
          .repeat(Math.ceil(length / 8))
          .slice(0, length);
        break;
      }
      default:
        shapes.push("odd keys and numbers");
        for (let n = 0; n < 20; n += 1)
          data[pick.oddText() + n] = pick.chance(0.5) ? pick.oddNumber() : pick.oddText();
    }
  }
  return data;
}

/** Context members with odd texts; long ones only where no payload schema limits them. */
function context(pick: Picker, unlimited: boolean, shapes: string[]): Record<string, unknown> {
  const text = () => {
    const odd = pick.oddText();
    if (!unlimited || !pick.chance(0.2)) return odd.slice(0, 32);
    shapes.push("long context text");
    return odd.repeat(1 + pick.int(20_000));
  };
  return { appName: text(), sheetId: text(), sheetName: text(), user: text(), userAgent: text() };
}

const TYPES = [
  "event.bookmark",
  "audit.event",
  "screenshot.url.received",
  "object.view.duration",
  "app.model.validated",
  "selection.state.changed",
  "event.unsupported.visualization",
  "object.visibility.changed",
] as const;

/** One extreme event. */
function extremeEvent(pick: Picker): ExtremeEvent {
  const type = pick.pick(TYPES);
  const shapes: string[] = [type];
  const unlimited =
    type === "event.bookmark" || type === "audit.event" || type === "object.visibility.changed";
  const base = envelopeOfType(type) as { payload: { event?: Record<string, unknown> } };
  const event: Record<string, unknown> = { ...base.payload.event };
  const carriesObjectData = pick.chance(0.7);
  if (carriesObjectData) event.objectData = objectData(pick, shapes);
  if (type === "object.view.duration") event.duration = pick.oddNumber();
  if (type === "app.model.validated" || type === "object.view.duration") event.dataStateId = pick.oddNumber();
  if (type === "event.unsupported.visualization")
    event.dataStateId = pick.chance(0.5) ? "9".repeat(400) : pick.oddNumber();
  if (type === "selection.state.changed") {
    event.details = Array.from({ length: pick.int(500) }, () => ({
      qField: pick.oddText(),
      qSelectedCount: pick.oddNumber(),
      qSelected: [pick.oddText(), pick.oddNumber()],
    }));
  }
  if (pick.chance(0.5)) event.objectId = pick.oddText().slice(0, 64) || "o";
  const eventId = randomUUIDFrom(pick);
  const envelope = {
    ...base,
    eventId,
    // Dated now: InfluxDB 1.x names one reason per refused request, so a point beyond its
    // retention beside an unparsable one would be dropped unnamed (influx-refusal.ts); refusals
    // for retention have tests of their own.
    timestamp: new Date().toISOString(),
    correlationId: pick.oddText().slice(0, 64),
    payload: { ...base.payload, context: context(pick, unlimited, shapes), event },
  };
  let text = JSON.stringify(envelope);
  for (let index = 0; index < ODD_NUMBERS.length; index += 1)
    text = text.replaceAll(`"${numberMark(index)}"`, ODD_NUMBERS[index] as string);
  return { eventId, shapes, text, carriesObjectData };
}

/** A UUID from the seeded generator, so that a seed names the same events every time. */
function randomUUIDFrom(pick: Picker): string {
  const hex = Array.from({ length: 32 }, () => pick.int(16).toString(16)).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** `count` extreme events made from `seed`. */
export function extremeEvents(seed: number, count: number): ExtremeEvent[] {
  const pick = new Picker(seededRandom(seed));
  return Array.from({ length: count }, () => extremeEvent(pick));
}

/** A seed for this run: `STEWARD_FUZZ_SEED` when set (to replay a failure), else a new one. */
export function fuzzSeed(): number {
  const given = process.env.STEWARD_FUZZ_SEED;
  return given === undefined || given === "" ? Math.floor(Math.random() * 2 ** 31) : Number(given);
}
