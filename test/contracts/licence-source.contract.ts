/**
 * The LicenseSource contract (core/licences/license-source.ts): every implementation runs this
 * one suite (see licence-source.test.ts) against the simulated platform over mutual TLS. The
 * licence monitor's reads answer the platform's bodies as they are (the readers in core/licences/
 * interpret them), the version from the version endpoint; the access licences last used before a
 * cutoff come as a list; and a platform that cannot be reached rejects every call, so that a run
 * never takes "nothing" for an answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LicenseSource } from "../../core/licences/license-source.ts";
import { readServerLicence } from "../../core/licences/server-licence.ts";
import { SIM_SYSTEM_INFO } from "../../local/simulated-platform/license-simulation.ts";
import { startTestPlatform, type TestPlatform } from "../fixtures/platform/test-platform.ts";

/** Opens the implementation on the platform that `platform` simulates. */
export type LicenceSourceFactory = (platform: TestPlatform) => Promise<LicenseSource>;

export function describeLicenceSourceContract(name: string, open: LicenceSourceFactory): void {
  describe(`LicenseSource contract: ${name}`, () => {
    let platform: TestPlatform;
    let source: LicenseSource;
    beforeAll(async () => {
      platform = await startTestPlatform();
      source = await open(platform);
    });
    afterAll(async () => {
      source?.close();
      await platform?.stop();
    });

    it("answers the server licence as the platform holds it, readable by the licence reader", async () => {
      const body = await source.serverLicence();
      expect(body).toBeTypeOf("object");
      expect(() => readServerLicence(body, Date.now())).not.toThrow();
    });

    it("answers the access licence overview and the version endpoint's body", async () => {
      expect(await source.accessTypeOverview()).toBeTypeOf("object");
      expect(await source.systemInfo()).toEqual(SIM_SYSTEM_INFO);
    });

    it("lists the access licences of a type last used before a cutoff", async () => {
      const entries = await source.accessLicences("professional", new Date().toISOString());
      expect(Array.isArray(entries)).toBe(true);
    });

    it("rejects every read while the platform cannot be reached", async () => {
      await platform.stop();
      await expect(source.serverLicence()).rejects.toThrow();
      await expect(source.accessTypeOverview()).rejects.toThrow();
    });
  });
}
