import { describe, expect, it } from "vitest";
import { sessionTags } from "../../../../core/polling/server-tags.ts";
import { createSessionObsMetricMapper } from "../../../../core/polling/session-obs-metrics.ts";
import { obsPlatform, TAGS } from "./polling-fixtures.ts";

const AT = Date.UTC(2026, 2, 1, 8);
const TAGS_S = sessionTags(TAGS, "/", "sense1.example.com:4243");

describe("createSessionObsMetricMapper", () => {
  it("sends qs_proxySessions = the count, with session tags, static attributes and serviceVersion", () => {
    const metric = obsPlatform({
      metric: { attribute: { static: [{ name: "env", value: "prod" }] } },
    }).metric;
    const toBatch = createSessionObsMetricMapper({ metric, serviceVersion: "15.0.0", intervalMs: 60_000 });

    expect(toBatch(4, TAGS_S, AT)).toEqual({
      timestamp: AT,
      intervalMs: 60_000,
      attributes: {
        ...TAGS,
        user_session_virtual_proxy: "/",
        user_session_host: "sense1.example.com:4243",
        env: "prod",
        serviceVersion: "15.0.0",
      },
      metrics: [{ name: "qs_proxySessions", value: 4 }],
    });
  });

  it("gives no batch when proxy.sessions is off", () => {
    const metric = obsPlatform({ metric: { dynamic: { proxy: { sessions: { enable: false } } } } }).metric;
    const toBatch = createSessionObsMetricMapper({ metric, serviceVersion: "15.0.0", intervalMs: 60_000 });

    expect(toBatch(4, TAGS_S, AT)).toBeUndefined();
  });

  it("leaves serviceVersion out when its flag is off", () => {
    const metric = obsPlatform({
      metric: { attribute: { dynamic: { serviceVersion: { enable: false } } } },
    }).metric;
    const toBatch = createSessionObsMetricMapper({ metric, serviceVersion: "15.0.0", intervalMs: 60_000 });

    expect(toBatch(0, TAGS_S, AT)?.attributes).not.toHaveProperty("serviceVersion");
  });
});
