import { Agent, get, request } from "node:http";
import { createServer, type Server } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
  createPromMetricsRegistry,
  type PromMetricsRegistry,
} from "../../../../core/adapters/prometheus/prom-metrics-registry.ts";
import {
  createScrapeApp,
  type MetricsExposition,
  startScrapeEndpoint,
} from "../../../../local/agent/scrape-endpoint.ts";
import type { HttpListener } from "../../../../local/http/http-listener.ts";
import { parsePrometheusText, sampleValue } from "../../../helpers/prometheus-text.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

function registryWithCounter(value = 3): PromMetricsRegistry {
  const registry = createPromMetricsRegistry();
  registry.counter({
    name: "steward_test_total",
    help: "Test counter",
    labelNames: ["queue"],
    collect: () => [{ labels: { queue: "log_events" }, value }],
  });
  return registry;
}

/** An exposition that counts how often it was collected. */
function countingExposition(inner: MetricsExposition): MetricsExposition & { collected(): number } {
  let collected = 0;
  return {
    contentType: inner.contentType,
    chunks: () => {
      collected += 1;
      return inner.chunks();
    },
    collected: () => collected,
  };
}

describe("createScrapeApp: what GET and HEAD /metrics answer", () => {
  it("answers GET /metrics with 200, the exposition's content type and every declared metric", async () => {
    // Prepare
    const registry = registryWithCounter(3);
    const app = createScrapeApp({ exposition: registry, logger: recordingLogger() });

    // Act
    const response = await app.request("/metrics");

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const metrics = parsePrometheusText(await response.text());
    expect(metrics.map((metric) => [metric.name, metric.type])).toEqual([["steward_test_total", "counter"]]);
    expect(sampleValue(metrics, "steward_test_total", { queue: "log_events" })).toBe(3);
  });

  it("serves prom-client's process metrics, memory in bytes", async () => {
    // Prepare
    const registry = createPromMetricsRegistry({ defaultMetrics: true });
    const app = createScrapeApp({ exposition: registry, logger: recordingLogger() });

    // Act
    const metrics = parsePrometheusText(await (await app.request("/metrics")).text());

    // Assess
    const names = metrics.map((metric) => metric.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "process_cpu_seconds_total",
        "process_start_time_seconds",
        "process_resident_memory_bytes",
        "nodejs_heap_size_used_bytes",
        "nodejs_eventloop_lag_seconds",
        "nodejs_gc_duration_seconds",
      ]),
    );
    // A Node process holds well over 1 MiB: a value in megabytes would be far below that.
    expect(sampleValue(metrics, "process_resident_memory_bytes")).toBeGreaterThan(2 ** 20);
    expect(sampleValue(metrics, "nodejs_heap_size_used_bytes")).toBeGreaterThan(2 ** 20);
    const resident = metrics.find((metric) => metric.name === "process_resident_memory_bytes");
    expect(resident?.help).toMatch(/bytes/);
  });

  it("answers gzip to a scraper that accepts it, as Prometheus asks, with the same text", async () => {
    // Prepare
    const app = createScrapeApp({ exposition: registryWithCounter(7), logger: recordingLogger() });

    // Act
    const plain = await app.request("/metrics");
    const gzipped = await app.request("/metrics", { headers: { "Accept-Encoding": "gzip" } });

    // Assess
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(gzipped.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(gzipped.headers.get("vary")).toBe("Accept-Encoding");
    const text = gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString("utf8");
    expect(text).toBe(await plain.text());
    expect(sampleValue(parsePrometheusText(text), "steward_test_total", { queue: "log_events" })).toBe(7);
  });

  it.each([
    ["no Accept-Encoding", undefined],
    ["identity", "identity"],
    ["gzip refused", "gzip;q=0, identity"],
    ["another coding", "br"],
  ])("answers the text uncompressed with %s", async (_, acceptEncoding) => {
    // Prepare
    const app = createScrapeApp({ exposition: registryWithCounter(7), logger: recordingLogger() });

    // Act
    const response = await app.request(
      "/metrics",
      acceptEncoding === undefined ? {} : { headers: { "Accept-Encoding": acceptEncoding } },
    );

    // Assess
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(
      sampleValue(parsePrometheusText(await response.text()), "steward_test_total", { queue: "log_events" }),
    ).toBe(7);
  });

  it("answers HEAD /metrics with 200 and the content type, without a body", async () => {
    // Prepare
    const app = createScrapeApp({ exposition: registryWithCounter(), logger: recordingLogger() });

    // Act
    const response = await app.request("/metrics", { method: "HEAD" });

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(await response.text()).toBe("");
  });
});

describe("createScrapeApp: other paths, methods and failing collects", () => {
  it.each(["/", "/metrics/", "/metricsx", "/v4/ping", "/Metrics"])("answers %s with 404", async (path) => {
    // Prepare
    const exposition = countingExposition(registryWithCounter());
    const app = createScrapeApp({ exposition, logger: recordingLogger() });

    // Act
    const response = await app.request(path);

    // Assess
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("not found\n");
    expect(exposition.collected()).toBe(0);
  });

  it.each(["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])(
    "answers %s /metrics with 405 and Allow: GET, HEAD, reading no body and collecting nothing",
    async (method) => {
      // Prepare
      const exposition = countingExposition(registryWithCounter());
      const app = createScrapeApp({ exposition, logger: recordingLogger() });
      let bodyPulled = false;
      // No high-water mark: the stream is pulled only when someone reads it.
      const body = new ReadableStream(
        {
          pull() {
            bodyPulled = true;
            throw new Error("the body must not be read");
          },
        },
        { highWaterMark: 0 },
      );

      // Act
      const response = await app.request("/metrics", { method, body, duplex: "half" } as RequestInit);

      // Assess
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD");
      expect(await response.text()).toBe("method not allowed\n");
      expect(bodyPulled).toBe(false);
      expect(exposition.collected()).toBe(0);
    },
  );

  it("answers 500 with a short text body when a collect throws, and logs the reason", async () => {
    // Prepare
    const registry = registryWithCounter();
    registry.gauge({
      name: "steward_broken",
      help: "Broken",
      labelNames: [],
      collect: () => {
        throw new Error("queue state unavailable");
      },
    });
    const logger = recordingLogger();
    const app = createScrapeApp({ exposition: registry, logger });

    // Act
    const response = await app.request("/metrics");

    // Assess
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const body = await response.text();
    expect(body).toBe("metrics collection failed\n");
    expect(logger.at("error")).toEqual([
      expect.objectContaining({
        message: "collecting metrics for a scrape failed",
        fields: { error: "queue state unavailable" },
      }),
    ]);
  });
});

/** The listeners and port blockers a test starts, stopped after it. */
function stoppedAfterEach(): { listeners: HttpListener[]; blockers: Server[] } {
  const listeners: HttpListener[] = [];
  const blockers: Server[] = [];
  afterEach(async () => {
    await Promise.all(listeners.splice(0).map((listener) => listener.stop()));
    await Promise.all(
      blockers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
    );
  });
  return { listeners, blockers };
}

describe("startScrapeEndpoint: listening", () => {
  const { listeners, blockers } = stoppedAfterEach();

  it("serves /metrics on host:port and stops accepting connections once stopped", async () => {
    // Prepare
    const logger = recordingLogger();
    const listener = await startScrapeEndpoint({
      config: { host: "127.0.0.1", port: 0 },
      exposition: registryWithCounter(5),
      logger,
    });
    listeners.push(listener);

    // Act
    const response = await fetch(`${listener.url}/metrics`);
    const metrics = parsePrometheusText(await response.text());
    await listener.stop();
    const afterStop = await fetch(`${listener.url}/metrics`).then(
      () => "answered",
      () => "refused",
    );

    // Assess
    expect(response.status).toBe(200);
    expect(sampleValue(metrics, "steward_test_total", { queue: "log_events" })).toBe(5);
    expect(afterStop).toBe("refused");
    expect(logger.at("info").map((entry) => entry.message)).toEqual([
      "Scrape endpoint listening",
      "Scrape endpoint stopped",
    ]);
  });

  it("rejects the start with the reason when the port cannot be bound", async () => {
    // Prepare
    const blocker = createServer();
    blockers.push(blocker);
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;

    // Act
    const start = startScrapeEndpoint({
      config: { host: "127.0.0.1", port },
      exposition: registryWithCounter(),
      logger: recordingLogger(),
    });

    // Assess
    await expect(start).rejects.toThrow(`Scrape endpoint: cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
  });
});

describe("startScrapeEndpoint: what goes over the socket", () => {
  const { listeners } = stoppedAfterEach();

  it("sends the exposition over the socket as the registry keeps it, with its length", async () => {
    // Prepare: a gauge kept between its changes, between metrics rendered at every scrape.
    const registry = createPromMetricsRegistry({ defaultMetrics: true });
    registry.counter({
      name: "steward_test_before_total",
      help: "Before",
      labelNames: [],
      collect: () => [{ labels: {}, value: 1 }],
    });
    let servers = ["a"];
    const changed: (() => void)[] = [];
    registry.gauge({
      name: "steward_test_kept",
      help: "Kept",
      labelNames: ["server"],
      collect: () => servers.map((server) => ({ labels: { server }, value: 2 })),
      onChange: (listener) => changed.push(listener),
    });
    registry.gauge({
      name: "steward_test_after",
      help: "After",
      labelNames: [],
      collect: () => [{ labels: {}, value: 3 }],
    });
    const listener = await startScrapeEndpoint({
      config: { host: "127.0.0.1", port: 0 },
      exposition: registry,
      logger: recordingLogger(),
    });
    listeners.push(listener);
    const getRaw = () =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        get(`${listener.url}/metrics`, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
          response.on("error", reject);
        }).on("error", reject);
      });

    // Act
    const first = await getRaw();
    servers = Array.from({ length: 2000 }, (_, i) => `server-${i}`);
    for (const listen of changed) listen();
    const second = await getRaw();

    // Assess
    for (const { headers, body } of [first, second]) {
      expect(headers["content-encoding"]).toBeUndefined();
      expect(Number(headers["content-length"])).toBe(body.length);
    }
    const metrics = parsePrometheusText(second.body.toString("utf8"));
    expect(metrics.find((metric) => metric.name === "steward_test_kept")?.samples).toHaveLength(2000);
    expect(sampleValue(metrics, "steward_test_before_total")).toBe(1);
    expect(sampleValue(metrics, "steward_test_after")).toBe(3);
    expect(sampleValue(metrics, "process_resident_memory_bytes")).toBeGreaterThan(2 ** 20);
    expect(
      sampleValue(parsePrometheusText(first.body.toString("utf8")), "steward_test_kept", { server: "a" }),
    ).toBe(2);
  });

  it("sends the gzipped exposition over the socket to a scraper that asks for gzip", async () => {
    // Prepare
    const listener = await startScrapeEndpoint({
      config: { host: "127.0.0.1", port: 0 },
      exposition: registryWithCounter(9),
      logger: recordingLogger(),
    });
    listeners.push(listener);

    // Act
    const { headers, body } = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>(
      (resolve, reject) => {
        get(`${listener.url}/metrics`, { headers: { "Accept-Encoding": "gzip" } }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
          response.on("error", reject);
        }).on("error", reject);
      },
    );

    // Assess
    expect(headers["content-encoding"]).toBe("gzip");
    expect(Number(headers["content-length"])).toBe(body.length);
    const metrics = parsePrometheusText(gunzipSync(body).toString("utf8"));
    expect(sampleValue(metrics, "steward_test_total", { queue: "log_events" })).toBe(9);
  });

  it("answers HEAD over the socket with the headers only, and the connection serves the next GET", async () => {
    // Prepare: one keep-alive connection, so a body sent after HEAD would corrupt the next answer.
    const listener = await startScrapeEndpoint({
      config: { host: "127.0.0.1", port: 0 },
      exposition: registryWithCounter(4),
      logger: recordingLogger(),
    });
    listeners.push(listener);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        request(`${listener.url}/metrics`, { method, agent }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks),
            }),
          );
          response.on("error", reject);
        })
          .on("error", reject)
          .end();
      });

    // Act
    const head = await send("HEAD");
    const next = await send("GET");
    agent.destroy();

    // Assess
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers["content-length"])).toBe(next.body.length);
    expect(next.status).toBe(200);
    const metrics = parsePrometheusText(next.body.toString("utf8"));
    expect(sampleValue(metrics, "steward_test_total", { queue: "log_events" })).toBe(4);
  });
});
