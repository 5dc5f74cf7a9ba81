/**
 * A client of a running Steward's ingest API for process tests: events with a known id that
 * every destination stores (objectData for the JSON files), posted one by one, with what came
 * back; and checks of a process's output that hold whatever the test did to it.
 */
import { readdirSync } from "node:fs";
import { expect } from "vitest";
import { envelopeOfType } from "./audit-envelopes.ts";

/** An event every destination stores, dated now; `padBytes` makes it that much larger. */
export function eventWithId(eventId: string, padBytes = 0): Record<string, unknown> {
  return {
    ...envelopeOfType("screenshot.url.received", {
      objectData: { objectType: "table", rows: [eventId], pad: "x".repeat(padBytes) },
    }),
    eventId,
    timestamp: new Date().toISOString(),
  };
}

export interface Answer {
  /** The HTTP status, or 0 when there was no answer. */
  status: number;
  retryAfter: string | null;
  /** The JSON body; undefined when empty or not JSON. */
  body: { reason?: string } | undefined;
  /** Why there was no answer (the error's code, e.g. ECONNREFUSED), when status is 0. */
  noAnswer?: string;
}

export async function postEvent(url: string, event: unknown): Promise<Answer> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-audit-client-version": "0.3.0" },
      body: JSON.stringify(event),
    });
    text = await response.text();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { status: 0, retryAfter: null, body: undefined, noAnswer: cause?.code ?? String(error) };
  }
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    body: jsonOrUndefined(text),
  };
}

function jsonOrUndefined(text: string): { reason?: string } | undefined {
  try {
    return text === "" ? undefined : (JSON.parse(text) as { reason?: string });
  } catch {
    return undefined;
  }
}

/** Ids of the events whose objectData JSON file is in `directory` (<stamp>_<eventId>_<corr>.json). */
export function jsonFileIds(directory: string): Set<string> {
  try {
    return new Set(
      readdirSync(directory)
        .filter((name) => name.endsWith(".json"))
        .map((name) => name.split("_")[1] ?? ""),
    );
  } catch {
    return new Set();
  }
}

/** Lines of `output` at `level` whose text matches `pattern`. */
export function logLines(output: string, level: string, pattern: RegExp): string[] {
  return output.split("\n").filter((line) => line.includes(` ${level}: `) && pattern.test(line));
}

/** Neither a crash nor a stack trace nor an unhandled rejection in the process's output. */
export function expectNoCrash(output: string): void {
  expect(output).not.toMatch(/fatal|unhandled|uncaught/i);
  expect(output).not.toMatch(/^\s+at .+[(:]\d+/m);
}
