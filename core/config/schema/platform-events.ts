/** platformEvents (counters shared by user and log events) and the shared UDP server settings. */
import * as v from "valibot";
import {
  bool,
  durationMs,
  host,
  hostSchema,
  int,
  list,
  nameValueList,
  nonEmptyStr,
  port,
  positiveInt,
  section,
} from "./primitives.ts";

export const platformEventsSchema = section({
  timeseriesdb: section({ enable: bool(false), writeFrequency: positiveInt(20000) }),
  eventCount: section({
    enable: bool(false),
    timeseriesdb: section({ measurementName: nonEmptyStr("event_count"), tags: nameValueList() }),
  }),
  rejectedEventCount: section({
    enable: bool(false),
    timeseriesdb: section({ measurementName: nonEmptyStr("rejected_event_count") }),
  }),
});

/** How many datagrams a listener processes at once and holds waiting, by default. */
export interface QueueDefaults {
  readonly maxConcurrent: number;
  readonly maxSize: number;
}

const EVENT_QUEUE: QueueDefaults = { maxConcurrent: 10, maxSize: 200 };

/** The members every UDP listener's `udpServerConfig` has, besides its port key. */
export const udpCommonEntries = (queueMeasurement: string, queue: QueueDefaults = EVENT_QUEUE) => ({
  serverHost: host("127.0.0.1"),
  messageQueue: section({
    maxConcurrent: positiveInt(queue.maxConcurrent),
    maxSize: positiveInt(queue.maxSize),
    backpressureThreshold: int(80, 1, 100),
  }),
  rateLimit: section({ enable: bool(false), maxMessagesPerMinute: positiveInt(600) }),
  maxMessageSize: int(65507, 1, 65507),
  // Asked of the kernel for the socket; Linux grants at most twice net.core.rmem_max. A burst the
  // buffer cannot hold is lost before Steward sees it, so the default holds ~20,000 datagrams.
  receiveBufferBytes: int(8 * 1024 * 1024, 65536, 1024 * 1024 * 1024),
  enableSourceValidation: bool(false),
  allowedSources: list(hostSchema),
  queueMetrics: section({
    timeseriesdb: section({
      enable: bool(false),
      writeFrequency: durationMs(20000),
      measurementName: nonEmptyStr(queueMeasurement),
      tags: nameValueList(),
    }),
  }),
});

export const userEventsUdpSchema = section({
  ...udpCommonEntries("user_events_queue"),
  portUserActivityEvents: port(9997),
});

export const logEventsUdpSchema = section({
  ...udpCommonEntries("log_events_queue"),
  portLogEvents: port(9996),
});

/** `{directory, userId}` pairs of users whose events/sessions are disregarded. */
export const excludeUserList = () =>
  list(
    v.object({
      directory: v.pipe(v.string(), v.minLength(1, "must not be empty")),
      userId: v.pipe(v.string(), v.minLength(1, "must not be empty")),
    }),
  );
