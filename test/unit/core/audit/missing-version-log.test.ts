import { describe, expect, it } from "vitest";
import { createMissingVersionLog } from "../../../../core/audit/missing-version-log.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

const event = (ip: string) => ({ type: "audit.event", eventId: "e", ip, serverVersion: "15.0.0" });

describe("createMissingVersionLog", () => {
  it("logs DEBUG per event and WARN at most once per IP per minute with missingVersionCount", () => {
    const logger = recordingLogger();
    const clock = createManualClock();
    const log = createMissingVersionLog(logger, clock);

    log.record(event("10.0.0.1"));
    log.record(event("10.0.0.1"));
    clock.advance(61_000);
    log.record(event("10.0.0.1"));

    expect(logger.at("debug")).toHaveLength(3);
    expect(logger.at("warn").map((e) => e.fields?.missingVersionCount)).toEqual([1, 2]);
  });

  it("does not warn again within the same minute", () => {
    const logger = recordingLogger();
    const clock = createManualClock();
    const log = createMissingVersionLog(logger, clock);

    log.record(event("10.0.0.1"));
    clock.advance(59_999);
    log.record(event("10.0.0.1"));

    expect(logger.at("warn")).toHaveLength(1);
  });

  it("throttles each IP separately", () => {
    const logger = recordingLogger();
    const log = createMissingVersionLog(logger, createManualClock());

    log.record(event("10.0.0.1"));
    log.record(event("10.0.0.2"));

    expect(logger.at("warn").map((e) => e.fields?.ip)).toEqual(["10.0.0.1", "10.0.0.2"]);
  });

  it("restarts the count at 1 after 15 idle minutes", () => {
    const logger = recordingLogger();
    const clock = createManualClock();
    const log = createMissingVersionLog(logger, clock);

    log.record(event("10.0.0.1"));
    clock.advance(30_000);
    log.record(event("10.0.0.1"));
    clock.advance(16 * 60_000);
    log.record(event("10.0.0.1"));

    expect(logger.at("warn").map((e) => e.fields?.missingVersionCount)).toEqual([1, 1]);
  });
});
