/** appNames, userSessions and serversToMonitor: polling the platform's servers. */
import * as v from "valibot";
import { excludeUserList } from "./platform-events.ts";
import {
  bool,
  hostPortSchema,
  list,
  nonEmptyList,
  positiveInt,
  requiredHost,
  requiredHostPort,
  requiredStr,
  section,
  str,
} from "./primitives.ts";

export const appNamesSchema = section({
  enableAppNameExtract: bool(false),
  extractInterval: positiveInt(60000),
  hostIP: requiredHost(),
});

export const userSessionsSchema = section({
  enableSessionExtract: bool(false),
  pollingInterval: positiveInt(30000),
  excludeUser: excludeUserList(),
});

export const serverSchema = v.object({
  host: hostPortSchema,
  serverName: requiredStr,
  serverDescription: str(""),
  userSessions: section({
    enable: bool(false),
    host: requiredHostPort(),
    virtualProxies: v.optional(nonEmptyList(v.object({ virtualProxy: requiredStr })), [
      { virtualProxy: "/" },
    ]),
  }),
  serverTags: v.optional(v.record(v.string(), v.string()), {}),
  headers: v.optional(v.record(v.string(), v.string()), {}),
});

export const serversToMonitorSchema = section({
  pollingInterval: positiveInt(30000),
  rejectUnauthorized: bool(true),
  serverTagsDefinition: list(requiredStr),
  servers: list(serverSchema),
});
