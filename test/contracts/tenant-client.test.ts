import { createTenantHttpClient } from "../../core/adapters/qlik-cloud/tenant-http-client.ts";
import { describeTenantClientContract } from "./tenant-client.contract.ts";

describeTenantClientContract("HTTP client of a tenant's REST API", (target) =>
  createTenantHttpClient(target),
);
