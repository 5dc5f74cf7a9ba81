/**
 * The records of a watched service under Butler's names: the line InfluxDB receives for
 * `win_service_state`, and the broker messages' topics and payloads.
 */
import { describe, expect, it } from "vitest";
import {
  type SuccessfulReading,
  serviceChangeMessage,
  serviceStatePoint,
  serviceStatusMessage,
} from "../../../../core/service-monitor/service-records.ts";
import { encodePoint } from "../../../../core/shared/line-protocol.ts";

const WATCHED = { host: "qs-node1", service: "QlikSenseProxyService", friendlyName: "Proxy" };

const STOPPED: SuccessfulReading = {
  ok: true,
  state: "STOPPED",
  stateNum: 1,
  displayName: "Qlik Sense Proxy Service",
  startType: "Automatic (delayed start)",
  exePath: '"C:\\Program Files\\Qlik\\Sense\\Proxy\\Proxy.exe"',
  dependencies: ["QlikSenseServiceDispatcher"],
};

describe("the win_service_state point", () => {
  it("takes Butler's tag over a static tag of the same name", () => {
    const point = serviceStatePoint(WATCHED, STOPPED, [{ name: "host", value: "other" }]);
    expect(point.tags.host).toBe("qs-node1");
  });

  it("carries Butler's tags with the static ones, and its fields, numbers as floats", () => {
    const point = serviceStatePoint(WATCHED, STOPPED, [{ name: "qs_env", value: "prod" }]);
    expect(encodePoint(point)).toBe(
      'win_service_state,display_name=Qlik\\ Sense\\ Proxy\\ Service,friendly_name=Proxy,host=qs-node1,qs_env=prod,service_name=QlikSenseProxyService state_num=1,state_text="STOPPED",startup_mode_num=1,startup_mode_text="Automatic (delayed start)"',
    );
  });

  it("gives -1 for a start type Butler had no number for", () => {
    const point = serviceStatePoint(WATCHED, { ...STOPPED, startType: "" }, []);
    expect(point.fields.startup_mode_num).toEqual({ kind: "float", value: -1 });
  });
});

describe("the broker messages", () => {
  it("publish the change with the previous state under <topic>/<host>/<service>", () => {
    const message = serviceChangeMessage("qliksense/service_stopped", WATCHED, STOPPED, "RUNNING");
    expect(message.topic).toBe("qliksense/service_stopped/qs-node1/QlikSenseProxyService");
    expect(JSON.parse(message.payload)).toEqual({
      serviceHost: "qs-node1",
      serviceName: "QlikSenseProxyService",
      serviceDisplayName: "Qlik Sense Proxy Service",
      serviceFriendlyName: "Proxy",
      serviceDependencies: ["QlikSenseServiceDispatcher"],
      serviceStartType: "Automatic (delayed start)",
      serviceExePath: '"C:\\Program Files\\Qlik\\Sense\\Proxy\\Proxy.exe"',
      serviceStatus: "STOPPED",
      servicePrevStatus: "RUNNING",
      serviceStatusChanged: true,
    });
  });

  it("publish the state alone on the status topic", () => {
    const message = serviceStatusMessage("qliksense/service_status", WATCHED, STOPPED);
    expect(message.topic).toBe("qliksense/service_status/qs-node1/QlikSenseProxyService");
    expect(JSON.parse(message.payload)).not.toHaveProperty("servicePrevStatus");
    expect(JSON.parse(message.payload)).toMatchObject({
      serviceStatus: "STOPPED",
      serviceFriendlyName: "Proxy",
    });
  });
});
