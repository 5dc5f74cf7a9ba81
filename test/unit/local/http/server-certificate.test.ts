import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkListenerCertificates,
  readServerCertificate,
} from "../../../../local/http/server-certificate.ts";
import {
  TEST_PASSPHRASE,
  tlsSettings,
  writeListenerCertificates,
} from "../../../helpers/listener-certificates.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";

const PATH = "Service.restServer.tls";
const DAY_MS = 24 * 60 * 60 * 1000;

const block = (settings: Parameters<typeof tlsSettings>[0]) => ({
  path: PATH,
  settings: tlsSettings(settings),
});

describe("readServerCertificate", () => {
  it("reads PEM files and a passphrase-protected PFX, naming the certificate served, TLS 1.2 at least", async () => {
    const dir = scratchDirectory("steward-cert-");
    const files = await writeListenerCertificates(dir);

    const pem = await readServerCertificate(block({ cert: files.certPath, key: files.keyPath }), dir);
    const pfx = await readServerCertificate(block({ pfx: "server.pfx", passphrase: TEST_PASSPHRASE }), dir);
    const encrypted = await readServerCertificate(
      block({ cert: files.certPath, key: files.encryptedKeyPath, passphrase: TEST_PASSPHRASE }),
      dir,
    );

    for (const reading of [pem, pfx, encrypted]) {
      expect(reading.ok).toBe(true);
      if (!reading.ok) continue;
      expect(reading.certificate.subject).toBe("CN=127.0.0.1");
      expect(reading.certificate.options.minVersion).toBe("TLSv1.2");
    }
    expect(pfx.ok && pfx.certificate.certificateSetting).toBe(`${PATH}.pfx`);
  });

  it("names the setting and the file of what cannot be served", async () => {
    const dir = scratchDirectory("steward-cert-");
    const files = await writeListenerCertificates(dir);
    const other = await writeListenerCertificates(dir, "other");
    writeFileSync(join(dir, "junk.pem"), "not a certificate\n");
    const cases: [Parameters<typeof tlsSettings>[0], string, RegExp][] = [
      [
        { cert: "missing.pem", key: files.keyPath },
        `${PATH}.cert`,
        /^cannot read file .*missing\.pem \(ENOENT\)$/,
      ],
      [
        { cert: files.certPath, key: other.keyPath },
        `${PATH}.key`,
        /^the key in .*other_key\.pem is not the key of the certificate in .*server\.pem$/,
      ],
      [
        { cert: "junk.pem", key: files.keyPath },
        `${PATH}.cert`,
        /junk\.pem holds no certificate in PEM form/,
      ],
      [
        { cert: files.certPath, key: files.encryptedKeyPath },
        `${PATH}.passphrase`,
        /^required: the key in .* is encrypted$/,
      ],
      [
        { cert: files.certPath, key: files.encryptedKeyPath, passphrase: "wrong" },
        `${PATH}.passphrase`,
        /^does not decrypt the key in /,
      ],
      [{ pfx: files.pfxPath, passphrase: "wrong" }, `${PATH}.passphrase`, /^does not open .*server\.pfx/],
      [{ pfx: files.certPath }, `${PATH}.pfx`, /server\.pem is not a PFX \(PKCS#12\) file/],
      [{ pfx: files.pfxPath, cert: files.certPath }, `${PATH}.pfx`, /set either pfx .* or cert and key/],
      [{ cert: files.certPath }, `${PATH}.key`, /^required when tls\.enable is true/],
    ];

    for (const [settings, path, message] of cases) {
      const reading = await readServerCertificate(block(settings), dir);
      expect(reading.ok, JSON.stringify(settings)).toBe(false);
      if (reading.ok) continue;
      expect(reading.problems[0]?.path, JSON.stringify(settings)).toBe(path);
      expect(reading.problems[0]?.message, JSON.stringify(settings)).toMatch(message);
    }
  });
});

describe("checkListenerCertificates", () => {
  it("warns of a certificate that expired or expires within 30 days, and of none with more time", async () => {
    const dir = scratchDirectory("steward-cert-");
    const files = await writeListenerCertificates(dir);
    const blocks = [block({ cert: files.certPath, key: files.keyPath })];
    const now = Date.now();

    const fresh = await checkListenerCertificates(blocks, dir, now);
    const soon = await checkListenerCertificates(blocks, dir, now + 350 * DAY_MS);
    const late = await checkListenerCertificates(blocks, dir, now + 400 * DAY_MS);

    expect(fresh).toEqual({ problems: [], warnings: [] });
    expect(soon.problems).toEqual([]);
    expect(soon.warnings).toEqual([
      {
        path: `${PATH}.cert`,
        message: expect.stringMatching(
          /^the certificate \(CN=127\.0\.0\.1\) expires on \d{4}-\d\d-\d\d, in 1[45] days/,
        ),
      },
    ]);
    expect(late.warnings).toEqual([
      {
        path: `${PATH}.cert`,
        message: expect.stringMatching(/^the certificate \(CN=127\.0\.0\.1\) expired on /),
      },
    ]);
  });

  it("leaves a file that cannot be read to the file check, so it is reported once", async () => {
    const dir = scratchDirectory("steward-cert-");
    const files = await writeListenerCertificates(dir);
    const other = await writeListenerCertificates(dir, "other");

    const check = await checkListenerCertificates(
      [
        block({ cert: "missing.pem", key: files.keyPath }),
        {
          path: "Service.auditEvents.tls",
          settings: tlsSettings({ cert: files.certPath, key: other.keyPath }),
        },
      ],
      dir,
      Date.now(),
    );

    expect(check.problems.map((problem) => problem.path)).toEqual(["Service.auditEvents.tls.key"]);
  });
});
