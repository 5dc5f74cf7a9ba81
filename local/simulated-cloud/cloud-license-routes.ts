/**
 * The simulated tenant's licence API (`/api/v1/licenses/...`): the overview with its allotments,
 * the status, consumption and assignments, in the shapes and with the example values Qlik
 * publishes. Assignments are paged by `page`, and their `links.next.href` points at Qlik's
 * internal host (`http://license/v1/...`), as Qlik's own example does: a client must take the page
 * number from it and ask the tenant, never fetch the href. A test changes the professional seats
 * in use (`state.licences.professionalUsed`), or makes every licence route answer 404 "License not
 * found" (`state.licences.missing`), as Qlik answers for a tenant without a licence.
 */
import { json, limitOf, problem, type RouteAnswer, type RouteRequest } from "./route-answers.ts";
import type { TenantState } from "./tenant-state.ts";

function overview(state: TenantState): RouteAnswer {
  return json(200, {
    licenseNumber: `9999000000${state.fixture.tenantId.length}`,
    licenseKey: "simulated",
    product: "Qlik Sense Enterprise SaaS",
    status: "Ok",
    trial: false,
    valid: "2026-01-01/2027-12-31",
    origin: "Internal",
    secondaryNumber: "0",
    updated: "2026-06-01T00:00:00.000Z",
    allotments: [
      {
        name: "professional",
        units: 200,
        unitsUsed: state.licences.professionalUsed,
        usageClass: "assigned",
      },
      { name: "analyzer", units: 500, unitsUsed: 120, usageClass: "assigned" },
      { name: "analyzer_time", units: 300, overage: 100, unitsUsed: 242, usageClass: "time" },
    ],
    parameters: [],
  });
}

const ASSIGNMENTS = Array.from({ length: 7 }, (_, i) => ({
  subject: `qlik\\user${i + 1}`,
  type: i < 2 ? "professional" : "analyzer",
  excess: false,
  created: "2026-03-12T09:24:48.114Z",
}));

function assignments(request: RouteRequest): RouteAnswer {
  const limit = limitOf(request.query, 20, 100);
  const pageNumber = Math.max(1, Number(request.query.get("page") ?? 1) || 1);
  const start = (pageNumber - 1) * limit;
  const data = ASSIGNMENTS.slice(start, start + limit);
  const links: Record<string, { href: string }> = {
    self: { href: `http://license/v1/licenses/assignments?limit=${limit}&page=${pageNumber}` },
  };
  if (start + limit < ASSIGNMENTS.length)
    links.next = { href: `http://license/v1/licenses/assignments?limit=${limit}&page=${pageNumber + 1}` };
  return json(200, { data, links });
}

/** The answer of a licence route, or undefined when none matches. */
export function answerLicenseRoute(state: TenantState, request: RouteRequest): RouteAnswer | undefined {
  if (request.method !== "GET" || !request.path.startsWith("/api/v1/licenses/")) return undefined;
  if (state.licences.missing) return problem(404, "LICENSES-404", "License not found");
  switch (request.path.slice("/api/v1/licenses/".length)) {
    case "overview":
      return overview(state);
    case "status":
      return json(200, {
        type: "Signed",
        trial: false,
        valid: "2026-01-01/2027-12-31",
        origin: "Internal",
        status: "Ok",
        product: "Qlik Sense Enterprise SaaS",
        deactivated: false,
        extensionStatus: "Unavailable",
      });
    case "consumption":
      return json(200, {
        data: [
          {
            id: "c1",
            appId: state.fixture.apps[0]?.id,
            userId: state.fixture.users[0]?.id,
            sessionId: "s1",
            allotmentId: "analyzer_time",
            licenseUsage: "analyzer_time",
            minutesUsed: 6,
            capacityUsed: 0,
            duration: "PT6M",
            endTime: "2026-06-01T10:06:00.000Z",
          },
        ],
        links: {},
      });
    case "assignments":
      return assignments(request);
    default:
      return undefined;
  }
}
