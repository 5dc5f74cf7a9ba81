import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../../../core/config/index.ts";
import { openListenerWarning } from "../../../../core/config/open-listeners.ts";
import { parseOk, problemsOf } from "./helpers.ts";

const REST_HOST_PROBLEM =
  "Service.restServer.host: 0.0.0.0 is not a loopback address and restServer.apiToken is empty: anyone who reaches 0.0.0.0:8081 could call the REST API (key-values, schedules, reloads, files); set apiToken (from an environment variable), or allowUnauthenticated: true to serve it without a token";
const REST_CORS_PROBLEM =
  'Service.restServer.cors.allowedOrigins: "*" lets any web page call the REST API and restServer.apiToken is empty: set apiToken, list the origins that may call it, or set allowUnauthenticated: true';

describe("the REST API without a token", () => {
  it("is refused on a host other than loopback and with * among the CORS origins, both reported at once", () => {
    expect(problemsOf({ restServer: { host: "0.0.0.0", cors: { allowedOrigins: ["*"] } } })).toEqual([
      REST_CORS_PROBLEM,
      REST_HOST_PROBLEM,
    ]);
    expect(problemsOf({ restServer: { host: "steward.corp.local" } })).toEqual([
      expect.stringMatching(/^Service\.restServer\.host: steward\.corp\.local is not a loopback address/),
    ]);
  });

  it.each(["127.0.0.1", "127.0.0.53", "localhost", "::1", "[::1]"])("is served on %s", (host) => {
    expect(problemsOf({ restServer: { host } })).toEqual([]);
  });

  it("is served anywhere with a token, or with allowUnauthenticated: true", () => {
    expect(
      problemsOf({ restServer: { host: "0.0.0.0", apiToken: "t", cors: { allowedOrigins: ["*"] } } }),
    ).toEqual([]);
    expect(
      problemsOf({
        restServer: { host: "0.0.0.0", allowUnauthenticated: true, cors: { allowedOrigins: ["*"] } },
      }),
    ).toEqual([]);
  });

  it("is not checked while the REST API is off", () => {
    expect(problemsOf({ restServer: { enable: false, host: "0.0.0.0" } })).toEqual([]);
  });

  it("warns at start, naming what answers whom", () => {
    expect(openListenerWarning(defaultConfig(), "restServer")).toBe(
      "No restServer.apiToken configured: any program on this machine may call the REST API (127.0.0.1:8081); set one to require it",
    );
    expect(
      openListenerWarning(
        parseOk({
          restServer: { host: "0.0.0.0", allowUnauthenticated: true, cors: { allowedOrigins: ["*"] } },
        }),
        "restServer",
      ),
    ).toBe(
      "restServer.allowUnauthenticated is true: the REST API on 0.0.0.0:8081 answers any client that reaches it and any web page (cors.allowedOrigins holds *), without a token",
    );
    expect(openListenerWarning(parseOk({ restServer: { apiToken: "t" } }), "restServer")).toBeUndefined();
  });
});

describe("the status page and the scrape endpoint (no token at all)", () => {
  it("are refused on a host other than loopback, each saying how to serve it anyway", () => {
    expect(
      problemsOf({
        configVisualisation: { enable: true, host: "0.0.0.0" },
        scrapeEndpoint: { enable: true, host: "10.1.2.3" },
      }),
    ).toEqual([
      "Service.configVisualisation.host: 0.0.0.0 is not a loopback address and the status page has no token: anyone who reaches it would read the configuration and status; keep it on 127.0.0.1 (with an authenticating proxy in front for other machines), or set configVisualisation.allowUnauthenticated: true to serve 0.0.0.0:3100 to other machines",
      "Service.scrapeEndpoint.host: 10.1.2.3 is not a loopback address and the scrape endpoint has no token: anyone who reaches it would read the metrics; keep it on 127.0.0.1, or set scrapeEndpoint.allowUnauthenticated: true to serve 10.1.2.3:9842 to other machines",
    ]);
  });

  it("are served on loopback, and elsewhere with allowUnauthenticated: true and a warning", () => {
    expect(problemsOf({ configVisualisation: { enable: true }, scrapeEndpoint: { enable: true } })).toEqual(
      [],
    );
    const open = parseOk({
      configVisualisation: { enable: true, host: "0.0.0.0", allowUnauthenticated: true, obfuscate: false },
      scrapeEndpoint: { enable: true, host: "0.0.0.0", allowUnauthenticated: true },
    });

    expect(openListenerWarning(open, "configVisualisation")).toBe(
      "configVisualisation.allowUnauthenticated is true: the status page on 0.0.0.0:3100 shows the configuration and status to anyone who reaches it, secrets in clear (obfuscate is false)",
    );
    expect(openListenerWarning(open, "scrapeEndpoint")).toBe(
      "scrapeEndpoint.allowUnauthenticated is true: /metrics on 0.0.0.0:9842 answers anyone who reaches it",
    );
    expect(openListenerWarning(defaultConfig(), "configVisualisation")).toBeUndefined();
  });
});

describe("the ingest API", () => {
  it("is served without a token on any host: it faces every user's browser", () => {
    expect(problemsOf({ auditEvents: { host: "0.0.0.0", cors: { allowedOrigins: ["*"] } } })).toEqual([]);
  });
});
