/**
 * The AppNameCache contract: every adapter passes this suite. The port only reads; how a cache
 * is filled is the adapter's business, so each factory brings its own `fill` (a whole set of
 * apps, replacing what was there, as the app-name poller does after a complete fetch).
 */
import { describe, expect, it } from "vitest";
import type { AppNameCache } from "../../core/ports.ts";

export interface FillableAppNameCache {
  cache: AppNameCache;
  fill(apps: readonly { id: string; name: string }[]): Promise<void>;
}

const SALES = "3fa85f64-5717-4562-b3fc-2c963f66afa6";
const FINANCE = "a421f4a2-c311-4ef4-ba41-fe2e6a2b0d69";

export function describeAppNameCacheContract(
  name: string,
  create: () => Promise<FillableAppNameCache>,
): void {
  describe(`AppNameCache contract: ${name}`, () => {
    it("knows no app before it is filled", async () => {
      const { cache } = await create();

      expect(cache.nameOf(SALES)).toBeUndefined();
    });

    it("answers the name of every app it was filled with", async () => {
      const { cache, fill } = await create();

      await fill([
        { id: SALES, name: "Sales" },
        { id: FINANCE, name: "Finance; Q3" },
      ]);

      expect([cache.nameOf(SALES), cache.nameOf(FINANCE)]).toEqual(["Sales", "Finance; Q3"]);
    });

    it("finds apps filled with upper-case ids by their lower-case id", async () => {
      const { cache, fill } = await create();

      await fill([{ id: SALES.toUpperCase(), name: "Sales" }]);

      expect(cache.nameOf(SALES)).toBe("Sales");
    });

    it("forgets apps that a later fill no longer lists", async () => {
      const { cache, fill } = await create();
      await fill([
        { id: SALES, name: "Sales" },
        { id: FINANCE, name: "Finance" },
      ]);

      await fill([{ id: FINANCE, name: "Finance (renamed)" }]);

      expect([cache.nameOf(SALES), cache.nameOf(FINANCE)]).toEqual([undefined, "Finance (renamed)"]);
    });
  });
}
