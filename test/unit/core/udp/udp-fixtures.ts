/**
 * Shared material of the UDP pipeline tests: example datagrams as Butler SOS receives them, config
 * slices parsed by the real section schemas (defaults applied), and recording fakes of the
 * ports the processors use.
 */
import * as v from "valibot";
import type {
  LogEventsConfig,
  ObsPlatformConfig,
  PlatformEventsConfig,
  UserEventsConfig,
} from "../../../../core/config/schema/config.ts";
import { logEventsSchema } from "../../../../core/config/schema/log-events.ts";
import { obsPlatformSchema } from "../../../../core/config/schema/obs-platform.ts";
import { platformEventsSchema } from "../../../../core/config/schema/platform-events.ts";
import { userEventsSchema } from "../../../../core/config/schema/user-events.ts";
import type {
  AppNameCache,
  MetricSpec,
  MetricsRegistry,
  ObservabilityEvent,
} from "../../../../core/ports.ts";
import type { BrokerMessage } from "../../../../core/shared/broker-message.ts";
import type { Point } from "../../../../core/shared/line-protocol.ts";
import type { EventDestinations } from "../../../../core/udp/event-destinations.ts";

export const UUID = "3b3b3b3b-3b3b-3b3b-3b3b-3b3b3b3b3b3b";
export const APP_ID = "a421f4a2-c311-4ef4-ba41-fe2e6a2b0d69";
export const SESSION_ID = "6f2c1a70-2c4e-4d0b-9a59-1d7e1f0c2b11";
export const PERF_APP_ID = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

/** A user connection event, `;` inside the user agent (from Butler SOS's test data script). */
export const USER_CONNECTION = `/qseow-proxy-connection/;pro2-win1;Close connection;userdir;user3;AppAccess;/app/${APP_ID}?reloaduri=https...;Some text UserAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:58.0) Gecko/20100101 Firefox/58.0'`;

/** A user session event (from Butler SOS's unit tests). */
export const USER_SESSION =
  "/qseow-proxy-session/;host2;Stop session;INTERNAL;testuser2;https://host2;/app/87654321-4321-4321-4321-cba987654321;UserAgent: Chrome/91.0";

/** An engine event (19 fields, compact ts_iso and local ts_local; from Butler SOS's unit tests). */
export const ENGINE = `/qseow-engine/;1;20211109T153726.028+0200;2021-11-09 15:37:26,028;WARN;host1;sub1;user1;message1;${UUID};dir1;uid1;ts1;${UUID};v1;ts2;type1;${UUID};${UUID}`;

/** A scheduler failure (18 fields, empty exception message), built from the appender pattern. */
export const SCHEDULER =
  "/qseow-scheduler/;14;20211109T193744.331+0100;2021-11-09 19:37:44,331;ERROR;qs-node1;System.Scheduler.Scheduler.Slave.Tasks.ReloadTask;COMPANY\\qlikservice;Message from ReloadProvider: Reload failed in Engine. Check engine or script logs.;;LAB;goran;LAB\\goran;Manually triggered reload of Test failing reloads 2;Test failing reloads 2;dec2a02a-1680-44ef-8dc2-e2bfb180af87;e7af59a0-c243-480d-9571-08727551a66f;4831c6a5-34f6-45bb-9d40-73a6e6992670";

/** An engine API performance event (26 fields, non-user activity), values illustrative. */
export const QIX_PERF = `/qseow-qix-perf/;1523;20250312T101512.123+0100;2025-03-12 10:15:12,123;INFO;qs-node1;QixPerformance.Engine.Engine;COMPANY\\qlikservice;0;INTERNAL;sa_scheduler;2025-03-12T10:15:12.123+01:00;${SESSION_ID};${PERF_APP_ID};42;Doc::GetAppLayout;12.5;11.2;0.1;0.3;0.9;1;<Unknown>;123456;234567;<Unknown>`;

/** A proxy log event (16 fields) built from the appender pattern. */
export const PROXY =
  "/qseow-proxy/;5;2021-11-09T15:37:26.028+02:00;2021-11-09 15:37:26,028;WARN;host1;Audit.Proxy.Proxy.SessionManagement;COMPANY\\svc;Session ended;Timeout;LAB;goran;Stop session;201;AppAccess;/hub";

/** A repository log event (16 fields). */
export const REPOSITORY =
  "/qseow-repository/;7;20211109T153726.028Z;2021-11-09 15:37:26,028;ERROR;host3;System.Repository.Repository.Core;COMPANY\\svc;Sync failed;Connection lost;;;Sync;500;Service;/qrs/sync";

/** A qix-perf datagram with its fields replaced by `overrides` (0-based wire positions). */
export function qixPerf(overrides: Readonly<Record<number, string>>): string {
  const parts = QIX_PERF.split(";");
  for (const [index, value] of Object.entries(overrides)) parts[Number(index)] = value;
  return parts.join(";");
}

export const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

export const logEventsConfig = (input: unknown = {}): LogEventsConfig => v.parse(logEventsSchema, input);
export const userEventsConfig = (input: unknown = {}): UserEventsConfig => v.parse(userEventsSchema, input);
export const platformEventsConfig = (input: unknown = {}): PlatformEventsConfig =>
  v.parse(platformEventsSchema, input);
export const obsPlatformConfig = (input: unknown = {}): ObsPlatformConfig =>
  v.parse(obsPlatformSchema, input);

export function appNames(names: Readonly<Record<string, string>> = {}): AppNameCache {
  return { nameOf: (appId) => names[appId] };
}

export interface RecordingDestinations extends EventDestinations {
  points: Point[];
  messages: BrokerMessage[];
  events: ObservabilityEvent[];
  /** Destination method names in call order, with the number of items each got. */
  calls: string[];
}

export function recordingDestinations(): RecordingDestinations {
  const destinations: RecordingDestinations = {
    points: [],
    messages: [],
    events: [],
    calls: [],
    async writePoints(points) {
      destinations.calls.push(`writePoints:${points.length}`);
      destinations.points.push(...points);
    },
    async writeMessages(messages) {
      destinations.calls.push(`writeMessages:${messages.length}`);
      destinations.messages.push(...messages);
    },
    async writeEvents(events) {
      destinations.calls.push(`writeEvents:${events.length}`);
      destinations.events.push(...events);
    },
  };
  return destinations;
}

/** A MetricsRegistry that keeps the declared specs so tests can collect them. */
export function recordingRegistry(): MetricsRegistry & { counters: MetricSpec<string>[] } {
  const counters: MetricSpec<string>[] = [];
  return {
    counters,
    counter: (spec) => counters.push(spec as MetricSpec<string>),
    gauge: () => {},
  };
}

/** A 32-byte scramble key for tests. */
export const SCRAMBLE_KEY = new Uint8Array(32).map((_, i) => i + 1);
