/**
 * One reader for every way a finished reload arrives: the CloudEvents 1.0, legacy and hybrid
 * envelopes of a webhook, an audits API item and a reloads API item all become the same run;
 * values of the wrong type or shape read as absent or refuse the event, and a reload still
 * running is no run.
 */
import { describe, expect, it } from "vitest";
import { readCloudEvent } from "../../../../core/qlik-cloud/cloud-event-envelope.ts";
import { type RunContext, readReloadRun } from "../../../../core/qlik-cloud/reload-run-reading.ts";
import {
  ENVELOPE_FORMS,
  reloadAuditItem,
  reloadEventBody,
} from "../../../../local/simulated-cloud/reload-event-bodies.ts";
import { tenantFixtures } from "../../../../local/simulated-cloud/tenant-fixtures.ts";
import { createTenantState, finishReload } from "../../../../local/simulated-cloud/tenant-state.ts";

const NOW = Date.parse("2026-12-05T08:20:00Z");
const [fixture] = tenantFixtures(1) as [ReturnType<typeof tenantFixtures>[number]];

function failedReload() {
  return finishReload(
    createTenantState(fixture, () => NOW),
    { status: "FAILED", endMs: Date.parse("2026-12-05T08:15:42Z") },
  );
}

const webhook: Omit<RunContext, "receivedAtMs"> = { tenant: "sim-a", source: "webhook", input: "webhook" };

/** What the webhook receiver and the audits poll do with a body: envelope, then data. */
function runOf(body: unknown, context: Omit<RunContext, "receivedAtMs"> = webhook) {
  const event = readCloudEvent(body);
  if (!event.ok) return event;
  const { envelope } = event;
  return readReloadRun(envelope.data, {
    ...context,
    receivedAtMs: NOW,
    eventId: envelope.id,
    eventTime: envelope.time,
    tenantId: envelope.tenantId,
    userId: envelope.userId,
    ownerId: envelope.ownerId,
    spaceId: envelope.spaceId,
    topLevelResourceId: envelope.topLevelResourceId,
  });
}

describe("a finished reload from each input", () => {
  it("reads the same run from the CloudEvents, hybrid and legacy envelopes", () => {
    const reload = failedReload();
    const app = fixture.apps[0];
    const runs = ENVELOPE_FORMS.map((form) => runOf(reloadEventBody(fixture, reload, form)));
    expect(
      ENVELOPE_FORMS.map((form) => readCloudEvent(reloadEventBody(fixture, reload, form))),
    ).toMatchObject([
      { ok: true, envelope: { format: "cloudevents" } },
      { ok: true, envelope: { format: "hybrid" } },
      { ok: true, envelope: { format: "legacy" } },
    ]);
    for (const run of runs) {
      expect(run).toEqual({
        ok: true,
        run: {
          tenant: "sim-a",
          reloadId: reload.id,
          appId: reload.appId,
          kind: "reloadTaskFailure",
          status: "FAILED",
          finishedAt: "2026-12-05T08:15:42.000Z",
          source: "webhook",
          input: "webhook",
          receivedAt: "2026-12-05T08:20:00.000Z",
          tenantId: fixture.tenantId,
          trigger: "chronos",
          taskId: expect.any(String),
          userId: reload.userId,
          ownerId: app?.ownerId,
          spaceId: app?.spaceId,
          errorCode: "EngineReloadError",
          errorMessage: "Field 'Amount' not found",
          partial: false,
          creationTime: "2026-12-05T08:14:37.000Z",
          startTime: "2026-12-05T08:14:42.000Z",
          durationSeconds: 60,
          eventId: reload.eventId,
        },
      });
    }
  });

  it("reads an audits API item, whose own id is not the event's", () => {
    const reload = failedReload();
    const run = runOf(reloadAuditItem(fixture, reload, "https://acme.eu.qlikcloud.com"), {
      tenant: "sim-a",
      source: "poll",
      input: "audits",
    });
    expect(run).toMatchObject({
      ok: true,
      run: { reloadId: reload.id, eventId: reload.eventId, input: "audits", source: "poll" },
    });
  });

  it("reads a reloads API item, with its end time and the duration between start and end", () => {
    const item = {
      id: "5be59decca62aa00097268a4",
      appId: "116dbfae-7fb9-4983-8e23-5ccd8c508722",
      tenantId: "efSCcpNYuayTysONkUcE3F80zYQ_LV9w",
      userId: "FyPG6xWp6prDU6BXQ3g7LY9gWR_YRkkx",
      type: "chronos",
      status: "CANCELED",
      partial: false,
      creationTime: "2020-11-03T17:00:00.164Z",
      startTime: "2020-11-03T17:00:06.351Z",
      endTime: "2020-11-03T17:00:11.865Z",
      log: "ReloadID: 5be59decca62aa00097268a4\n",
    };
    const reading = readReloadRun(item, {
      tenant: "sim-b",
      source: "poll",
      input: "reloads",
      receivedAtMs: NOW,
    });
    expect(reading).toMatchObject({
      ok: true,
      run: {
        kind: "reloadTaskAborted",
        status: "CANCELED",
        finishedAt: item.endTime,
        endTime: item.endTime,
        durationSeconds: 5.514,
      },
    });
  });
});

describe("the values of a finished reload", () => {
  it("makes failures of FAILED and EXCEEDED_LIMIT, a success of SUCCEEDED, and takes succeeded without a status", () => {
    const kinds = ["FAILED", "EXCEEDED_LIMIT", "SUCCEEDED", "canceled"].map((status) => {
      const reading = readReloadRun({ id: "r1", appId: "a1", status }, { ...webhook, receivedAtMs: NOW });
      return reading.ok ? reading.run.kind : reading;
    });
    expect(kinds).toEqual([
      "reloadTaskFailure",
      "reloadTaskFailure",
      "reloadTaskSuccess",
      "reloadTaskAborted",
    ]);
    const bySucceeded = readReloadRun(
      { id: "r1", appId: "a1", succeeded: true },
      { ...webhook, receivedAtMs: NOW },
    );
    expect(bySucceeded).toMatchObject({ ok: true, run: { kind: "reloadTaskSuccess", status: "SUCCEEDED" } });
  });

  it("is no run yet while the reload is queued or running", () => {
    expect(
      readReloadRun({ id: "r1", appId: "a1", status: "RELOADING" }, { ...webhook, receivedAtMs: NOW }),
    ).toEqual({
      ok: false,
      unfinished: true,
      status: "RELOADING",
    });
  });

  it("refuses a body that is no event, or an event without a usable reload or app id", () => {
    expect(readCloudEvent("text")).toEqual({ ok: false, problem: "the body is not a JSON object" });
    expect(readCloudEvent({ data: {} })).toEqual({
      ok: false,
      problem: "the body names no event type (type or eventType)",
    });
    const problems = [
      {},
      { id: "../../etc", appId: "a1", status: "FAILED" },
      { id: "r1", appId: { nested: true }, status: "FAILED" },
      { id: "r1", appId: "a1" },
    ].map((data) => readReloadRun(data, { ...webhook, receivedAtMs: NOW }));
    expect(problems).toEqual([
      { ok: false, problem: "data.id is not a reload id" },
      { ok: false, problem: "data.id is not a reload id" },
      { ok: false, problem: "data.appId is not an app id" },
      { ok: false, problem: "data has neither a status nor succeeded" },
    ]);
  });

  it("takes the app's id from the envelope when data has none, and reads odd values as absent", () => {
    const reading = readReloadRun(
      {
        id: "r1",
        status: "FAILED",
        errorMessage: "x".repeat(10_000),
        startTime: "yesterday",
        durationSeconds: -1,
        partial: "no",
      },
      {
        ...webhook,
        receivedAtMs: NOW,
        topLevelResourceId: "app-from-envelope",
        eventTime: "2026-12-05T08:15:42Z",
      },
    );
    expect(reading).toMatchObject({
      ok: true,
      run: { appId: "app-from-envelope", finishedAt: "2026-12-05T08:15:42.000Z" },
    });
    if (!reading.ok) return;
    expect(reading.run.errorMessage).toHaveLength(4096);
    expect(reading.run).not.toHaveProperty("startTime");
    expect(reading.run).not.toHaveProperty("durationSeconds");
    expect(reading.run).not.toHaveProperty("partial");
  });
});
