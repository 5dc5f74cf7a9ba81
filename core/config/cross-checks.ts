/**
 * Rules that span settings, run on the typed config once every section is valid. Disabled
 * sections hold their defaults with `enable: false`, so each rule only needs the flags it names.
 */

import { topicMatches } from "../messaging/topic.ts";
import { checkListenerTls } from "./listener-tls.ts";
import { checkOpenListeners } from "./open-listeners.ts";
import { type ConfigProblem, type PathSegment, problem } from "./problems.ts";
import { checkQlikCloud } from "./qlik-cloud-checks.ts";
import type { Config } from "./schema/config.ts";
import { httpUrlRefusal } from "./schema/primitives.ts";
import { PLATFORM_ENDPOINT_KEYS } from "./schema/rest-server.ts";
import { suggestKey } from "./suggest.ts";
import { logEventsEnabled } from "./udp-pipelines.ts";
import { isHttpUrl } from "./validators.ts";

const S = "Service";

function checkTelemetry(config: Config, out: ConfigProblem[]): void {
  if (config.anonTelemetry && !config.systemInfo.enable) {
    out.push(problem([S, "anonTelemetry"], "anonymous telemetry needs systemInfo.enable: true"));
  }
  if (!config.anonTelemetry) return;
  const endpoint = config.anonTelemetryEndpoint;
  if (endpoint === "") {
    out.push(problem([S, "anonTelemetryEndpoint"], "required when anonTelemetry is true"));
  } else if (!isHttpUrl(endpoint)) {
    out.push(problem([S, "anonTelemetryEndpoint"], httpUrlRefusal(endpoint)));
  }
}

/** A Prometheus label name (labels beginning with `__` are reserved for Prometheus itself). */
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Tags every health and session record already carries; a server tag must not replace them. */
const BUILT_IN_TAGS = new Set([
  "host",
  "server_name",
  "server_description",
  "user_session_virtual_proxy",
  "user_session_host",
  "engine_started",
  "engine_version",
]);

/**
 * Server tags become time-series tags, observability attributes and scrape-endpoint labels, so
 * their names must be valid label names and must not replace built-in ones.
 */
function checkServerTags(config: Config, out: ConfigProblem[]): void {
  const { serverTagsDefinition, servers } = config.serversToMonitor;
  const defined = new Set(serverTagsDefinition);
  serverTagsDefinition.forEach((name, i) => {
    const path: PathSegment[] = [S, "serversToMonitor", "serverTagsDefinition", i];
    if (!LABEL_NAME.test(name) || name.startsWith("__")) {
      out.push(
        problem(
          path,
          `tag name "${name}" is not a valid metric label name ([a-zA-Z_][a-zA-Z0-9_]*, not starting with __)`,
        ),
      );
    } else if (BUILT_IN_TAGS.has(name)) {
      out.push(problem(path, `tag name "${name}" is built in; choose another name`));
    }
  });
  servers.forEach((server, i) => {
    const base: PathSegment[] = [S, "serversToMonitor", "servers", i, "serverTags"];
    for (const name of serverTagsDefinition) {
      if (!Object.hasOwn(server.serverTags, name)) {
        out.push(problem(base, `tag "${name}" from serverTagsDefinition is missing`));
      }
    }
    for (const name of Object.keys(server.serverTags)) {
      if (!defined.has(name)) out.push(problem([...base, name], "tag is not listed in serverTagsDefinition"));
    }
  });
}

interface AccountUse {
  readonly path: PathSegment[];
  readonly names: readonly string[];
  readonly active: boolean;
}

/** The account names the reload alerts to the observability platform fix in the configuration. */
function newRelicAccountUses(config: Config): AccountUse[] {
  const newRelic = config.incidentTool.newRelic;
  const base: PathSegment[] = [S, "incidentTool", "newRelic"];
  const uses: AccountUse[] = (["event", "log"] as const).map((target) => ({
    path: [...base, "destinationAccount", target],
    names: newRelic.destinationAccount[target],
    active: newRelic.enable,
  }));
  for (const kind of ["reloadTaskFailure", "reloadTaskAborted"] as const) {
    for (const target of ["event", "log"] as const) {
      const settings = newRelic[kind].destination[target];
      uses.push({
        path: [...base, kind, "destination", target, "sendToAccount", "always", "account"],
        names: settings.sendToAccount.always.account,
        active: newRelic.enable && settings.enable && settings.sendToAccount.always.enable,
      });
    }
  }
  return uses;
}

function checkAccounts(config: Config, out: ConfigProblem[]): void {
  const known = config.thirdPartyToolsCredentials.obsPlatform.map((a) => a.accountName);
  const rest = config.restServer;
  const logEventsActive = logEventsEnabled(config);
  const uses: AccountUse[] = [
    {
      path: [S, "restServer", "observability", "event", "destinationAccount"],
      names: rest.observability.event.destinationAccount,
      active: rest.enable && rest.endpointsEnable.observabilityEvent,
    },
    {
      path: [S, "restServer", "observability", "metric", "destinationAccount"],
      names: rest.observability.metric.destinationAccount,
      active: rest.enable && rest.endpointsEnable.observabilityMetric,
    },
    {
      path: [S, "userEvents", "sendToObsPlatform", "destinationAccount"],
      names: config.userEvents.sendToObsPlatform.destinationAccount,
      active: config.userEvents.enable && config.userEvents.sendToObsPlatform.enable,
    },
    {
      path: [S, "logEvents", "sendToObsPlatform", "destinationAccount"],
      names: config.logEvents.sendToObsPlatform.destinationAccount,
      active: logEventsActive && config.logEvents.sendToObsPlatform.enable,
    },
    {
      path: [S, "uptimeMonitor", "storeObsPlatform", "destinationAccount"],
      names: config.uptimeMonitor.storeObsPlatform.destinationAccount,
      active: config.uptimeMonitor.enable && config.uptimeMonitor.storeObsPlatform.enable,
    },
    {
      path: [S, "obsPlatform", "metric", "destinationAccount"],
      names: config.obsPlatform.metric.destinationAccount,
      active: config.obsPlatform.enable,
    },
    ...newRelicAccountUses(config),
  ];
  for (const use of uses) {
    if (!use.active) continue;
    use.names.forEach((name, i) => {
      if (known.includes(name)) return;
      const hint = suggestKey(name, known);
      out.push(
        problem(
          [...use.path, i],
          `account "${name}" is not defined in thirdPartyToolsCredentials.obsPlatform` +
            (hint === undefined ? "" : ` (did you mean "${hint}"?)`),
        ),
      );
    });
  }
}

function checkEndpointNeeds(config: Config, out: ConfigProblem[]): void {
  const rest = config.restServer;
  if (!rest.enable) return;
  const platformUsers = PLATFORM_ENDPOINT_KEYS.filter((k) => rest.endpointsEnable[k]);
  if (platformUsers.length > 0 && config.platform.host === "") {
    out.push(
      problem(
        [S, "platform", "host"],
        `required when restServer.endpointsEnable.${platformUsers.join("/")} is enabled`,
      ),
    );
  }
  if (rest.endpointsEnable.createDirTableData && config.fileOperations.tableDataDirectory === "") {
    out.push(
      problem(
        [S, "fileOperations", "tableDataDirectory"],
        "required when restServer.endpointsEnable.createDirTableData is enabled",
      ),
    );
  }
}

/** The licence monitor reads the repository at `platform.host` (and the version there unless it names a host). */
function checkLicenseMonitor(config: Config, out: ConfigProblem[]): void {
  if (!config.licenseMonitor.enable || config.platform.host !== "") return;
  out.push(problem([S, "platform", "host"], "required when licenseMonitor.enable is true"));
}

interface Listener {
  readonly name: string;
  readonly host: string;
  readonly port: number;
}

const ANY_HOST = new Set(["0.0.0.0", "::", "[::]"]);

const sameHost = (a: string, b: string) => a === b || ANY_HOST.has(a) || ANY_HOST.has(b);

/** Two enabled TCP listeners of this process on the same host and port cannot both start. */
function checkListeners(config: Config, out: ConfigProblem[]): void {
  const listeners: Listener[] = [];
  if (config.auditEvents.enable) listeners.push({ name: "auditEvents", ...config.auditEvents });
  if (config.restServer.enable) listeners.push({ name: "restServer", ...config.restServer });
  if (config.configVisualisation.enable)
    listeners.push({ name: "configVisualisation", ...config.configVisualisation });
  if (config.scrapeEndpoint.enable) listeners.push({ name: "scrapeEndpoint", ...config.scrapeEndpoint });
  if (config.containerHealthCheck.enable) {
    listeners.push({
      name: "containerHealthCheck",
      host: "127.0.0.1",
      port: config.containerHealthCheck.port,
    });
  }
  listeners.forEach((later, i) => {
    const clash = listeners.slice(0, i).find((l) => l.port === later.port && sameHost(l.host, later.host));
    if (clash !== undefined) {
      out.push(
        problem(
          [S, later.name, "port"],
          `${later.host}:${later.port} is already used by ${clash.name} (${clash.host}:${clash.port})`,
        ),
      );
    }
  });
}

/** Broker credentials and client certificate come in pairs (a disabled section holds "" for each). */
function checkMqtt(config: Config, out: ConfigProblem[]): void {
  const mqtt = config.mqttConfig;
  if (!mqtt.enable) return;
  if (mqtt.password !== "" && mqtt.username === "") {
    out.push(problem([S, "mqttConfig", "username"], "required when mqttConfig.password is set"));
  }
  const { certFile, keyFile } = mqtt.tls;
  if (certFile !== "" && keyFile === "") {
    out.push(problem([S, "mqttConfig", "tls", "keyFile"], "required when mqttConfig.tls.certFile is set"));
  }
  if (keyFile !== "" && certFile === "") {
    out.push(problem([S, "mqttConfig", "tls", "certFile"], "required when mqttConfig.tls.keyFile is set"));
  }
}

/**
 * Task starts from the broker reach the platform, so they need `platform.host`; and the start
 * topic must fall under the subscription, or its messages would never arrive.
 */
function checkBrokerTaskStarts(config: Config, out: ConfigProblem[]): void {
  const { enable, taskStartTopic, subscriptionRootTopic } = config.mqttConfig;
  if (!enable || taskStartTopic === "") return;
  if (config.platform.host === "") {
    out.push(problem([S, "platform", "host"], "required when mqttConfig.taskStartTopic is set"));
  }
  if (subscriptionRootTopic !== "" && !topicMatches(subscriptionRootTopic, taskStartTopic)) {
    out.push(
      problem(
        [S, "mqttConfig", "taskStartTopic"],
        `is not under mqttConfig.subscriptionRootTopic "${subscriptionRootTopic}": no message published to it would arrive`,
      ),
    );
  }
}

export function crossCheck(config: Config): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  checkTelemetry(config, out);
  checkServerTags(config, out);
  checkAccounts(config, out);
  checkEndpointNeeds(config, out);
  checkLicenseMonitor(config, out);
  checkListeners(config, out);
  checkOpenListeners(config, out);
  checkListenerTls(config, out);
  checkMqtt(config, out);
  checkBrokerTaskStarts(config, out);
  checkQlikCloud(config, out);
  return out;
}
