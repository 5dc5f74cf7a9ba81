/**
 * What every CloudRunInbox must do, whichever store keeps the runs (the local process's key-value
 * store, a DynamoDB table shared by the cloud functions' instances): a run is new once, a run
 * that comes again (by the other input, or the same delivery twice) is a duplicate and one a poll
 * reads again is "seen"; deliveries of one run arriving together make one new run; a run taken
 * and not handed on is pending with its content, and once handed on it is remembered without it;
 * a run is claimed by its key while pending, and not once handed on or when unknown.
 */
import { describe, expect, it } from "vitest";
import type { CloudReloadRun, CloudRunInbox } from "../../core/qlik-cloud/index.ts";
import { cloudRun } from "../helpers/cloud-reload-run.ts";

const asPoll = (run: CloudReloadRun): CloudReloadRun => ({ ...run, source: "poll", input: "reloads" });

export function describeCloudRunInboxContract(name: string, make: () => Promise<CloudRunInbox>): void {
  describe(`CloudRunInbox contract: ${name}`, () => {
    it("takes a run as new once; again by webhook it is a duplicate, by the other input too, and a poll reading it again finds it seen", async () => {
      const inbox = await make();
      const run = cloudRun("reload-1");
      expect(await inbox.take(run)).toBe("new");
      expect(await inbox.take(run)).toBe("duplicate");
      expect(await inbox.take(asPoll(run))).toBe("duplicate");
      expect(await inbox.take(asPoll(run))).toBe("seen");
    });

    it("makes one new run of deliveries of it arriving together", async () => {
      const inbox = await make();
      const run = cloudRun("reload-2");
      const outcomes = await Promise.all(Array.from({ length: 5 }, () => inbox.take(run)));
      expect(outcomes.filter((outcome) => outcome === "new")).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === "duplicate")).toHaveLength(4);
    });

    it("lists a run taken and not handed on as pending, with its content, and remembers it handed on without", async () => {
      const inbox = await make();
      const run = cloudRun("reload-3");
      const other = cloudRun("reload-3", { tenant: "sim-b" });
      await inbox.take(run);
      await inbox.take(other);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await inbox.pending("sim-a")).toEqual([run]);
      await inbox.handed(run);
      expect(await inbox.pending("sim-a")).toEqual([]);
      expect(await inbox.pending("sim-b")).toEqual([other]);
      expect(await inbox.take(run)).toBe("duplicate");
    });

    it("gives a pending run by its key when claimed, and nothing once it was handed on or for an unknown one", async () => {
      const inbox = await make();
      const run = cloudRun("reload-4");
      await inbox.take(run);

      expect(await inbox.claim("sim-a", "reload-4")).toEqual(run);
      expect(await inbox.claim("sim-a", "reload-4")).toEqual(run);
      await inbox.handed(run);
      expect(await inbox.claim("sim-a", "reload-4")).toBeUndefined();
      expect(await inbox.claim("sim-a", "no-such-reload")).toBeUndefined();
      expect(await inbox.claim("sim-b", "reload-4")).toBeUndefined();
      expect(await inbox.take(run)).toBe("duplicate");
    });
  });
}
