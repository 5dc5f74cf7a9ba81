import { describe, expect, it } from "vitest";
import type { AcceptedEvent } from "../../../../core/audit/accepted-event.ts";
import { createIngestEvent } from "../../../../core/audit/ingest-event.ts";
import { createMissingVersionLog } from "../../../../core/audit/missing-version-log.ts";
import { EventQueueError, EventQueueUnavailableError } from "../../../../core/audit/queue-errors.ts";
import type { EnqueueResult, EventQueue } from "../../../../core/ports.ts";
import { envelopeOfType, validEnvelope } from "../../../helpers/audit-envelopes.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

/** A queue that records events and answers what the test tells it to. */
function scriptedQueue(
  answer: () => Promise<EnqueueResult>,
): EventQueue & { events: AcceptedEvent[]; envelopeJson: Array<string | undefined> } {
  const events: AcceptedEvent[] = [];
  const envelopeJson: Array<string | undefined> = [];
  return {
    events,
    envelopeJson,
    async enqueue(event, json) {
      events.push(event);
      envelopeJson.push(json);
      return answer();
    },
  };
}

function setup(answer: () => Promise<EnqueueResult> = async () => "queued") {
  const logger = recordingLogger();
  const queue = scriptedQueue(answer);
  const ingest = createIngestEvent(
    {
      correlationIdMaxLength: 64,
      compatibility: [{ serverRange: ">=15.0.0 <16.0.0", clientRange: ">=0.3.0 <0.4.0" }],
      serverVersion: "15.0.0",
    },
    { queue, logger, missingVersionLog: createMissingVersionLog(logger, createManualClock()) },
  );
  const request = (body: unknown, clientVersion?: string, receivedAt = "2026-01-01T00:00:00.000Z") =>
    ingest({ body, clientVersion, clientIp: "10.0.0.1", receivedAt });
  return { logger, queue, request };
}

describe("ingestEvent: checks, their order and the client version", () => {
  it("queues a valid event with its receive time and client IP", async () => {
    const { queue, request } = setup();

    const outcome = await request(validEnvelope({ extra: "dropped" }), "0.3.0");

    expect(outcome).toEqual({ kind: "accepted" });
    expect(queue.events).toHaveLength(1);
    expect(queue.events[0]).toMatchObject({ receivedAt: "2026-01-01T00:00:00.000Z", clientIp: "10.0.0.1" });
    expect(queue.events[0]?.envelope).not.toHaveProperty("extra");
  });

  it("hands the queue the request's text as the envelope's JSON only when validation dropped nothing", async () => {
    const { queue } = setup();
    const ingest = (body: Record<string, unknown>) =>
      createIngestEvent(
        {
          correlationIdMaxLength: 64,
          compatibility: [{ serverRange: ">=15.0.0 <16.0.0", clientRange: ">=0.3.0 <0.4.0" }],
          serverVersion: "15.0.0",
        },
        {
          queue,
          logger: recordingLogger(),
          missingVersionLog: createMissingVersionLog(recordingLogger(), createManualClock()),
        },
      )({
        body,
        bodyText: JSON.stringify(body),
        clientVersion: "0.3.0",
        clientIp: "10.0.0.1",
        receivedAt: "2026-01-01T00:00:00.000Z",
      });

    await ingest(validEnvelope());
    await ingest(validEnvelope({ extra: "dropped" }));

    expect(queue.envelopeJson).toEqual([JSON.stringify(validEnvelope()), undefined]);
  });

  it("reports schema violations before anything else and queues nothing", async () => {
    const { queue, request } = setup();

    const outcome = await request({ eventId: "x" }, "0.1.0");

    expect(outcome.kind).toBe("invalid-schema");
    expect(queue.events).toEqual([]);
  });

  it("reports envelope constraints before an incompatible version", async () => {
    const { request } = setup();

    const outcome = await request(validEnvelope({ eventId: "x" }), "0.1.0");

    expect(outcome.kind).toBe("constraint-violation");
  });

  it("reports an incompatible version before payload violations", async () => {
    const { request, logger } = setup();

    const outcome = await request(
      envelopeOfType("selection.state.changed", { selectionTxnId: "bad" }),
      "0.2.0",
    );

    expect(outcome).toEqual({
      kind: "incompatible-version",
      serverVersion: "15.0.0",
      auditClientVersion: "0.2.0",
    });
    expect(logger.at("warn").some((e) => e.message.includes("incompatible"))).toBe(true);
  });

  it("reports payload violations when envelope and version pass", async () => {
    const { request } = setup();

    const outcome = await request(
      envelopeOfType("selection.state.changed", { selectionTxnId: "bad" }),
      "0.3.0",
    );

    expect(outcome).toMatchObject({
      kind: "constraint-violation",
      violations: [{ instancePath: "/payload/event/selectionTxnId" }],
    });
  });

  it("falls back to source.version when no header version was sent", async () => {
    const { request } = setup();

    const outcome = await request(validEnvelope({ source: { version: "0.2.0" } }), undefined);

    expect(outcome).toMatchObject({ kind: "incompatible-version", auditClientVersion: "0.2.0" });
  });

  it("prefers the header version over source.version", async () => {
    const { request } = setup();

    const outcome = await request(validEnvelope({ source: { version: "0.2.0" } }), "0.3.0");

    expect(outcome.kind).toBe("accepted");
  });

  it("accepts an event without any version and logs it as missing", async () => {
    const { request, logger } = setup();

    const outcome = await request(validEnvelope(), undefined);

    expect(outcome.kind).toBe("accepted");
    expect(logger.at("warn")[0]?.fields).toMatchObject({ missingVersionCount: 1 });
  });
});

describe("ingestEvent: the queue's answers and their log lines", () => {
  it.each([
    ["rate-limited", "queue-rate-limited"],
    ["full", "queue-full"],
  ] as const)("maps a %s queue answer to %s", async (answer, kind) => {
    const { request } = setup(async () => answer);

    expect((await request(validEnvelope(), "0.3.0")).kind).toBe(kind);
  });

  it("maps a too-large queue answer to event-too-large and leaves the WARN to the queue, which knows its limit", async () => {
    const { request, logger } = setup(async () => "too-large");

    const outcome = await request(validEnvelope(), "0.3.0");

    expect(outcome).toEqual({ kind: "event-too-large" });
    expect(logger.at("warn")).toEqual([]);
  });

  it("maps a retryable queue failure to queue-unavailable", async () => {
    const { request } = setup(async () => {
      throw new EventQueueUnavailableError("throttled");
    });

    expect((await request(validEnvelope(), "0.3.0")).kind).toBe("queue-unavailable");
  });

  it("logs an unavailable queue once at error with its cause, then at most once a minute with the count", async () => {
    const diskFull = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    const { request, logger } = setup(async () => {
      throw new EventQueueUnavailableError("the audit event log could not be written", { cause: diskFull });
    });
    const at = (receivedAt: string) => request(validEnvelope(), "0.3.0", receivedAt);

    for (const second of ["00", "10", "20", "59"]) await at(`2026-01-01T00:00:${second}.000Z`);
    await at("2026-01-01T00:01:01.000Z");

    const errors = logger.at("error");
    expect(errors).toHaveLength(2);
    expect(errors[0]?.fields).toMatchObject({ refused: 1, error: expect.stringContaining("ENOSPC") });
    expect(errors[1]?.fields).toMatchObject({ refused: 4 });
    expect(logger.at("warn")).toEqual([]);
  });

  it("logs a full or rate-limited queue at WARN once with the event, then at most once a minute per reason with the count", async () => {
    let answer: EnqueueResult = "full";
    const { request, logger } = setup(async () => answer);
    const at = (receivedAt: string) => request(validEnvelope(), "0.3.0", receivedAt);

    for (const second of ["00", "10", "20", "59"]) await at(`2026-01-01T00:00:${second}.000Z`);
    answer = "rate-limited";
    await at("2026-01-01T00:00:30.000Z");
    await at("2026-01-01T00:00:40.000Z");
    answer = "full";
    await at("2026-01-01T00:01:01.000Z");

    const warnings = logger.at("warn").map((entry) => [entry.message, entry.fields?.dropped]);
    expect(warnings).toEqual([
      ["Dropped audit event due to full queue", 1],
      ["Dropped audit event due to queue rate limit", 1],
      ["Dropped audit event due to full queue", 4],
    ]);
    expect(logger.at("warn")[0]?.fields).toMatchObject({ type: validEnvelope().type, ip: "10.0.0.1" });
  });

  it("maps any other queue failure to enqueue-failed and logs it at error", async () => {
    const { request, logger } = setup(async () => {
      throw new EventQueueError("denied");
    });

    expect((await request(validEnvelope(), "0.3.0")).kind).toBe("enqueue-failed");
    expect(logger.at("error")).toHaveLength(1);
  });

  it("logs nothing at info or above for an accepted event with a version", async () => {
    const { request, logger } = setup();

    await request(validEnvelope(), "0.3.0");

    expect(logger.entries.filter((e) => ["error", "warn", "info"].includes(e.level))).toEqual([]);
  });
});
