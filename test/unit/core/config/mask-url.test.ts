import { describe, expect, it } from "vitest";
import { looksLikeUrl, MASK, maskUrl } from "../../../../core/config/mask-url.ts";
import { envRef } from "./helpers.ts";

describe("maskUrl", () => {
  it.each([
    [
      "a user name and password",
      "https://qmcuser:qmcpass@sense.example.com/qmc",
      `https://${MASK}@sense.example.com/qmc`,
    ],
    ["a user name alone", "http://someone@host:8080/", `http://${MASK}@host:8080/`],
    ["a password holding @", "http://u:p@ss@host/x", `http://${MASK}@host/x`],
    [
      "every query value",
      "https://sense.example.com/hub?ticket=hubticket123&x=",
      `https://sense.example.com/hub?ticket=${MASK}&x=`,
    ],
    ["a query without names", "https://h.example.com/p?abcdef", `https://h.example.com/p?${MASK}`],
    ["the fragment", "https://h.example.com/p#access_token=abc", `https://h.example.com/p#${MASK}`],
    [
      "token-like path segments",
      "http://127.0.0.1:18091/ping/8f14e45f-secret-check-id",
      `http://127.0.0.1:18091/ping/${MASK}`,
    ],
    [
      "a UUID and a mixed-case key",
      "https://hc-ping.com/eb095278-f28d-448d-87fb-7b75c171a6aa/aBcDeFgHkL",
      `https://hc-ping.com/${MASK}/${MASK}`,
    ],
    [
      "a long segment of letters",
      "https://up.example.com/push/abcdefghijklmnopqrstu",
      `https://up.example.com/push/${MASK}`,
    ],
    [
      "an account number in an SQS URL",
      "https://sqs.eu-west-1.amazonaws.com/123456789012/steward-events",
      `https://sqs.eu-west-1.amazonaws.com/${MASK}/steward-events`,
    ],
    [
      "credentials of another scheme",
      "mqtts://broker-user:pw@broker.example.com:8883",
      `mqtts://${MASK}@broker.example.com:8883`,
    ],
  ])("masks %s", (_name, url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });

  it.each([
    "https://insights-collector.eu01.nr-data.net/metric/v1",
    "http://influxdb.example.com:8086/api/v2/write",
    "https://sense.example.com/sense/app",
    "https://wiki.example.com/bi/runbooks/reload-failure",
    `https://hb.example.com/${envRef("CHECK_ID")}?key=${envRef("KEY")}`,
  ])("keeps %s as written: nothing in it is a credential", (url) => {
    expect(maskUrl(url)).toBe(url);
  });

  it("masks every path segment of a URL whose path is its secret, and keeps the origin", () => {
    expect(maskUrl("https://hbuser:hbpass@hb.example.com/ping/butler-prod?x=1", { secretPath: true })).toBe(
      `https://${MASK}@hb.example.com/${MASK}/${MASK}?x=${MASK}`,
    );
    expect(maskUrl("https://hb.example.com/", { secretPath: true })).toBe("https://hb.example.com/");
  });

  it("masks whole a text that is not one URL, and keeps an empty one empty", () => {
    expect(maskUrl("user:pass@host/path")).toBe(MASK);
    expect(maskUrl("see https://u:p@h.example.com")).toBe(MASK);
    expect(maskUrl("")).toBe("");
  });

  it("tells URLs from paths and other text", () => {
    expect(["https://h.example.com", "sqs://q", "mqtt://b:1883"].map(looksLikeUrl)).toEqual([
      true,
      true,
      true,
    ]);
    expect(["C://data/x", "C:/data/x", "/etc/steward", "host:8080", "a https://h"].map(looksLikeUrl)).toEqual(
      [false, false, false, false, false],
    );
  });
});
