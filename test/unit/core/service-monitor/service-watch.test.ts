/**
 * The meaning of each reading of a watched service: the first is a baseline, a new state is a
 * change (stopped, started, changed), failed readings leave the last known state and are new only
 * at the start of an outage or when their cause changes, and a change during an outage is seen
 * once the host answers again.
 */
import { describe, expect, it } from "vitest";
import {
  SERVICE_STATES,
  type ServiceReading,
  type ServiceReadingFailure,
  type ServiceState,
} from "../../../../core/service-monitor/service-state-reader.ts";
import { createServiceWatch } from "../../../../core/service-monitor/service-watch.ts";

const HOST = "qs-node1";
const SERVICE = "QlikSenseProxyService";

function read(state: ServiceState): ServiceReading {
  return {
    ok: true,
    state,
    stateNum: SERVICE_STATES[state],
    displayName: "Qlik Sense Proxy Service",
    startType: "Automatic",
    exePath: "",
    dependencies: [],
  };
}

function fail(failure: ServiceReadingFailure): ServiceReading {
  return { ok: false, failure, code: undefined, reason: failure };
}

describe("a watched service's readings", () => {
  it("take the first reading as the baseline, stopped or not, and alert on nothing before a change", () => {
    const watch = createServiceWatch();
    expect(watch.observe(HOST, SERVICE, read("STOPPED"))).toEqual({ kind: "baseline", state: "STOPPED" });
    expect(watch.observe(HOST, SERVICE, read("STOPPED"))).toEqual({
      kind: "same",
      state: "STOPPED",
      recovered: false,
    });
    expect(watch.observe(HOST, "QlikSenseEngineService", read("RUNNING"))).toMatchObject({
      kind: "baseline",
    });
  });

  it("names a change by the new state: started, stopped, or changed for the others", () => {
    const watch = createServiceWatch();
    watch.observe(HOST, SERVICE, read("STOPPED"));
    expect(watch.observe(HOST, SERVICE, read("START_PENDING"))).toEqual({
      kind: "change",
      change: "changed",
      previous: "STOPPED",
      state: "START_PENDING",
      recovered: false,
    });
    expect(watch.observe(HOST, SERVICE, read("RUNNING"))).toMatchObject({
      change: "started",
      previous: "START_PENDING",
    });
    expect(watch.observe(HOST, SERVICE, read("STOPPED"))).toMatchObject({
      change: "stopped",
      previous: "RUNNING",
    });
  });

  it("keeps the last known state through failed readings, new only when an outage starts or its cause changes", () => {
    const watch = createServiceWatch();
    watch.observe(HOST, SERVICE, read("RUNNING"));
    const outcomes = [
      fail("unreachable"),
      fail("unreachable"),
      fail("timeout"),
      read("STOPPED"),
      fail("unreachable"),
      read("STOPPED"),
    ].map((reading) => watch.observe(HOST, SERVICE, reading));
    expect(outcomes).toEqual([
      { kind: "failed", failure: "unreachable", newFailure: true },
      { kind: "failed", failure: "unreachable", newFailure: false },
      { kind: "failed", failure: "timeout", newFailure: true },
      { kind: "change", change: "stopped", previous: "RUNNING", state: "STOPPED", recovered: true },
      { kind: "failed", failure: "unreachable", newFailure: true },
      { kind: "same", state: "STOPPED", recovered: true },
    ]);
  });

  it("makes the first successful reading after failures the baseline when none came before", () => {
    const watch = createServiceWatch();
    expect(watch.observe(HOST, SERVICE, fail("denied"))).toMatchObject({ kind: "failed", newFailure: true });
    expect(watch.observe(HOST, SERVICE, read("STOPPED"))).toEqual({ kind: "baseline", state: "STOPPED" });
    expect(watch.states()).toEqual([{ host: HOST, service: SERVICE, state: "STOPPED" }]);
  });

  it("keeps the same service on two hosts apart", () => {
    const watch = createServiceWatch();
    watch.observe("qs-node1", SERVICE, read("RUNNING"));
    watch.observe("qs-node2", SERVICE, read("STOPPED"));
    expect(watch.observe("qs-node1", SERVICE, read("RUNNING"))).toMatchObject({ kind: "same" });
    expect(watch.observe("qs-node2", SERVICE, read("RUNNING"))).toMatchObject({ change: "started" });
  });
});
