/**
 * migrate-config keeps the HTTPS settings of Butler's REST API (`restServerConfig.tls`) and of
 * Butler SOS's audit ingest API (`auditEvents.tls`): Steward's listeners serve HTTPS themselves,
 * with the same keys, so the certificate files an operator already has keep working.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { checkConfigText } from "../../../../../core/config/index.ts";
import { migrateConfigText } from "../../../../../core/config/migrate/convert.ts";
import { butlerFixture } from "../../../../helpers/butler-config.ts";
import { butlerSosFixture } from "../../../../helpers/butler-sos-config.ts";

/** `${NAME}` written without tripping the "template placeholder in a string" lint. */
const PASSPHRASE_REF = ["$", "{AUDIT_KEY_PASSPHRASE}"].join("");

const OPTIONS = { sourceName: "site.yaml", convertedBy: "steward 15.0.0" };

function migrate(text: string) {
  const result = migrateConfigText(text, OPTIONS);
  if (!result.ok) throw new Error(result.message);
  return { ...result, tree: parse(result.text) as { Service: Record<string, { tls?: unknown }> } };
}

describe("migrate-config with a listener's tls", () => {
  it("keeps Butler's restServerConfig.tls as restServer.tls, its null ca becoming empty with a note", () => {
    const text = butlerFixture().replace(
      "enable: false # HTTPS for the REST API",
      "enable: true # HTTPS for the REST API",
    );

    const result = migrate(text);

    expect(result.tree.Service.restServer?.tls).toEqual({
      enable: true,
      cert: "C:\\Butler\\certs\\butler.pem",
      key: "C:\\Butler\\certs\\butler_key.pem",
      ca: "",
    });
    expect(result.dropped.map((key) => key.path).filter((path) => path.includes("tls"))).toEqual([]);
    expect(result.notes).toContainEqual({
      path: "Service.restServer.tls.ca",
      message: expect.stringContaining('null (no CA file) is ""'),
    });
    const checked = checkConfigText(result.text, "converted.yaml", {});
    const tlsProblems = checked.ok ? [] : checked.problems.filter((p) => p.path.includes("restServer.tls"));
    expect(tlsProblems).toEqual([]);
  });

  it("keeps Butler SOS's auditEvents.tls with its passphrase, leaving out only minVersion with the reason", () => {
    const text = butlerSosFixture("complete.yaml").replace(
      '      passphrase: ""\n',
      `      passphrase: "${PASSPHRASE_REF}"\n      minVersion: TLSv1.3\n`,
    );

    const result = migrate(text);

    expect(result.tree.Service.auditEvents?.tls).toEqual({
      enable: false,
      cert: "./config/certs/audit-api.pem",
      key: "./config/certs/audit-api_key.pem",
      ca: "",
      passphrase: PASSPHRASE_REF,
    });
    expect(result.dropped.filter((key) => key.path.includes("tls"))).toEqual([
      {
        path: "Butler-SOS.auditEvents.tls.minVersion",
        reason: expect.stringContaining("TLS 1.2 at least"),
      },
    ]);
  });
});
