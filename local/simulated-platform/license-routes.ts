/**
 * The simulated repository's licence and user routes (license-simulation.ts holds their state):
 * `GET /qrs/license`, `GET /qrs/license/accesstypeoverview`,
 * `GET /qrs/license/{professional|analyzer}accesstype/full` (filtered on `lastUsed le '<ISO>'`, the
 * one filter the licence release sends), `GET /qrs/user/<id>` and
 * `DELETE /qrs/license/{professional|analyzer}accesstype/<id>` (204; 404 for an unknown id, 409 for
 * one the simulation is told to refuse),
 * and the version endpoint `GET /v1/systeminfo`. Called after the repository's own checks
 * (xrfkey, user header, faults), which record every call.
 */
import type { ServerResponse } from "node:http";
import {
  accessTypeOverview,
  type LicenseSimulation,
  SIM_SYSTEM_INFO,
  type SimAccessLicence,
  serverLicence,
} from "./license-simulation.ts";

const ACCESS_LIST = /^\/qrs\/license\/(professional|analyzer)accesstype\/full$/;
const ACCESS_ONE = /^\/qrs\/license\/(professional|analyzer)accesstype\/([^/]+)$/;
const USER = /^\/qrs\/user\/([^/]+)$/;
const LAST_USED_FILTER = /^\s*lastUsed\s+le\s+'([^']+)'\s*$/i;

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const type = typeof body === "string" ? "text/plain" : "application/json; charset=utf-8";
  res.writeHead(status, { "Content-Type": type }).end(text);
}

function licenceEntry(sim: LicenseSimulation, licence: SimAccessLicence): Record<string, unknown> {
  const user = sim.users.find((u) => u.id === licence.userId);
  return {
    id: licence.id,
    user: {
      id: licence.userId,
      userId: user?.userId ?? "",
      userDirectory: user?.userDirectory ?? "",
      name: user?.userId ?? "",
    },
    lastUsed: new Date(licence.lastUsedMs).toISOString(),
    quarantined: licence.quarantined,
    quarantineEnd: "1753-01-01T00:00:00.000Z",
    deletedUserId: "",
    deletedUserDirectory: "",
    schemaPath:
      licence.type === "professional" ? "License.ProfessionalAccessType" : "License.AnalyzerAccessType",
  };
}

function userEntry(sim: LicenseSimulation, id: string): Record<string, unknown> | undefined {
  const user = sim.users.find((u) => u.id === id);
  if (user === undefined) return undefined;
  return {
    id: user.id,
    userId: user.userId,
    userDirectory: user.userDirectory,
    name: user.userId,
    inactive: user.inactive,
    blacklisted: user.blacklisted,
    removedExternally: user.removedExternally,
    tags: user.tags.map((name, index) => ({ id: `tag-${index}`, name })),
    customProperties: user.customProperties.map((cp, index) => ({
      id: `cpv-${index}`,
      value: cp.value,
      definition: { id: `def-${cp.name}`, name: cp.name, valueType: "Text" },
    })),
    schemaPath: "User",
  };
}

function listLicences(sim: LicenseSimulation, type: string, filter: string | undefined, res: ServerResponse) {
  let cutoff = Number.POSITIVE_INFINITY;
  if (filter !== undefined) {
    const match = LAST_USED_FILTER.exec(filter);
    cutoff = match === null ? Number.NaN : Date.parse(match[1] as string);
    if (Number.isNaN(cutoff)) {
      send(res, 400, `Invalid filter: ${filter}`);
      return;
    }
  }
  const listed = sim.licences.filter((licence) => licence.type === type && licence.lastUsedMs <= cutoff);
  send(
    res,
    200,
    listed.map((licence) => licenceEntry(sim, licence)),
  );
}

function release(sim: LicenseSimulation, type: string, id: string, res: ServerResponse): void {
  const index = sim.licences.findIndex((licence) => licence.type === type && licence.id === id);
  if (index === -1) {
    send(res, 404, `Cannot find the ${type} access type ${id}`);
    return;
  }
  if (sim.refusedReleases.has(id)) {
    send(res, 409, `The ${type} access type ${id} is in use and cannot be deleted`);
    return;
  }
  sim.licences.splice(index, 1);
  sim.released.push(id);
  send(res, 204);
}

/** Answers a licence, user or version route; false when the request is none of them. */
export function answerLicenseRoute(
  sim: LicenseSimulation,
  method: string,
  url: URL,
  res: ServerResponse,
): boolean {
  const path = url.pathname;
  const list = ACCESS_LIST.exec(path);
  const one = ACCESS_ONE.exec(path);
  const user = USER.exec(path);
  if (method === "GET" && path === "/v1/systeminfo") send(res, 200, SIM_SYSTEM_INFO);
  else if (method === "GET" && path === "/qrs/license") send(res, 200, serverLicence(sim, sim.now()));
  else if (method === "GET" && path === "/qrs/license/accesstypeoverview")
    send(res, 200, accessTypeOverview(sim));
  else if (method === "GET" && list !== null)
    listLicences(sim, list[1] as string, url.searchParams.get("filter") ?? undefined, res);
  else if (method === "DELETE" && one !== null && one[2] !== "full")
    release(sim, one[1] as string, decodeURIComponent(one[2] as string), res);
  else if (method === "GET" && user !== null) {
    // A user the licence simulation does not hold may be an app owner of the task routes: left to them.
    const entry = userEntry(sim, decodeURIComponent(user[1] as string));
    if (entry === undefined) return false;
    send(res, 200, entry);
  } else return false;
  return true;
}
