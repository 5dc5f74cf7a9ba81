/**
 * The log-event pipeline's processor: decode → marker → parse → count → engine performance filter →
 * user normalisation → categorisation (a `drop` rule discards the event) → items → destinations. A
 * datagram of a source switched off, or an engine API performance event while the monitor is off,
 * is counted under its source and goes nowhere. Everything that depends only on the configuration
 * is built once here, so the per-datagram path is a decode, a split, one record, a few map lookups
 * and the items that are switched on.
 */
import {
  type LogEventsConfig,
  type MqttConfig,
  type ObsPlatformConfig,
  pipelineDestinations,
  type TimeseriesdbConfig,
} from "../config/index.ts";
import type { AppNameCache, Clock, Logger } from "../ports.ts";
import { SERVICE_VERSION } from "../version.ts";
import { applyLayout, splitFields } from "./apply-layout.ts";
import { categoryNames, createCategoriser } from "./categorise.ts";
import { createDatagramDecoder, markerOf } from "./datagram-text.ts";
import { createPerformanceFilter } from "./engine-performance-filter.ts";
import { type EventCounts, UNKNOWN } from "./event-counts.ts";
import type { DatagramProcessor, EventDestinations } from "./event-destinations.ts";
import { type Layout, wireIndexOf } from "./field-layouts.ts";
import { LOG_SOURCES, type LogEvent, type LogSource } from "./log-event.ts";
import { createLogEventMessageMapper } from "./log-event-messages.ts";
import { createLogEventObservabilityMapper } from "./log-event-observability.ts";
import { createLogEventPointMapper } from "./log-event-point.ts";
import type { RejectedEventCounts } from "./rejected-event-counts.ts";
import { sanitiseField } from "./sanitise-field.ts";
import { createSenderWarnings } from "./sender-warnings.ts";
import { isoTimestampMs } from "./udp-timestamps.ts";
import { normaliseUser } from "./user-full.ts";
import { type DestinationItems, writeToDestinations } from "./write-to-destinations.ts";

export interface LogEventProcessorDeps {
  readonly logEvents: LogEventsConfig;
  readonly timeseriesdbConfig: Pick<TimeseriesdbConfig, "enable" | "version">;
  readonly mqttConfig: Pick<MqttConfig, "enable">;
  readonly obsPlatform: Pick<ObsPlatformConfig, "enable" | "event">;
  readonly appNames: AppNameCache;
  /** Shared with the user-event processor (one `steward_events_total`). */
  readonly eventCounts: EventCounts;
  readonly rejectedEventCounts: RejectedEventCounts;
  readonly destinations: EventDestinations;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The `serviceVersion` attribute; package.json's version unless a test says otherwise. */
  readonly serviceVersion?: string;
}

interface SourceRoute {
  readonly layout: Layout<LogSource>;
  /** False: counted, not written (source switched off, or the monitor off for performance events). */
  readonly handled: boolean;
  readonly host: FieldRef;
  readonly subsystem: FieldRef;
}

/** Where a field sits in the datagram and how long it may be: enough to count without parsing. */
interface FieldRef {
  readonly index: number;
  readonly max: number;
}

function fieldRef(layout: Layout, name: string): FieldRef {
  const index = wireIndexOf(layout, name);
  return { index, max: layout.fields[index - 1]?.max ?? 0 };
}

const UNKNOWN_SENDER = "unknown";
const QIX_PERF = "qseow-qix-perf";

export function createLogEventProcessor(deps: LogEventProcessorDeps): DatagramProcessor {
  const { logEvents, eventCounts, rejectedEventCounts, destinations } = deps;
  const monitor = logEvents.enginePerformanceMonitor;
  const decode = createDatagramDecoder();
  const routes = new Map<string, SourceRoute>(
    LOG_SOURCES.map(({ key, layout }) => [
      layout.marker,
      {
        layout,
        handled: logEvents.source[key].enable && (layout.source !== QIX_PERF || monitor.enable),
        host: fieldRef(layout, "host"),
        subsystem: fieldRef(layout, "subsystem"),
      },
    ]),
  );
  const isMonitored = createPerformanceFilter(monitor.monitorFilter);
  const lookUpAppNames = monitor.appNameLookup.enable;
  const categorise = createCategoriser(logEvents.categorise);
  const writesTo = pipelineDestinations(deps, logEvents);
  const toPoint = writesTo.timeseriesdb
    ? createLogEventPointMapper({
        tags: logEvents.tags,
        categoryNames: categoryNames(logEvents.categorise),
        version: deps.timeseriesdbConfig.version,
      })
    : undefined;
  const toMessages = writesTo.mqtt ? createLogEventMessageMapper(logEvents) : undefined;
  const toObservability = writesTo.obsPlatform
    ? createLogEventObservabilityMapper({
        logEvents,
        obsPlatform: deps.obsPlatform,
        serviceVersion: deps.serviceVersion ?? SERVICE_VERSION,
      })
    : undefined;
  const warnings = createSenderWarnings(deps.logger.child("log-events"), deps.clock);

  return async function processLogDatagram(datagram, receivedAtMs, sender = UNKNOWN_SENDER) {
    const text = decode(datagram);
    const route = routes.get(markerOf(text));
    if (route === undefined) {
      eventCounts.record("log", UNKNOWN, UNKNOWN, UNKNOWN);
      warnings.warn(sender, "UDP log event ignored: unknown marker", text);
      return "unknown_marker";
    }
    const { layout } = route;
    const parts = splitFields(text, layout);
    if (parts === undefined) {
      warnings.warn(sender, "UDP log event ignored: its fields do not fit its layout", text, {
        source: layout.source,
        expectedFields: layout.fields.length + 1,
      });
      return "malformed";
    }
    if (!route.handled) {
      const { host, subsystem } = route;
      eventCounts.record(
        "log",
        layout.source,
        sanitiseField(parts[host.index] ?? "", host.max),
        sanitiseField(parts[subsystem.index] ?? "", subsystem.max),
      );
      return "processed";
    }

    const event = applyLayout(layout, parts) as unknown as LogEvent;
    eventCounts.record("log", event.source, event.host, event.subsystem);
    if (event.source === QIX_PERF) {
      event.app_name =
        lookUpAppNames && event.app_id !== "" ? (deps.appNames.nameOf(event.app_id) ?? "") : "";
      event.event_activity_source = event.proxy_session_id === "0" ? "non-user" : "user";
      if (!isMonitored(event)) {
        rejectedEventCounts.record(event);
        return "processed";
      }
    }
    event.user_full = normaliseUser(event, event.source === "qseow-scheduler" ? event.user_full : "");
    const category = categorise(event.level, "message" in event ? event.message : "");
    if (category === "drop") return "dropped_by_rule";
    event.category = category;

    const items: DestinationItems = { points: [], messages: [], events: [] };
    const timestampMs = isoTimestampMs(event.ts_iso) ?? receivedAtMs;
    if (toPoint !== undefined || toMessages !== undefined) {
      const rawEvent = JSON.stringify(event);
      if (toPoint !== undefined) items.points.push(toPoint(event, rawEvent, timestampMs));
      if (toMessages !== undefined) items.messages = toMessages(event, rawEvent);
    }
    if (toObservability !== undefined) {
      const observabilityEvent = toObservability(event, timestampMs);
      if (observabilityEvent !== undefined) items.events.push(observabilityEvent);
    }
    await writeToDestinations(destinations, items);
    return "processed";
  };
}
