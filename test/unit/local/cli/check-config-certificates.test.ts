import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../../local/cli/cli.ts";
import { TEST_PASSPHRASE, writeListenerCertificates } from "../../../helpers/listener-certificates.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { exitCode, recordingCliIo } from "../../../helpers/recording-cli-io.ts";

describe("steward check-config with the listeners' certificates", () => {
  it("lists every certificate that cannot be served with the other problems, naming the setting and the file, and warns of one about to expire", async () => {
    const dir = scratchDirectory("steward-check-tls-");
    await writeListenerCertificates(dir);
    await writeListenerCertificates(dir, "other");
    await writeListenerCertificates(dir, "expiring", "127.0.0.1", 9);
    writeFileSync(
      join(dir, "steward.yaml"),
      [
        "Service:",
        "  restServer:",
        "    enable: true",
        "    tls: { enable: true, cert: server.pem, key: other_key.pem }",
        "  auditEvents:",
        "    enable: true",
        "    tls: { enable: true, pfx: missing.pfx, passphrase: x }",
        "  configVisualisation:",
        "    enable: true",
        "    tls: { enable: true, cert: expiring.pem, key: expiring_key.pem }",
        "  scrapeEndpoint:",
        "    enable: true",
        "    tls: { enable: true, pfx: server.pfx, passphrase: wrong }",
        "",
      ].join("\n"),
    );
    const io = recordingCliIo(dir);

    const code = exitCode(await runCli(["check-config", "steward.yaml"], io));

    expect(code).toBe(1);
    const lines = io.err().split("\n");
    expect(lines[0]).toBe("Configuration steward.yaml is invalid:");
    expect(lines).toContain(
      `Service.auditEvents.tls.pfx: cannot read file ${join(dir, "missing.pfx")} (ENOENT)`,
    );
    expect(lines).toContain(
      `Service.restServer.tls.key: the key in ${join(dir, "other_key.pem")} is not the key of the certificate in ${join(dir, "server.pem")}`,
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^Service\.scrapeEndpoint\.tls\.passphrase: does not open .*server\.pfx \(/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^warning: Service\.configVisualisation\.tls\.cert: the certificate \(CN=127\.0\.0\.1\) expires on \d{4}-\d\d-\d\d, in [89] days: renew it/,
      ),
    );
  });

  it("accepts a configuration whose certificates are served: PEM files and a PFX with its passphrase", async () => {
    const dir = scratchDirectory("steward-check-tls-");
    await writeListenerCertificates(dir);
    writeFileSync(
      join(dir, "steward.yaml"),
      [
        "Service:",
        "  restServer:",
        "    enable: true",
        "    tls: { enable: true, cert: server.pem, key: server_key.pem }",
        "  auditEvents:",
        "    enable: true",
        `    tls: { enable: true, pfx: server.pfx, passphrase: "${TEST_PASSPHRASE}" }`,
        "",
      ].join("\n"),
    );
    const io = recordingCliIo(dir);

    const code = exitCode(await runCli(["check-config", "steward.yaml"], io));

    expect(io.err()).toBe("");
    expect(code).toBe(0);
    expect(io.out()).toBe("ok\n");
  });
});
