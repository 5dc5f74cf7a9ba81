/**
 * migrate-config on Butler's `qlikSenseCloud`: the tenant becomes a tenant of `qlikCloud.tenants`
 * (URL, token as API key, a name from the URL, polled, webhook off) that check-config accepts, and
 * Butler's own cloud alert blocks are left out with the reason.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { checkConfigText } from "../../../../../core/config/index.ts";
import { tenantNameOf } from "../../../../../core/config/migrate/butler-cloud-tenant.ts";
import { migrateConfigText } from "../../../../../core/config/migrate/convert.ts";

const BUTLER = `Butler:
  qlikSenseCloud:
    enable: true
    event:
      mqtt:
        tenant:
          id: nordlys.eu.qlikcloud.com
          tenantUrl: https://Nordlys.eu.qlikcloud.com
          authType: jwt
          auth:
            jwt:
              token: key-of-nordlys
          comment: Production tenant
          alert:
            teamsNotification:
              reloadAppFailure:
                enable: true
                webhookURL: https://teams.example.com/hook
`;

describe("migrate-config on Butler's qlikSenseCloud", () => {
  it("converts the tenant into qlikCloud.tenants, polled with its key, and leaves its alert blocks out with the reason", () => {
    const result = migrateConfigText(BUTLER, { sourceName: "butler.yaml", convertedBy: "steward 15.0.0" });
    if (!result.ok) throw new Error(result.message);
    const service = (parse(result.text) as { Service: Record<string, unknown> }).Service;
    expect(service.qlikCloud).toEqual({
      enable: true,
      tenants: [
        {
          name: "nordlys",
          url: "https://Nordlys.eu.qlikcloud.com",
          auth: { apiKey: "key-of-nordlys" },
          webhook: { enable: false },
          poll: { enable: true },
        },
      ],
    });
    expect(result.dropped).toEqual([
      { path: "Butler.qlikSenseCloud", reason: expect.stringMatching(/reloadTaskFailure blocks/) },
    ]);
    expect(result.notes.find((note) => note.path === "Service.qlikCloud.tenants")?.message).toMatch(
      /polling with its API key.*webhook is off/,
    );
    const checked = checkConfigText(result.text, "converted.yaml", {});
    expect(checked.ok ? [] : checked.problems).toEqual([]);
  });

  it("names a tenant after its URL's first label, in the letters a tenant name takes", () => {
    expect(tenantNameOf("https://acme-prod.eu.qlikcloud.com")).toBe("acme-prod");
    expect(tenantNameOf("https://ACME_Prod.us.qlikcloud.com/")).toBe("acme-prod");
    expect(tenantNameOf("not a url")).toBe("tenant");
  });
});
