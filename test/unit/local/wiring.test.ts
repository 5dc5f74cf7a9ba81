import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../../core/config/index.ts";
import { systemClock } from "../../../core/system-clock.ts";
import { localServices } from "../../../local/wiring.ts";
import { recordingLogger } from "../../helpers/recording-logger.ts";

const names = (config: ReturnType<typeof defaultConfig>) =>
  localServices(config, recordingLogger(), { clock: systemClock, cwd: "/nonexistent" }).map(
    (service) => service.name,
  );

describe("localServices", () => {
  it("has no scrape endpoint while scrapeEndpoint.enable is off (the default)", () => {
    expect(names(defaultConfig())).not.toContain("scrape-endpoint");
  });

  it("starts the scrape endpoint last when scrapeEndpoint.enable is on, so that it stops first", () => {
    // Prepare
    const base = defaultConfig();
    const config = {
      ...base,
      scrapeEndpoint: { ...base.scrapeEndpoint, enable: true },
      userEvents: { ...base.userEvents, enable: true },
    };

    // Act
    const services = names(config);

    // Assess
    expect(services.at(-1)).toBe("scrape-endpoint");
    expect(services.filter((name) => name === "scrape-endpoint")).toHaveLength(1);
    expect(services).toContain("udp-events");
  });
});
