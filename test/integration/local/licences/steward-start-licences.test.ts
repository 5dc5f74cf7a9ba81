/**
 * The licence monitor as a user first tries it: `steward simulate-platform` with a server licence
 * expiring in 10 days, and `steward start` with the configuration it writes (licence monitor on,
 * release in a dry run). Steward warns about the expiry, says which licences it would release
 * without releasing any, and publishes the `steward_license_*` gauges on its scrape endpoint.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { parsePrometheusText, sampleValue } from "../../../helpers/prometheus-text.ts";
import { onFreePorts, startSimulatorForTest } from "../../../helpers/simulator-for-test.ts";
import { spawnStewardForTest } from "../../../helpers/started-steward.ts";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "steward-licences-"));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("steward start with the simulated platform's licences", () => {
  it("warns of the expiry, reports a dry run without releasing, and publishes the licence gauges", async () => {
    // Prepare
    const { sim, config } = await startSimulatorForTest(
      ["--port", "0", "--generate-certs", "--license-expires-in-days", "10"],
      dir,
    );
    const { scrapePort } = await onFreePorts(config);
    writeFileSync(join(dir, "steward.yaml"), stringify(config));

    // Act
    const steward = spawnStewardForTest(["start", "--config", "steward.yaml"], { cwd: dir });
    await steward.waitFor(/steward ready/, 30_000);
    await steward.waitFor(/licence release dry run done/, 15_000);
    const text = await (await fetch(`http://127.0.0.1:${scrapePort}/metrics`)).text();
    const metrics = parsePrometheusText(text);

    // Assess
    const output = steward.output();
    expect(output).toMatch(/warn: \[licenses\] Qlik Sense server license is about to expire in 10 days/);
    expect(output).toMatch(/dry run: this access licence would be released.*LAB\\\\alice/);
    expect(output).not.toMatch(/access licence released/);
    expect(sampleValue(metrics, "steward_license_server_days_until_expiry")).toBe(10);
    expect(sampleValue(metrics, "steward_license_server_expired")).toBe(0);
    expect(sampleValue(metrics, "steward_license_access_total", { license_type: "professional" })).toBe(50);
    expect(
      sampleValue(metrics, "steward_license_releases_total", {
        license_type: "analyzer",
        outcome: "would_release",
      }),
    ).toBe(1);
    // One warning for the one run so far, not one per reading or per gauge scrape.
    expect(output.match(/about to expire/g)).toHaveLength(1);

    steward.child.kill("SIGTERM");
    sim.child.kill("SIGINT");
    expect((await steward.exited()).code).toBe(0);
    expect((await sim.exited()).code).toBe(0);
  }, 60_000);
});
