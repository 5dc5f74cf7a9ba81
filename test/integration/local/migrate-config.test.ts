/**
 * The real `steward` command, as a team moving from Butler SOS runs it:
 * `steward migrate-config butler-sos.yaml > steward.yaml`, then `steward check-config steward.yaml`;
 * and the same for a Butler file.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { butlerFixture } from "../../helpers/butler-config.ts";
import { butlerSosFixture, withEverySwitch } from "../../helpers/butler-sos-config.ts";
import { writeListenerCertificates } from "../../helpers/listener-certificates.ts";
import { runSteward } from "../../helpers/steward-process.ts";

const BIN = join(import.meta.dirname, "..", "..", "..", "bin", "steward.js");
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("steward migrate-config, then check-config", () => {
  it.each([
    ["on", true],
    ["off", false],
  ])(
    "turns a complete Butler SOS file with every section %s into one check-config accepts",
    async (_name, on) => {
      const dir = mkdtempSync(join(tmpdir(), "steward-migrate-cli-"));
      dirs.push(dir);
      mkdirSync(join(dir, "certs"));
      for (const file of ["client.pem", "client_key.pem", "root.pem"])
        writeFileSync(join(dir, "certs", file), "PEM");
      // The ingest API's certificate (auditEvents.tls, enabled with every switch on) is opened by
      // the check, so it must be a real one.
      mkdirSync(join(dir, "config", "certs"), { recursive: true });
      await writeListenerCertificates(join(dir, "config", "certs"), "audit-api");
      writeFileSync(join(dir, "butler-sos.yaml"), withEverySwitch(butlerSosFixture("complete.yaml"), on));

      const migrated = spawnSync(process.execPath, [BIN, "migrate-config", "butler-sos.yaml"], {
        cwd: dir,
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(migrated.stderr).toMatch(/^ {2}left out Butler-SOS\.prometheus\.nodeMetricsHost: /m);
      expect(migrated.status).toBe(0);
      writeFileSync(join(dir, "steward.yaml"), migrated.stdout);

      const checked = await runSteward(["check-config", "steward.yaml"], dir);
      expect(checked.output.trim()).toBe("ok");
      expect(checked.code).toBe(0);
    },
  );

  it("turns a whole site's Butler file into one check-config accepts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "steward-migrate-butler-"));
    dirs.push(dir);
    mkdirSync(join(dir, "certs"));
    for (const file of ["client.pem", "client_key.pem", "root.pem"])
      writeFileSync(join(dir, "certs", file), "PEM");
    writeFileSync(join(dir, "butler.yaml"), butlerFixture());

    const migrated = spawnSync(process.execPath, [BIN, "migrate-config", "butler.yaml"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(migrated.stderr).toMatch(/^ {2}left out Butler\.restServerConfig\.backgroundServerPort: /m);
    expect(migrated.status).toBe(0);
    writeFileSync(join(dir, "steward.yaml"), migrated.stdout);

    const checked = await runSteward(["check-config", "steward.yaml"], dir);
    expect(checked.output.trim()).toBe("ok");
    expect(checked.code).toBe(0);
  });
});
