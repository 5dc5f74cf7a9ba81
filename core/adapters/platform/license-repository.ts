/**
 * The LicenseSource adapter: the repository's licence and user calls through the repository
 * client (client certificate, xrfkey, `platform.userHeader`, `platform.timeoutMs`), and the
 * version endpoint `/v1/systeminfo` of the central node (port 9032 unless configured) over the
 * same client certificate. A status other than the one each call expects rejects with
 * PlatformResponseError naming the call and the status; a list or user whose shape is not the
 * repository's rejects as a whole, so a release never acts on part of an answer.
 */
import { Agent } from "node:https";
import type { AccessLicenceEntry, LicenceUser, LicenseSource } from "../../licences/index.ts";
import { PlatformResponseError } from "../../platform/errors.ts";
import type { Clock } from "../../ports.ts";
import type { PlatformConnectionOptions, PlatformTlsMaterial } from "./options.ts";
import { type PlatformResponse, sendPlatformRequest } from "./platform-request.ts";
import { createRepositoryClient } from "./repository-client.ts";

export interface LicenseRepositoryOptions {
  readonly connection: PlatformConnectionOptions;
  readonly tls: PlatformTlsMaterial;
  readonly clock: Clock;
  /** Where `/v1/systeminfo` is asked. */
  readonly version: { readonly host: string; readonly port: number };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function expectStatus(response: PlatformResponse, expected: (status: number) => boolean, what: string) {
  if (expected(response.status)) return response.body;
  const detail = typeof response.body === "string" && response.body !== "" ? `: ${response.body}` : "";
  throw new PlatformResponseError(`repository answered ${what} with HTTP ${response.status}${detail}`, {
    status: response.status,
  });
}

const ok = (status: number) => status >= 200 && status < 300;

function readEntry(entry: unknown, what: string): AccessLicenceEntry {
  const user = isRecord(entry) ? entry.user : undefined;
  if (!isRecord(entry) || typeof entry.id !== "string" || !isRecord(user) || typeof user.id !== "string") {
    throw new PlatformResponseError(`repository answered ${what} with an entry without an id or user`);
  }
  const lastUsed = typeof entry.lastUsed === "string" ? Date.parse(entry.lastUsed) : Number.NaN;
  return {
    id: entry.id,
    userRepositoryId: user.id,
    lastUsedMs: Number.isNaN(lastUsed) ? undefined : lastUsed,
    quarantined: entry.quarantined === true,
  };
}

function readUser(body: unknown, what: string): LicenceUser {
  if (!isRecord(body) || typeof body.userDirectory !== "string" || typeof body.userId !== "string") {
    throw new PlatformResponseError(`repository answered ${what} without a user directory and id`);
  }
  const tags = Array.isArray(body.tags) ? body.tags : [];
  const properties = Array.isArray(body.customProperties) ? body.customProperties : [];
  return {
    userDirectory: body.userDirectory,
    userId: body.userId,
    inactive: body.inactive === true,
    blocked: body.blacklisted === true,
    removedExternally: body.removedExternally === true,
    tags: tags.flatMap((tag: unknown) => (isRecord(tag) && typeof tag.name === "string" ? [tag.name] : [])),
    customProperties: properties.flatMap((cp: unknown) => {
      const definition = isRecord(cp) ? cp.definition : undefined;
      return isRecord(cp) && isRecord(definition) && typeof definition.name === "string"
        ? [{ name: definition.name, value: String(cp.value ?? "") }]
        : [];
    }),
  };
}

export function createLicenseRepository(options: LicenseRepositoryOptions): LicenseSource {
  const repository = createRepositoryClient(options);
  const { tls, clock, connection, version } = options;
  const versionAgent = new Agent({
    cert: tls.cert,
    key: tls.key,
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
    ...(tls.passphrase === undefined ? {} : { passphrase: tls.passphrase }),
    rejectUnauthorized: connection.rejectUnauthorized,
    keepAlive: false,
  });
  const get = async (path: string, query: Record<string, string> = {}, signal?: AbortSignal) =>
    expectStatus(await repository.send("GET", path, query, signal), ok, `GET ${path}`);

  return {
    accessTypeOverview: (signal) => get("/qrs/license/accesstypeoverview", {}, signal),
    serverLicence: (signal) => get("/qrs/license", {}, signal),
    async systemInfo(signal) {
      const where = `version endpoint at ${version.host}:${version.port}`;
      const response = await sendPlatformRequest({
        agent: versionAgent,
        host: version.host,
        port: version.port,
        method: "GET",
        path: "/v1/systeminfo",
        headers: { Accept: "application/json" },
        timeoutMs: connection.timeoutMs,
        clock,
        signal,
        where,
        call: "GET /v1/systeminfo",
      });
      if (ok(response.status)) return response.body;
      throw new PlatformResponseError(`${where} answered GET /v1/systeminfo with HTTP ${response.status}`, {
        status: response.status,
      });
    },
    async accessLicences(type, cutoffIso, signal) {
      const path = `/qrs/license/${type}accesstype/full`;
      const body = await get(path, { filter: `lastUsed le '${cutoffIso}'` }, signal);
      if (!Array.isArray(body)) {
        throw new PlatformResponseError(`repository answered GET ${path} with something other than a list`);
      }
      return body.map((entry) => readEntry(entry, `GET ${path}`));
    },
    async user(id, signal) {
      const path = `/qrs/user/${encodeURIComponent(id)}`;
      return readUser(await get(path, {}, signal), `GET ${path}`);
    },
    async release(type, licenceId, signal) {
      const path = `/qrs/license/${type}accesstype/${encodeURIComponent(licenceId)}`;
      const response = await repository.send("DELETE", path, {}, signal);
      expectStatus(response, (status) => status === 204, `DELETE ${path}`);
    },
    close() {
      repository.close();
      versionAgent.destroy();
    },
  };
}
