/**
 * The soak's audit events: a mix shaped like an audit client's traffic (mostly selections and
 * model validations, some object views and sheet loads, one in ten a screenshot carrying
 * objectData of a small table, a few bookmarks and unsupported visualisations), every one valid.
 * Event number `seq` is written into its eventId, so what the destinations hold can be checked
 * against what was acknowledged without keeping the ids in memory during the run.
 */
import { randomBytes } from "node:crypto";

/** Per 100 events; screenshot.url.received is the type that carries objectData. */
const MIX: ReadonlyArray<readonly [type: string, count: number]> = [
  ["selection.state.changed", 34],
  ["app.model.validated", 20],
  ["object.view.duration", 14],
  ["navigation.sheet.loaded", 10],
  ["screenshot.url.received", 10],
  ["object.visibility.changed", 8],
  ["event.bookmark", 2],
  ["event.unsupported.visualization", 2],
];
const SLOTS = MIX.flatMap(([type, count]) => Array.from({ length: count }, () => type));
/** 37 and 100 are coprime: consecutive events walk through every slot, the types interleaved. */
const slotOf = (seq: number) => (seq * 37) % SLOTS.length;

export function eventTypeOf(seq: number): string {
  return SLOTS[slotOf(seq)] as string;
}

export function carriesObjectData(seq: number): boolean {
  return eventTypeOf(seq) === "screenshot.url.received";
}

const APPS = Array.from({ length: 12 }, (_, i) => ({
  appId: `3fa85f64-5717-4562-b3fc-${(0x2c963f66afa6 + i).toString(16).padStart(12, "0")}`,
  appName: `Sales analysis ${i + 1}`,
}));
const hex = (value: number, digits: number) => value.toString(16).padStart(digits, "0");

/** The run's events: ids `<run>-0000-4000-8000-<seq in hex>`; `seqOf` reads the number back. */
export interface SoakEvents {
  body(seq: number): string;
  /** The event number of an id of this run, or undefined for any other id. */
  seqOf(eventId: string): number | undefined;
}

export function soakEvents(): SoakEvents {
  const run = randomBytes(4).toString("hex");
  const prefix = `${run}-0000-4000-8000-`;
  const eventId = (seq: number) => `${prefix}${hex(seq, 12)}`;
  const txnId = (seq: number) => `${run}-1111-4000-8000-${hex(Math.floor(seq / 8), 12)}`;

  function payloadEvent(type: string, seq: number, now: number): Record<string, unknown> {
    const selectionTxnId = txnId(seq);
    switch (type) {
      case "selection.state.changed":
        return {
          selectionTxnId,
          details: Array.from({ length: 1 + (seq % 4) }, (_, i) => ({
            qField: `Dimension ${i}`,
            qSelectedCount: i + 1,
            qSelected: `Value ${seq % 50}`,
          })),
        };
      case "app.model.validated":
        return { selectionTxnId, dataStateId: seq % 100_000, captureScheduled: seq % 3 === 0 };
      case "object.view.duration":
        return {
          objectId: `obj-${seq % 40}`,
          duration: 1000 + (seq % 9000) + 0.5,
          enteredAt: new Date(now - 10_000).toISOString(),
          leftAt: new Date(now).toISOString(),
          visible: false,
          selectionTxnId,
        };
      case "screenshot.url.received":
        return {
          screenshotUrl: `https://qlik.example.com/screenshots/${seq}.png`,
          selectionTxnId,
          objectId: `obj-${seq % 40}`,
          objectData: {
            schemaVersion: 1,
            objectType: "table",
            extractedAt: new Date(now).toISOString(),
            visibleRange: { rowStart: 0, rowEnd: 20, colStart: 0, colEnd: 3, source: "hypercube" },
            dimensions: [
              { fieldName: "Region", label: "Region", values: Array.from({ length: 20 }, (_, i) => `R${i}`) },
              {
                fieldName: "Product",
                label: "Product",
                values: Array.from({ length: 20 }, (_, i) => `Product ${i}`),
              },
            ],
            measures: [{ label: "Sales", values: Array.from({ length: 20 }, (_, i) => 1000 + i * 17.5) }],
          },
        };
      case "object.visibility.changed":
        return { objectId: `obj-${seq % 40}`, visible: seq % 2 === 0 };
      case "event.bookmark":
        return { name: `Bookmark ${seq % 20}` };
      case "event.unsupported.visualization":
        return { vizType: "map", selectionTxnId, objectId: `obj-${seq % 40}`, title: "Stores" };
      default:
        return {};
    }
  }

  return {
    body(seq) {
      const now = Date.now();
      const type = eventTypeOf(seq);
      const app = APPS[seq % APPS.length] as (typeof APPS)[number];
      const event = payloadEvent(type, seq, now);
      const selectionTxnId = event.selectionTxnId as string | undefined;
      return JSON.stringify({
        schemaVersion: 1,
        eventId: eventId(seq),
        timestamp: new Date(now).toISOString(),
        type,
        correlationId: selectionTxnId ?? String(1_700_000_000_000 + Math.floor(seq / 8)),
        source: { kind: "qlik-sense-extension", name: "audit-qs", version: "0.3.2" },
        payload: {
          context: {
            ...app,
            sheetId: `sheet-${seq % 6}`,
            sheetName: `Sheet ${seq % 6}`,
            user: `UserDirectory=LAB; UserId=user${hex(seq % 200, 3)}`,
          },
          event,
        },
      });
    },
    seqOf(id) {
      if (!id.startsWith(prefix)) return undefined;
      const seq = Number.parseInt(id.slice(prefix.length), 16);
      return Number.isSafeInteger(seq) ? seq : undefined;
    },
  };
}
