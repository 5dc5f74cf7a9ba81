import { describe, expect, it } from "vitest";
import { createMetricAttributes } from "../../../../core/polling/metric-attributes.ts";
import { obsPlatform, TAGS } from "./polling-fixtures.ts";

const attributeConfig = (input: Record<string, unknown>) =>
  obsPlatform({ metric: { attribute: input } }).metric.attribute;

describe("createMetricAttributes", () => {
  it("is the tags, the static attributes and serviceVersion (enabled by default)", () => {
    const attributes = createMetricAttributes(
      attributeConfig({ static: [{ name: "env", value: "prod" }] }),
      "15.0.0",
    );

    expect(attributes(TAGS)).toEqual({ ...TAGS, env: "prod", serviceVersion: "15.0.0" });
  });

  it("never lets a static attribute replace a tag or serviceVersion", () => {
    const attributes = createMetricAttributes(
      attributeConfig({
        static: [
          { name: "server_name", value: "static" },
          { name: "serviceVersion", value: "0.0.0" },
        ],
      }),
      "15.0.0",
    );

    expect(attributes(TAGS)).toEqual({ ...TAGS, serviceVersion: "15.0.0" });
  });

  it("leaves serviceVersion out when disabled", () => {
    const attributes = createMetricAttributes(
      attributeConfig({ dynamic: { serviceVersion: { enable: false } } }),
      "15.0.0",
    );

    expect(attributes(TAGS)).toEqual(TAGS);
  });
});
