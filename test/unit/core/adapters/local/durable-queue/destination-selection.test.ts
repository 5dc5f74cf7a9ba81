import { describe, expect, it } from "vitest";
import {
  planSelection,
  type SelectionInput,
} from "../../../../../../core/adapters/local/durable-queue/destination-selection.ts";

/** A log holding positions 1000 to 5000, its manifest naming parquet and json with both cursors on disk. */
function input(overrides: Partial<SelectionInput> = {}): SelectionInput {
  return {
    selected: ["parquet", "json"],
    manifest: ["parquet", "json"],
    cursorFiles: new Map([
      ["parquet", 3000],
      ["json", 5000],
    ]),
    start: 1000,
    end: 5000,
    ...overrides,
  };
}

describe("which destinations read the durable log, and from where", () => {
  it("resumes each destination the log was written for at its cursor, and changes nothing on disk", () => {
    const plan = planSelection(input());

    expect(plan.cursors).toEqual(
      new Map([
        ["parquet", 3000],
        ["json", 5000],
      ]),
    );
    expect(plan).toMatchObject({
      fresh: [],
      unpersisted: [],
      lost: [],
      dropped: [],
      staleCursorFiles: [],
      manifestChanged: false,
    });
  });

  it("starts a destination selected for the first time at the end, and writes its cursor", () => {
    const plan = planSelection(input({ selected: ["parquet", "json", "tablefile"] }));

    expect(plan.cursors.get("tablefile")).toBe(5000);
    expect(plan.fresh).toEqual(["tablefile"]);
    expect(plan.unpersisted).toEqual(["tablefile"]);
    expect(plan.manifestChanged).toBe(true);
  });

  it("drops a destination no longer selected, with the bytes it leaves unwritten, and its cursor file", () => {
    const plan = planSelection(input({ selected: ["json"] }));

    expect([...plan.cursors.keys()]).toEqual(["json"]);
    expect(plan.dropped).toEqual([{ destination: "parquet", unwrittenBytes: 2000 }]);
    expect(plan.staleCursorFiles).toEqual(["parquet"]);
    expect(plan.manifestChanged).toBe(true);
  });

  it("reads the log again from its oldest record for a known destination whose cursor file is missing or unreadable", () => {
    const missing = planSelection(input({ cursorFiles: new Map([["json", 5000]]) }));
    const unreadable = planSelection(
      input({
        cursorFiles: new Map([
          ["parquet", undefined],
          ["json", 5000],
        ]),
      }),
    );

    for (const plan of [missing, unreadable]) {
      expect(plan.cursors.get("parquet")).toBe(1000);
      expect(plan.lost).toEqual([{ destination: "parquet", replayBytes: 4000 }]);
      expect(plan.unpersisted).toEqual(["parquet"]);
      expect(plan.fresh).toEqual([]);
    }
  });

  it("does not report a lost cursor when there is nothing to read again", () => {
    const plan = planSelection(input({ cursorFiles: new Map(), start: 5000 }));

    expect(plan.lost).toEqual([]);
    expect(plan.unpersisted).toEqual(["parquet", "json"]);
  });

  it("treats a destination with a stale cursor file, not in the manifest, as new", () => {
    // A crash after the manifest dropped it, before its file was deleted.
    const plan = planSelection(
      input({
        selected: ["parquet", "json"],
        manifest: ["json"],
        cursorFiles: new Map([
          ["parquet", 1200],
          ["json", 5000],
        ]),
      }),
    );

    expect(plan.cursors.get("parquet")).toBe(5000);
    expect(plan.fresh).toEqual(["parquet"]);
    expect(plan.dropped).toEqual([]);
  });

  it("without a manifest, takes the destinations with a cursor file as known and the others as new", () => {
    // A log of the version before manifests.
    const plan = planSelection(
      input({
        selected: ["parquet", "json", "tablefile"],
        manifest: undefined,
        cursorFiles: new Map([["parquet", 3000]]),
      }),
    );

    expect(plan.cursors).toEqual(
      new Map([
        ["parquet", 3000],
        ["json", 5000],
        ["tablefile", 5000],
      ]),
    );
    expect(plan.fresh).toEqual(["json", "tablefile"]);
    expect(plan.manifestChanged).toBe(true);
  });

  it("without a manifest or any cursor file, gives every selected destination the whole log", () => {
    // The version before manifests wrote a cursor only once a destination had written something.
    const plan = planSelection(input({ manifest: undefined, cursorFiles: new Map() }));

    expect(plan.cursors).toEqual(
      new Map([
        ["parquet", 1000],
        ["json", 1000],
      ]),
    );
    expect(plan.fresh).toEqual([]);
    expect(plan.lost.map((lost) => lost.destination)).toEqual(["parquet", "json"]);
  });

  it("with no destination selected, drops every known one", () => {
    const plan = planSelection(input({ selected: [] }));

    expect(plan.cursors.size).toBe(0);
    expect(plan.dropped.map((dropped) => dropped.destination)).toEqual(["parquet", "json"]);
    expect(plan.staleCursorFiles).toEqual(["parquet", "json"]);
  });
});
