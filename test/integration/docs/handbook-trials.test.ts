/**
 * The handbook's trials, walked command by command as the pages write them (handbook-walk.ts):
 * the README's tour, the reload-alert trial, the licence trial and the UDP trial. Each runs real
 * processes (`npm start`, `npx steward …`, curl, node, `npx mqtt`, Debian's influxd and mosquitto)
 * in a scratch project directory of its own, on free ports, so the four run side by side. A
 * page's marked blocks are its walk: a changed command is walked as changed, and a marker for a
 * walk no test knows fails here. Every trial ends as the reader's does, with Ctrl-C, and each
 * Steward must then stop within 10 s.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { skipWithoutShellTools, Walk, walkedBlocks, walkNames } from "../../helpers/handbook-walk.ts";
import { skipWithoutInfluxd, startInfluxd } from "../../helpers/influxd.ts";
import { skipWithoutMosquitto, startMosquitto } from "../../helpers/mosquitto.ts";
import { WalkPorts } from "../../helpers/walk-ports.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const skip = skipWithoutShellTools();
const skipUdp = skip || skipWithoutInfluxd() || skipWithoutMosquitto();

/** Each walk, and the page it is on. */
const TRIALS = {
  readme: "README.md",
  "reload-alerts": "docs/reload-alerts.md",
  licences: "docs/licences.md",
  udp: "docs/platform-events-udp.md",
} as const;

/** Walks every marked block of the trial's page, in order. */
async function walkThrough(walk: Walk, trial: keyof typeof TRIALS): Promise<void> {
  const blocks = walkedBlocks(TRIALS[trial], trial);
  expect(blocks.length, `${TRIALS[trial]} marks no block for the walk "${trial}"`).toBeGreaterThan(0);
  for (const block of blocks) await walk.block(block);
}

/** Ctrl-C: every command exits within 10 s; Steward's own say they stopped, with no error. */
async function expectCtrlCStops(walk: Walk): Promise<void> {
  for (const stopped of await walk.stop()) {
    expect(stopped.exited, `${stopped.command} did not exit:\n${stopped.output}`).toBe(true);
    expect(stopped.ms, stopped.command).toBeLessThan(10_000);
    if (/steward|npm start/.test(stopped.command)) {
      expect(stopped.output, stopped.command).toMatch(/info: stopped\n/);
      const errors = stopped.output.split("\n").filter((line) => / error: /.test(line));
      expect(errors, `${stopped.command} logged errors:\n${stopped.output}`).toEqual([]);
    }
  }
}

describe("the handbook's walks", () => {
  it("are the four this file walks: a page's marker names one of them", () => {
    const pages = ["README.md", ...readdirSync(join(ROOT, "docs")).map((page) => `docs/${page}`)].filter(
      (page) => page.endsWith(".md"),
    );
    const marked = pages.flatMap((page) => walkNames(page).map((name) => `${name} in ${page}`));

    expect(marked.sort()).toEqual(
      Object.entries(TRIALS)
        .map(([name, page]) => `${name} in ${page}`)
        .sort(),
    );
  });
});

describe.skipIf(skip).concurrent("the handbook's trials, walked as written", () => {
  it("README: the five-minute tour", async ({ onTestFinished }) => {
    const walk = new Walk({ ports: await WalkPorts.free([8081, 8181, 3100]), onFinished: onTestFinished });

    await walkThrough(walk, "readme");

    await expectCtrlCStops(walk);
  }, 180_000);

  it("reload alerts: from the simulator to an alert the catcher shows, within two minutes", async ({
    onTestFinished,
  }) => {
    const walk = new Walk({
      ports: await WalkPorts.free([8081, 8181, 3100, 9842, 9998]),
      onFinished: onTestFinished,
    });

    await walkThrough(walk, "reload-alerts");
    const alertedAfterMs = walk.elapsedMs();

    // The time from the first command to the last line shown, the catcher's call.
    console.info(
      `reload-alert trial: the alert was shown ${(alertedAfterMs / 1000).toFixed(1)} s after the first command`,
    );
    expect(alertedAfterMs).toBeLessThan(120_000);
    await expectCtrlCStops(walk);
  }, 180_000);

  it("licences: the simulated server licence's expiry on the scrape endpoint", async ({ onTestFinished }) => {
    const walk = new Walk({
      ports: await WalkPorts.free([8081, 8181, 3100, 9842]),
      onFinished: onTestFinished,
    });

    await walkThrough(walk, "licences");

    expect(walk.output()).toMatch(
      /warn: \[licenses\] Qlik Sense server license is about to expire in 12 days/,
    );
    await expectCtrlCStops(walk);
  }, 180_000);

  it.skipIf(skipUdp)(
    "platform events over UDP: into InfluxDB and onto the broker",
    async ({ onTestFinished }) => {
      const [influxd, mosquitto] = await Promise.all([startInfluxd(), startMosquitto()]);
      onTestFinished(() => Promise.all([influxd.close(), mosquitto.stop()]).then(() => undefined));
      const subscribers = async () => ((await mosquitto.log()).match(/ as mqttjs_/g) ?? []).length;
      const before = await subscribers();
      const walk = new Walk({
        ports: await WalkPorts.free([8081, 8181, 3100, 9842, 9996, 9997], {
          8086: influxd.port,
          1883: mosquitto.port,
        }),
        onFinished: onTestFinished,
        async connected() {
          const deadline = Date.now() + 30_000;
          while ((await subscribers()) === before) {
            if (Date.now() > deadline)
              throw new Error(`npx mqtt sub never connected:\n${await mosquitto.log()}`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        },
      });

      await walkThrough(walk, "udp");

      await expectCtrlCStops(walk);
    },
    180_000,
  );
});
