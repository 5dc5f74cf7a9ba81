/**
 * The `com.qlik.v1.reload.finished` event of a simulated reload in each form Qlik has sent it:
 * CloudEvents 1.0 (what webhooks carry since 2026-10-06), the legacy CloudEvents 0.1 envelope
 * (before), and the hybrid that carried both attribute sets (from 2025-11-03), plus the audits
 * API's item, which keeps the legacy names. `data` is the same in all of them, as Qlik's migration
 * promised; its durations are in seconds, as this event type gives them.
 */
import type { TenantFixture } from "./tenant-fixtures.ts";
import type { SimulatedReload } from "./tenant-state.ts";

export type EnvelopeForm = "cloudevents" | "legacy" | "hybrid";

export const ENVELOPE_FORMS: readonly EnvelopeForm[] = ["cloudevents", "hybrid", "legacy"];

export const RELOAD_FINISHED = "com.qlik.v1.reload.finished";

export function reloadEventData(reload: SimulatedReload): Record<string, unknown> {
  return {
    id: reload.id,
    appId: reload.appId,
    userId: reload.userId,
    tenantId: reload.tenantId,
    succeeded: reload.status === "SUCCEEDED",
    status: reload.status,
    type: reload.type,
    ...(reload.type === "chronos" ? { taskId: `${reload.appId.slice(0, 8)}e2d3f40a1b2c3d4e` } : {}),
    ...(reload.errorCode === undefined ? {} : { errorCode: reload.errorCode }),
    ...(reload.errorMessage === undefined ? {} : { errorMessage: reload.errorMessage }),
    creationTime: reload.creationTime,
    startTime: reload.startTime,
    durationSeconds: (Date.parse(reload.endTime) - Date.parse(reload.startTime)) / 1000,
    partial: reload.partial,
    weight: 1,
    enginePoolName: "default",
    requeueCounters: { requeuesTotal: 0, requeuesWithErrors: 0 },
  };
}

function appOf(fixture: TenantFixture, reload: SimulatedReload) {
  return fixture.apps.find((app) => app.id === reload.appId);
}

export function reloadEventBody(
  fixture: TenantFixture,
  reload: SimulatedReload,
  form: EnvelopeForm,
): Record<string, unknown> {
  const app = appOf(fixture, reload);
  const cloud = {
    id: reload.eventId,
    specversion: "1.0",
    type: RELOAD_FINISHED,
    source: "com.qlik/reloads",
    time: reload.endTime,
    datacontenttype: "application/json",
    tenantid: reload.tenantId,
    userid: reload.userId,
    ownerid: app?.ownerId ?? reload.userId,
    ...(app?.spaceId === undefined ? {} : { spaceid: app.spaceId }),
    toplevelresourceid: reload.appId,
    authtype: "service_account",
  };
  const legacy = {
    cloudEventsVersion: "0.1",
    source: "com.qlik/reloads",
    contentType: "application/json",
    eventId: reload.eventId,
    eventTime: reload.endTime,
    eventTypeVersion: "1.0.0",
    eventType: RELOAD_FINISHED,
    extensions: {
      tenantId: reload.tenantId,
      userId: reload.userId,
      ownerId: app?.ownerId ?? reload.userId,
      topLevelResourceId: reload.appId,
      ...(app?.spaceId === undefined ? {} : { spaceId: app.spaceId }),
    },
  };
  const data = reloadEventData(reload);
  if (form === "cloudevents") return { ...cloud, data };
  if (form === "legacy") return { ...legacy, data };
  return { ...legacy, ...cloud, data };
}

/** The reload's event as `/api/v1/audits` lists it. */
export function reloadAuditItem(
  fixture: TenantFixture,
  reload: SimulatedReload,
  baseUrl: string,
): Record<string, unknown> {
  const app = appOf(fixture, reload);
  const id = `a${reload.id.slice(1)}`;
  return {
    id,
    eventId: reload.eventId,
    eventType: RELOAD_FINISHED,
    eventTypeVersion: "1.0.0",
    eventTime: reload.endTime,
    source: "com.qlik/reloads",
    tenantId: reload.tenantId,
    userId: reload.userId,
    contentType: "application/json",
    extensions: {
      ownerId: app?.ownerId ?? reload.userId,
      ...(app?.spaceId === undefined ? {} : { spaceId: app.spaceId }),
      topLevelResourceId: reload.appId,
    },
    data: reloadEventData(reload),
    links: { self: { href: `${baseUrl}/api/v1/audits/${id}` } },
  };
}
