/**
 * Outbound messaging routes: broker publish, observability event and metric
 * (202 `{observabilityResultCode, observabilityResultText}`), chat message. Upstream failure →
 * 502, feature off → 503.
 */

import * as v from "valibot";
import type { BrokerClient, ChatClient, ObservabilityClient } from "../../../core/ports.ts";
import { jsonResponse } from "../respond.ts";
import { defineRoute, type RouteSpec } from "../route.ts";

/** The observability platform's limits: names ≤ 255 characters, string values ≤ 4096. */
const Attribute = v.object({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  value: v.pipe(v.string(), v.maxLength(4096)),
});
const Attributes = v.optional(v.pipe(v.array(Attribute), v.maxLength(100)), []);
const EpochMs = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)));

const PublishBody = v.object({ topic: v.pipe(v.string(), v.minLength(1)), message: v.string() });
const EventBody = v.object({
  eventType: v.pipe(
    v.string(),
    v.regex(/^[A-Za-z0-9_:]{1,254}$/, "eventType: 1-254 letters, digits, '_' or ':'"),
  ),
  timestamp: EpochMs,
  attributes: Attributes,
});
const MetricBody = v.object({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(254)),
  type: v.picklist(["gauge"]),
  value: v.pipe(v.number(), v.finite()),
  timestamp: EpochMs,
  interval: EpochMs,
  attributes: Attributes,
});
const ChatBody = v.object({
  channel: v.pipe(v.string(), v.minLength(1)),
  from_user: v.pipe(v.string(), v.minLength(1)),
  msg: v.pipe(v.string(), v.minLength(1), v.maxLength(40_000)),
  emoji: v.optional(v.string()),
});
const ObservabilityResult = v.object({
  observabilityResultCode: v.string(),
  observabilityResultText: v.string(),
});

const upstream = {
  502: { description: "The upstream refused or did not answer" },
  503: { description: "The feature this endpoint needs is switched off" },
};

/** Copies only the members present, so an optional member stays absent (exactOptionalPropertyTypes). */
function defined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as never;
}

export function brokerRoutes(broker: BrokerClient): RouteSpec[] {
  return [
    defineRoute({
      method: "PUT",
      path: "/v4/mqttpublishmessage",
      endpoint: "mqttPublishMessage",
      tag: "Messaging",
      summary: "Publishes a message to an MQTT topic (QoS 1, acknowledged by the broker)",
      body: PublishBody,
      responses: {
        201: { description: "Published", schema: PublishBody },
        400: { description: "Bad topic" },
        ...upstream,
      },
      handler: async ({ body }, c) => {
        await broker.publish(body.topic, body.message);
        return jsonResponse(c, { topic: body.topic, message: body.message }, 201);
      },
    }),
  ];
}

export function observabilityRoutes(client: ObservabilityClient): RouteSpec[] {
  return [
    defineRoute({
      method: "POST",
      path: "/v4/observability/event",
      endpoint: "observabilityEvent",
      tag: "Observability",
      summary: "Posts an event to every configured destination account",
      body: EventBody,
      responses: { 202: { description: "Accepted upstream", schema: ObservabilityResult }, ...upstream },
      handler: async ({ body }, c) => jsonResponse(c, await client.postEvent(defined(body)), 202),
    }),
    defineRoute({
      method: "POST",
      path: "/v4/observability/metric",
      endpoint: "observabilityMetric",
      tag: "Observability",
      summary: "Posts a gauge metric to every configured destination account",
      body: MetricBody,
      responses: { 202: { description: "Accepted upstream", schema: ObservabilityResult }, ...upstream },
      handler: async ({ body }, c) => jsonResponse(c, await client.postMetric(defined(body)), 202),
    }),
  ];
}

export function chatRoutes(chat: ChatClient): RouteSpec[] {
  return [
    defineRoute({
      method: "PUT",
      path: "/v4/chatpostmessage",
      endpoint: "chatPostMessage",
      tag: "Messaging",
      summary: "Posts a message to the configured chat webhook",
      body: ChatBody,
      responses: { 201: { description: "Posted", schema: ChatBody }, ...upstream },
      handler: async ({ body }, c) => {
        const message = defined(body);
        await chat.postMessage(message);
        return jsonResponse(c, message, 201);
      },
    }),
  ];
}
