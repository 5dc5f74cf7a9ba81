/**
 * Table-driven over EVERY top-level key of the schema (the table must list exactly the schema's
 * keys, so a section cannot be skipped): each accepts the template's values when active, rejects
 * a typo'd key with a suggestion and a wrong type, and — when it can be disabled — accepts
 * placeholders while disabled but still rejects unknown keys (a misspelt switch must not leave a
 * section silently off).
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { renderTemplate, serviceSchema } from "../../../../core/config/index.ts";
import { problemsOf } from "./helpers.ts";

type Tree = Record<string, unknown>;
type Path = (string | number)[];

interface SectionCase {
  /** Merged over the template's section to make it active (validated). */
  readonly active?: unknown;
  /** Other sections needed to activate this one. */
  readonly context?: Tree;
  /** Merged over the template's section to disable it; absent = cannot be disabled. */
  readonly disabled?: Tree;
  /** Path (inside the section) of a key to misspell. */
  readonly typo: Path;
  /** Path (inside the section) of a leaf to give a wrong type. */
  readonly wrong: Path;
  /** Path of a leaf whose format is checked, so that "<placeholder>" fails when active. */
  readonly placeholder?: Path;
}

const account = { accountName: "acct1", insertApiKey: "key-1", accountId: "42" };

const CASES: Readonly<Record<string, SectionCase>> = {
  logLevel: { typo: [], wrong: [] },
  fileLogging: { typo: [], wrong: [] },
  logDirectory: { typo: [], wrong: [] },
  anonTelemetry: { typo: [], wrong: [] },
  anonTelemetryEndpoint: { typo: [], wrong: [] },
  crashFile: {
    disabled: { enable: false },
    typo: ["crashFileDirectory"],
    wrong: ["crashFileCreateJson"],
    placeholder: ["crashFileCreateText"],
  },
  systemInfo: { disabled: { enable: false }, typo: ["enable"], wrong: ["enable"] },
  configVisualisation: {
    active: { enable: true },
    // The template shows the embedded default, which serves the status page.
    disabled: { enable: false },
    typo: ["obfuscate"],
    wrong: ["port"],
    placeholder: ["host"],
  },
  heartbeat: {
    active: { enable: true, remoteURL: "http://monitor.example.com/ping" },
    disabled: {},
    typo: ["frequency"],
    wrong: ["remoteURL"],
    placeholder: ["remoteURL"],
  },
  containerHealthCheck: {
    active: { enable: true },
    disabled: {},
    typo: ["port"],
    wrong: ["port"],
    placeholder: ["port"],
  },
  uptimeMonitor: {
    active: { enable: true },
    disabled: { enable: false },
    typo: ["storeInTimeseriesdb", "instanceTag"],
    wrong: ["storeInTimeseriesdb", "serviceMemoryUsage"],
    placeholder: ["frequency"],
  },
  thirdPartyToolsCredentials: {
    active: { obsPlatform: [account] },
    context: { obsPlatform: { enable: true } },
    disabled: { obsPlatform: [account] },
    typo: ["obsPlatform", 0, "accountName"],
    wrong: ["obsPlatform", 0, "insertApiKey"],
  },
  platformEvents: {
    active: { timeseriesdb: { enable: true }, eventCount: { enable: true } },
    typo: ["eventCount", "timeseriesdb", "measurementName"],
    wrong: ["timeseriesdb", "writeFrequency"],
  },
  userEvents: {
    active: { enable: true, sendToMQTT: { enable: true } },
    disabled: {},
    typo: ["udpServerConfig", "portUserActivityEvents"],
    wrong: ["sendToMQTT", "postTo", "everythingTopic", "topic"],
    placeholder: ["udpServerConfig", "serverHost"],
  },
  logEvents: {
    active: {
      source: { engine: { enable: true } },
      categorise: {
        enable: true,
        rules: [
          { logLevel: ["warn"], action: "categorise", category: [], filter: [{ type: "sw", value: "x" }] },
        ],
      },
      enginePerformanceMonitor: { enable: true, monitorFilter: { allApps: { enable: true } } },
    },
    disabled: {},
    typo: ["categorise", "rules", 0, "description"],
    wrong: ["enginePerformanceMonitor", "monitorFilter", "allApps", "objectType", "allObjectTypes"],
    placeholder: ["udpServerConfig", "serverHost"],
  },
  taskEvents: {
    active: { enable: true, sendToMQTT: { enable: true } },
    context: { platform: { host: "sense.example.com" } },
    disabled: {},
    typo: ["deduplication", "windowSeconds"],
    wrong: ["udpServerConfig", "portTaskEvents"],
    placeholder: ["udpServerConfig", "serverHost"],
  },
  qlikSenseUrls: {
    typo: ["appBaseUrl"],
    wrong: ["hub"],
    placeholder: ["qmc"],
  },
  genericUrls: {
    active: [{ id: "runbook", linkText: "Runbook", url: "https://wiki.example.com/reloads" }],
    typo: [0, "linkText"],
    wrong: [0, "url"],
    placeholder: [0, "url"],
  },
  emailNotification: {
    active: {
      enable: true,
      smtp: { host: "mail.example.com" },
      reloadTaskFailure: {
        enable: true,
        fromAddress: "Qlik Sense <noreply@example.com>",
        recipients: ["ops@example.com"],
      },
    },
    disabled: {},
    typo: ["reloadTaskFailure", "rateLimit"],
    wrong: ["smtp", "port"],
    placeholder: ["reloadTaskFailure", "recipients", 0],
  },
  teamsNotification: {
    active: {
      enable: true,
      reloadTaskFailure: { enable: true, webhookURL: "https://example.logic.azure.com/workflows/1" },
    },
    disabled: {},
    typo: ["reloadTaskFailure", "messageType"],
    wrong: ["reloadTaskFailure", "rateLimit"],
    placeholder: ["reloadTaskFailure", "webhookURL"],
  },
  slackNotification: {
    active: {
      enable: true,
      reloadTaskAborted: { enable: true, webhookURL: "https://hooks.slack.example.com/services/1" },
    },
    disabled: {},
    typo: ["reloadTaskAborted", "iconEmoji"],
    wrong: ["reloadTaskAborted", "channel"],
    placeholder: ["reloadTaskAborted", "webhookURL"],
  },
  webhookNotification: {
    active: {
      enable: true,
      reloadTaskFailure: {
        webhooks: [{ description: "ops", webhookURL: "https://hooks.example.com/a", httpMethod: "post" }],
      },
    },
    // An item to hold the placeholder: the template's list is empty.
    disabled: { reloadTaskFailure: { webhooks: [{}] } },
    typo: ["reloadTaskFailure", "webhooks", 0, "httpMethod"],
    wrong: ["reloadTaskFailure", "rateLimit"],
    placeholder: ["reloadTaskFailure", "webhooks", 0, "webhookURL"],
  },
  incidentTool: {
    active: {
      newRelic: {
        enable: true,
        reloadTaskFailure: {
          destination: {
            event: { enable: true, sendToAccount: { always: { enable: true, account: ["acct1"] } } },
          },
        },
      },
    },
    context: { thirdPartyToolsCredentials: { obsPlatform: [account] } },
    typo: ["newRelic", "reloadTaskFailure", "sharedSettings", "rateLimit"],
    wrong: ["newRelic", "url", "event"],
    placeholder: ["newRelic", "url", "log"],
  },
  cert: {
    active: { clientCert: "client.pem", clientCertKey: "client_key.pem", clientCertCA: "root.pem" },
    context: { appNames: { enableAppNameExtract: true, hostIP: "sense.example.com" } },
    disabled: {},
    typo: ["clientCertCA"],
    wrong: ["clientCertKey"],
  },
  mqttConfig: {
    active: { enable: true },
    disabled: {},
    typo: ["brokerHost"],
    wrong: ["brokerPort"],
    placeholder: ["brokerHost"],
  },
  obsPlatform: {
    active: { enable: true },
    disabled: {},
    typo: ["metric", "dynamic", "engine", "memory"],
    wrong: ["event", "url"],
    placeholder: ["event", "url"],
  },
  scrapeEndpoint: {
    active: { enable: true },
    disabled: {},
    typo: ["host"],
    wrong: ["port"],
    placeholder: ["host"],
  },
  timeseriesdbConfig: {
    active: { enable: true, version: 3, v3Config: { database: "db", token: "t" } },
    disabled: {},
    typo: ["v3Config", "retentionDuration"],
    wrong: ["maxBatchSize"],
    placeholder: ["host"],
  },
  errorTracking: {
    active: { enable: true },
    disabled: { enable: false },
    typo: ["logSummary"],
    wrong: ["timeseriesdb", "measurementName"],
  },
  appNames: {
    active: { enableAppNameExtract: true, hostIP: "sense.example.com" },
    context: { cert: { clientCert: "c.pem", clientCertKey: "k.pem", clientCertCA: "ca.pem" } },
    disabled: {},
    typo: ["extractInterval"],
    wrong: ["extractInterval"],
    placeholder: ["hostIP"],
  },
  userSessions: {
    active: { enableSessionExtract: true },
    disabled: {},
    typo: ["pollingInterval"],
    wrong: ["excludeUser"],
    placeholder: ["pollingInterval"],
  },
  serversToMonitor: {
    active: {
      serverTagsDefinition: ["group"],
      servers: [
        {
          host: "sense1.example.com:4747",
          serverName: "sense1",
          userSessions: {
            enable: true,
            host: "sense1.example.com:4243",
            virtualProxies: [{ virtualProxy: "/" }],
          },
          serverTags: { group: "DEV" },
          headers: { "X-Header": "v" },
        },
      ],
    },
    typo: ["servers", 0, "serverName"],
    wrong: ["servers", 0, "userSessions", "virtualProxies"],
  },
  licenseMonitor: {
    active: { enable: true },
    context: { platform: { host: "sense1.example.com" } },
    disabled: { enable: false },
    typo: ["serverLicense", "alertDaysBefore"],
    wrong: ["version", "port"],
    placeholder: ["frequency"],
  },
  serviceMonitor: {
    active: {
      enable: true,
      monitor: [{ host: "sense1.example.com", services: [{ name: "QlikSenseRepositoryService" }] }],
    },
    disabled: { enable: false, monitor: [{ host: "<placeholder>" }] },
    typo: ["sendToMQTT", "serviceStatusTopic"],
    wrong: ["monitor", 0, "services", 0, "name"],
    placeholder: ["monitor", 0, "host"],
  },
  qlikCloud: {
    active: {
      enable: true,
      tenants: [
        {
          name: "acme-eu",
          url: "https://acme.eu.qlikcloud.com",
          auth: { oauth: { clientId: "client-1", clientSecret: "client-secret-1" } },
          webhook: { secret: "s".repeat(40) },
        },
      ],
    },
    disabled: { enable: false, tenants: [{ name: "<placeholder>" }] },
    typo: ["tenants", 0, "webhook", "secret"],
    wrong: ["tenants", 0, "name"],
    placeholder: ["tenants", 0, "url"],
  },
  auditEvents: {
    disabled: { enable: false },
    typo: ["queue", "queueMetrics"],
    wrong: ["correlationIdMaxLength"],
    placeholder: ["host"],
  },
  restServer: {
    disabled: { enable: false },
    typo: ["endpointsEnable", "appList"],
    wrong: ["endpointsEnable", "ping"],
    placeholder: ["port"],
  },
  fileOperations: {
    active: { copyApprovedDirectories: [{ fromDirectory: "/a", toDirectory: "/b" }] },
    typo: ["copyApprovedDirectories", 0, "toDirectory"],
    wrong: ["tableDataDirectory"],
  },
  keyValueStore: {
    disabled: { enable: false },
    typo: ["maxKeysPerNamespace"],
    wrong: ["maxKeysPerNamespace"],
    placeholder: ["maxKeysPerNamespace"],
  },
  scheduler: { disabled: { enable: false }, typo: ["storeFile"], wrong: ["storeFile"] },
  platform: { typo: ["repositoryPort"], wrong: ["rejectUnauthorized"] },
  startTaskFilter: {
    active: { enable: true },
    disabled: { enable: false },
    typo: ["allowTask", "customProperty"],
    wrong: ["allowTask", "tag"],
  },
  chat: {
    active: { webhookURL: "https://hooks.example.com/T000/B000" },
    context: { restServer: { endpointsEnable: { chatPostMessage: true } } },
    disabled: {},
    typo: ["webhookURL"],
    wrong: ["webhookURL"],
    placeholder: ["webhookURL"],
  },
  cloud: {
    active: { enable: true, region: "eu-west-1" },
    disabled: {},
    typo: ["bucketName"],
    wrong: ["region"],
  },
};

const isTree = (x: unknown): x is Tree => typeof x === "object" && x !== null && !Array.isArray(x);

function merge(base: unknown, over: unknown): unknown {
  if (!isTree(base) || !isTree(over)) return over === undefined ? base : over;
  const out: Tree = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = merge(base[k], v);
  return out;
}

function getAt(tree: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], tree);
}

/** A copy of `tree` with the value at `path` replaced (or the key renamed, with `rename`). */
function setAt(tree: unknown, path: Path, value: unknown, rename?: string): unknown {
  const clone = structuredClone(tree) as Record<string | number, unknown>;
  const parent = getAt(clone, path.slice(0, -1)) as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (rename !== undefined) {
    delete parent[last];
    parent[rename] = value;
  } else {
    parent[last] = value;
  }
  return clone;
}

/** Deletes the second character: `remoteURL` → `rmoteURL`. */
const misspell = (key: string) => key.slice(0, 1) + key.slice(2);

function wrongValueFor(value: unknown): unknown {
  if (typeof value === "string") return 12345;
  if (typeof value === "number") return "12";
  if (typeof value === "boolean") return "yes";
  return "not-a-list-or-map";
}

const renderPath = (path: Path) => path.map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`)).join("");

const template = (parse(renderTemplate()) as { Service: Tree }).Service;

describe("schema sections", () => {
  it("the table covers exactly the schema's top-level keys", () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(serviceSchema.entries).sort());
  });

  describe.each(Object.entries(CASES))("%s", (key, c) => {
    const activeSection = merge(template[key], c.active);
    const service = (section: unknown): Tree => ({ ...(c.context ?? {}), [key]: section });

    it("accepts the template's values when active", () => {
      expect(problemsOf(service(activeSection))).toEqual([]);
    });

    it("rejects a typo'd key with the nearest key suggested", () => {
      // Prepare
      const full = [key, ...c.typo];
      const original = String(full[full.length - 1]);
      const typo = misspell(original);
      const tree = setAt({ [key]: activeSection }, full, getAt({ [key]: activeSection }, full), typo);

      // Act
      const problems = problemsOf({ ...(c.context ?? {}), ...(tree as Tree) });

      // Assess
      const where = `Service${renderPath([...full.slice(0, -1), typo])}`;
      expect(problems).toContain(`${where}: unknown key (did you mean "${original}"?)`);
    });

    it("rejects a wrong type", () => {
      // Prepare
      const full = [key, ...c.wrong];
      const current = getAt({ [key]: activeSection }, full);
      const tree = setAt({ [key]: activeSection }, full, wrongValueFor(current)) as Tree;

      // Act
      const problems = problemsOf({ ...(c.context ?? {}), ...tree });

      // Assess
      expect(problems.length).toBeGreaterThan(0);
      expect(problems[0]).toMatch(new RegExp(`^Service${renderPath(full).replace(/[.[\]]/g, "\\$&")}: `));
    });

    if (c.disabled === undefined) return;

    it("accepts placeholders while disabled, but not unknown keys", () => {
      // Prepare
      const disabled = merge(template[key], c.disabled);
      // A placeholder in every leaf that can hold one (the enable flag itself must stay a boolean).
      const target = c.placeholder ?? c.wrong;
      const withPlaceholder =
        target[target.length - 1] === "enable"
          ? { [key]: disabled }
          : (setAt({ [key]: disabled }, [key, ...target], "<placeholder>") as Tree);
      const section = { ...(withPlaceholder[key] as Tree), someUnknownKey: "<anything>" };

      // Act
      const problems = problemsOf({ [key]: section });

      // Assess
      expect(problems).toEqual([`Service.${key}.someUnknownKey: unknown key`]);
    });

    it("rejects unknown keys and placeholders when active", () => {
      // Prepare
      const placeholderPath = [key, ...(c.placeholder ?? [])];
      const withPlaceholder =
        c.placeholder === undefined
          ? { [key]: activeSection }
          : (setAt({ [key]: activeSection }, placeholderPath, "<placeholder>") as Tree);
      const section = { ...(withPlaceholder[key] as Tree), someUnknownKey: "<anything>" };

      // Act
      const problems = problemsOf(service(section));

      // Assess
      expect(problems).toContain(`Service.${key}.someUnknownKey: unknown key`);
      if (c.placeholder !== undefined) {
        expect(problems.some((p) => p.startsWith(`Service${renderPath(placeholderPath)}: `))).toBe(true);
      }
    });
  });
});
