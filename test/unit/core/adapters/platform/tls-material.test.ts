import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadPlatformTlsMaterial } from "../../../../../core/adapters/platform/tls-material.ts";
import { PlatformCertificateError } from "../../../../../core/platform/errors.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "steward-tls-material-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const options = (ca = "") => ({
  clientCert: join(dir, "client.pem"),
  clientCertKey: join(dir, "client_key.pem"),
  clientCertCA: ca,
  clientCertPassphrase: "",
});

describe("loadPlatformTlsMaterial", () => {
  it("names the first unreadable file in the order of the settings, however the reads finish", async () => {
    for (let i = 0; i < 20; i++) {
      const failure = await loadPlatformTlsMaterial(options(join(dir, "root.pem"))).catch((error) => error);
      expect(failure).toBeInstanceOf(PlatformCertificateError);
      expect(failure.message).toBe(
        `Service.cert.clientCert: cannot read ${join(dir, "client.pem")} (ENOENT)`,
      );
    }
  });

  it("reads the files it can, with no CA when none is set", async () => {
    await writeFile(join(dir, "client.pem"), "cert");
    await writeFile(join(dir, "client_key.pem"), "key");

    const material = await loadPlatformTlsMaterial(options());

    expect(material.cert.toString()).toBe("cert");
    expect(material.key.toString()).toBe("key");
    expect(material.ca).toBeUndefined();
    expect(material.passphrase).toBeUndefined();
  });
});
