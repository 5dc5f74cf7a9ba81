/**
 * The user-event pipeline's processor: decode → marker → parse → count → exclusion → enrichment →
 * items → destinations. Everything that depends only on the configuration (layouts, exclusion set,
 * the mappers for each destination, scrambler) is built once here; a datagram costs a decode, a
 * split, one record and the items that are switched on. Bad input never throws: it ends as
 * `malformed` or `unknown_marker` with a throttled WARN per sender.
 */
import {
  type MqttConfig,
  type ObsPlatformConfig,
  pipelineDestinations,
  type TimeseriesdbConfig,
  type UserEventsConfig,
} from "../config/index.ts";
import type { AppNameCache, Clock, Logger } from "../ports.ts";
import { applyLayout, splitFields } from "./apply-layout.ts";
import { createDatagramDecoder, markerOf } from "./datagram-text.ts";
import { type EventCounts, UNKNOWN } from "./event-counts.ts";
import type { DatagramProcessor, EventDestinations } from "./event-destinations.ts";
import { USER_CONNECTION_LAYOUT, USER_SESSION_LAYOUT, type UserLayout } from "./field-layouts.ts";
import { createScrambler } from "./scramble.ts";
import { createSenderWarnings } from "./sender-warnings.ts";
import { createUserAgentParser } from "./user-agent.ts";
import { createUserEventEnricher } from "./user-event.ts";
import { createUserEventMessageMapper } from "./user-event-messages.ts";
import { createUserEventObservabilityMapper } from "./user-event-observability.ts";
import { createUserEventPointMapper } from "./user-event-point.ts";
import { type DestinationItems, writeToDestinations } from "./write-to-destinations.ts";

export interface UserEventProcessorDeps {
  readonly userEvents: UserEventsConfig;
  readonly timeseriesdbConfig: Pick<TimeseriesdbConfig, "enable" | "version">;
  readonly mqttConfig: Pick<MqttConfig, "enable">;
  readonly obsPlatform: Pick<ObsPlatformConfig, "enable">;
  readonly appNames: AppNameCache;
  /** Shared with the log-event processor (one `steward_events_total`). */
  readonly eventCounts: EventCounts;
  readonly destinations: EventDestinations;
  /** Key of the hash that scrambles user identities; required when scrambling is switched on. */
  readonly scrambleKey?: Uint8Array;
  readonly logger: Logger;
  readonly clock: Clock;
}

/** Sender name used when the caller does not give one. */
const UNKNOWN_SENDER = "unknown";

export function createUserEventProcessor(deps: UserEventProcessorDeps): DatagramProcessor {
  const { userEvents, eventCounts, destinations } = deps;
  const decode = createDatagramDecoder();
  const layouts = new Map<string, UserLayout>([
    [USER_SESSION_LAYOUT.marker, USER_SESSION_LAYOUT],
    [USER_CONNECTION_LAYOUT.marker, USER_CONNECTION_LAYOUT],
  ]);
  // Sanitised fields hold no control characters, so U+0001 cannot occur inside a key part.
  const excluded = new Set(userEvents.excludeUser.map((user) => `${user.directory}\u0001${user.userId}`));
  const enrich = createUserEventEnricher(deps.appNames, createUserAgentParser());
  const writesTo = pipelineDestinations(deps, userEvents);
  const toPoint = writesTo.timeseriesdb
    ? createUserEventPointMapper(userEvents.tags, deps.timeseriesdbConfig.version)
    : undefined;
  const toMessages = writesTo.mqtt ? createUserEventMessageMapper(userEvents) : undefined;
  const toObservability = writesTo.obsPlatform
    ? createUserEventObservabilityMapper({
        tags: userEvents.tags,
        scramble: userEvents.sendToObsPlatform.scramble ? createScrambler(deps.scrambleKey) : undefined,
      })
    : undefined;
  const warnings = createSenderWarnings(deps.logger.child("user-events"), deps.clock);

  return async function processUserDatagram(datagram, receivedAtMs, sender = UNKNOWN_SENDER) {
    const text = decode(datagram);
    const layout = layouts.get(markerOf(text));
    if (layout === undefined) {
      eventCounts.record("user", UNKNOWN, UNKNOWN, UNKNOWN);
      warnings.warn(sender, "UDP user event ignored: unknown marker", text);
      return "unknown_marker";
    }
    const parts = splitFields(text, layout);
    if (parts === undefined) {
      warnings.warn(sender, "UDP user event ignored: fewer fields than its layout", text, {
        source: layout.source,
        expectedFields: layout.fields.length + 1,
      });
      return "malformed";
    }
    const record = applyLayout(layout, parts);
    // Counted before exclusion, as Butler SOS counts; the origin stands for the subsystem.
    eventCounts.record("user", record.source, record.host, record.origin);
    if (excluded.size > 0 && excluded.has(`${record.user_directory}\u0001${record.user_id}`))
      return "processed";

    const event = enrich(record);
    const items: DestinationItems = { points: [], messages: [], events: [] };
    if (toPoint !== undefined) items.points.push(toPoint(event, receivedAtMs));
    if (toMessages !== undefined) items.messages = toMessages(event);
    if (toObservability !== undefined) items.events.push(toObservability(event, receivedAtMs));
    await writeToDestinations(destinations, items);
    return "processed";
  };
}
