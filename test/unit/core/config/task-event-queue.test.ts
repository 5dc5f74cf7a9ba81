/**
 * The task-event queue's defaults: each run waits about half a second for its script log, so the
 * queue works on more runs at once and holds more than the user- and log-event queues, and a
 * burst of failures is neither dropped nor worked through ten at a time. A setting given in the
 * file still wins.
 */
import { describe, expect, it } from "vitest";
import { parseOk } from "./helpers.ts";

const on = { enable: true, udpServerConfig: { serverHost: "127.0.0.1" } };

describe("the task-event queue", () => {
  it("works on 20 runs at once and holds 1000, where the user- and log-event queues take 10 and hold 200", () => {
    const config = parseOk({ taskEvents: on, platform: { host: "sense.example.com" } });

    expect(config.taskEvents.udpServerConfig.messageQueue).toMatchObject({
      maxConcurrent: 20,
      maxSize: 1000,
    });
    expect(config.userEvents.udpServerConfig.messageQueue).toMatchObject({ maxConcurrent: 10, maxSize: 200 });
    expect(config.logEvents.udpServerConfig.messageQueue).toMatchObject({ maxConcurrent: 10, maxSize: 200 });
  });

  it("takes the file's own maxConcurrent and maxSize", () => {
    const config = parseOk({
      taskEvents: {
        ...on,
        udpServerConfig: { ...on.udpServerConfig, messageQueue: { maxConcurrent: 5, maxSize: 50 } },
      },
      platform: { host: "sense.example.com" },
    });

    expect(config.taskEvents.udpServerConfig.messageQueue).toMatchObject({ maxConcurrent: 5, maxSize: 50 });
  });
});
