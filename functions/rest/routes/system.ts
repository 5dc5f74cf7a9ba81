/** System routes: enabled endpoints, ping, base62 ↔ base16. */
import * as v from "valibot";
import { base16ToBase62, base62ToBase16 } from "../../../core/base-conversion/base-conversion.ts";
import type { EndpointKey } from "../../../core/config/index.ts";
import { SERVICE_VERSION } from "../../../core/version.ts";
import { jsonResponse } from "../respond.ts";
import { defineRoute, type RouteSpec } from "../route.ts";

export const PING_RESPONSE = "Steward reporting for duty";

/** Longer inputs would make the quadratic BigInt conversion a denial-of-service lever. */
export const MAX_BASE_DIGITS = 4096;

const Conversion = v.object({ base62: v.string(), base16: v.string() });
const digits = (name: string) =>
  v.object({ [name]: v.pipe(v.string(), v.maxLength(MAX_BASE_DIGITS, `at most ${MAX_BASE_DIGITS} digits`)) });

export function systemRoutes(enabledEndpoints: () => readonly EndpointKey[]): RouteSpec[] {
  return [
    defineRoute({
      method: "GET",
      path: "/v4/configfile/endpointsenabled",
      endpoint: "apiListEnabledEndpoints",
      tag: "System",
      summary: "Keys (as in the config file) of the endpoints this instance serves",
      responses: { 200: { description: "Enabled endpoint keys", schema: v.array(v.string()) } },
      handler: (_input, c) => jsonResponse(c, enabledEndpoints()),
    }),
    defineRoute({
      method: "GET",
      path: "/v4/ping",
      endpoint: "ping",
      tag: "System",
      summary: "Health check with the running version",
      responses: {
        200: { description: "Alive", schema: v.object({ response: v.string(), serviceVersion: v.string() }) },
      },
      handler: (_input, c) => jsonResponse(c, { response: PING_RESPONSE, serviceVersion: SERVICE_VERSION }),
    }),
    defineRoute({
      method: "GET",
      path: "/v4/base62tobase16",
      endpoint: "base62ToBase16",
      tag: "System",
      summary: "Converts a base62 string (0-9a-zA-Z) to base16 (lowercase)",
      query: digits("base62"),
      responses: {
        200: { description: "Both forms", schema: Conversion },
        400: { description: "Bad digit" },
      },
      handler: ({ query }, c) => {
        const base62 = String(query.base62);
        return jsonResponse(c, { base62, base16: base62ToBase16(base62) });
      },
    }),
    defineRoute({
      method: "GET",
      path: "/v4/base16tobase62",
      endpoint: "base16ToBase62",
      tag: "System",
      summary: "Converts a base16 string (0-9a-f, lowercase) to base62",
      query: digits("base16"),
      responses: {
        200: { description: "Both forms", schema: Conversion },
        400: { description: "Bad digit" },
      },
      handler: ({ query }, c) => {
        const base16 = String(query.base16);
        return jsonResponse(c, { base62: base16ToBase62(base16), base16 });
      },
    }),
  ];
}
