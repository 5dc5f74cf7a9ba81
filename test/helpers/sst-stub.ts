/**
 * Evaluates sst.config.ts offline: installs recording fakes for SST's globals ($config, $app,
 * $interpolate, sst.*, sst.x.*) and the Pulumi AWS provider global (aws.*), so a test can run
 * `app()` and `run()` and assert which resources, routes, links, subscriptions, alarms and dev
 * commands the infrastructure defines, without AWS credentials or a deploy. SST components record
 * as "aws.Queue", "x.DevCommand", "Secret"; Pulumi AWS resources as "pulumi.aws.cloudwatch.MetricAlarm".
 * An output reads as the string "<kind>:<name>.<property>" (`.name` too: a table's or function's
 * name is an output); `nodes` outputs one level deeper ("aws.Queue:AuditEventDlq.nodes.queue.name").
 * A component passed on (in `link: [...]`) is named by `componentLabel(component)`; what linking
 * it gives a function, as `sst.Linkable.wrap` redefined it for its kind, by `stub.linkOf(component)`.
 */

export interface RecordedCall {
  method: string;
  args: unknown[];
}

export interface RecordedResource {
  /** Component path, e.g. "aws.ApiGatewayV2" or "Secret". */
  kind: string;
  name: string;
  args: unknown;
  calls: RecordedCall[];
}

/** What linking a component gives a function: the properties its code reads, the grants it includes. */
export interface LinkDefinition {
  properties: Record<string, unknown>;
  include?: unknown[];
}

export interface SstStub {
  resources: RecordedResource[];
  find(kind: string, name: string): RecordedResource;
  /** The link `sst.Linkable.wrap` defined for the component's kind; undefined when SST's own applies. */
  linkOf(component: unknown): LinkDefinition | undefined;
  uninstall(): void;
}

const RECORD = Symbol("recorded resource");

/** "aws.Queue AuditEventQueue" for a component infra code holds (e.g. an entry of `link`). */
export function componentLabel(component: unknown): string {
  const record = (component as { [RECORD]?: RecordedResource })[RECORD];
  if (record === undefined) throw new Error(`not a recorded SST component: ${String(component)}`);
  return `${record.kind} ${record.name}`;
}

/** Methods that components expose and infra files call; everything else reads as an output. */
const METHODS = new Set(["route", "subscribe", "addRoute", "addSubscriber", "getSSTLink"]);
const GLOBALS = [
  "$config",
  "$app",
  "$dev",
  "$interpolate",
  "$concat",
  "$jsonStringify",
  "sst",
  "aws",
] as const;

/** `component.nodes.queue.name` → "<kind>:<name>.nodes.queue.name". */
function nodesOutput(prefix: string): unknown {
  return new Proxy(
    {},
    {
      get: (_target, node) =>
        typeof node !== "string"
          ? undefined
          : new Proxy(
              {},
              {
                get: (_inner, prop) =>
                  typeof prop === "string" ? `${prefix}.nodes.${node}.${prop}` : undefined,
              },
            ),
    },
  );
}

/** The kind a stub constructor records (`sst.aws.Dynamo` → "aws.Dynamo"), for `Linkable.wrap`. */
const KIND = Symbol("component kind");

export function installSstStub(stage = "test"): SstStub {
  const resources: RecordedResource[] = [];
  const linkWraps = new Map<string, (component: unknown) => LinkDefinition>();
  const scope = globalThis as Record<string, unknown>;
  const saved = new Map(GLOBALS.map((name) => [name, scope[name]]));

  const component = (kind: string) => {
    function Component(name: string, args?: unknown) {
      const record: RecordedResource = { kind, name, args, calls: [] };
      resources.push(record);
      return new Proxy(record, {
        get(target, prop) {
          if (prop === RECORD) return target;
          if (typeof prop === "symbol" || prop === "then") return undefined;
          if (prop === "kind" || prop === "args" || prop === "calls") return target[prop];
          if (prop === "nodes") return nodesOutput(`${kind}:${name}`);
          if (METHODS.has(prop)) {
            return (...callArgs: unknown[]) => {
              target.calls.push({ method: prop, args: callArgs });
              return component(`${kind}.${prop}`)(`${name}.${prop}`, callArgs);
            };
          }
          return `${kind}:${name}.${prop}`;
        },
      });
    }
    return Object.assign(Component, { [KIND]: kind });
  };

  const namespace = (prefix: string): unknown =>
    new Proxy(
      {},
      {
        get: (_target, prop) =>
          typeof prop === "string" ? component(prefix ? `${prefix}.${prop}` : prop) : undefined,
      },
    );
  /** `aws.cloudwatch.MetricAlarm` → component "pulumi.aws.cloudwatch.MetricAlarm". */
  const provider = (prefix: string): unknown =>
    new Proxy(
      {},
      {
        get: (_target, prop) => (typeof prop === "string" ? namespace(`${prefix}.${prop}`) : undefined),
      },
    );

  scope.$config = (config: unknown) => config;
  scope.$app = { name: "steward", stage };
  scope.$dev = false;
  scope.$interpolate = (strings: TemplateStringsArray, ...values: unknown[]) =>
    strings.reduce(
      (out, part, index) => out + part + (index < values.length ? String(values[index]) : ""),
      "",
    );
  scope.$concat = (...parts: unknown[]) => parts.map(String).join("");
  scope.$jsonStringify = (value: unknown) => JSON.stringify(value);
  const Linkable = Object.assign(component("Linkable"), {
    wrap(cls: { [KIND]?: string }, define: (component: unknown) => LinkDefinition) {
      if (cls[KIND] === undefined) throw new Error("Linkable.wrap: not a stub component class");
      linkWraps.set(cls[KIND], define);
    },
  });
  const sstNamespaces: Record<string, unknown> = { aws: namespace("aws"), x: namespace("x"), Linkable };
  scope.sst = new Proxy(sstNamespaces, {
    get: (target, prop) =>
      typeof prop !== "string" ? undefined : prop in target ? target[prop] : component(prop),
  });
  scope.aws = provider("pulumi.aws");

  return {
    resources,
    find(kind, name) {
      const found = resources.find((resource) => resource.kind === kind && resource.name === name);
      if (found === undefined) {
        const known = resources.map((resource) => `${resource.kind} ${resource.name}`).join(", ");
        throw new Error(`no ${kind} named ${name}; defined: ${known}`);
      }
      return found;
    },
    linkOf(linked) {
      const record = (linked as { [RECORD]?: RecordedResource })[RECORD];
      if (record === undefined) throw new Error(`not a recorded SST component: ${String(linked)}`);
      return linkWraps.get(record.kind)?.(linked);
    },
    uninstall() {
      for (const [name, value] of saved) {
        if (value === undefined) delete scope[name];
        else scope[name] = value;
      }
    },
  };
}

interface SstAppConfig {
  app(input: { stage: string }): Record<string, unknown>;
  run(): Promise<Record<string, unknown>>;
}

/**
 * Loads sst.config.ts under the stub and runs it; returns the app settings and outputs. When it
 * throws (a deploy SST would stop), the stub is uninstalled before the error is passed on.
 */
export async function runSstConfig(stage = "test"): Promise<{
  stub: SstStub;
  app: Record<string, unknown>;
  outputs: Record<string, unknown>;
}> {
  const stub = installSstStub(stage);
  // A computed specifier keeps tsconfig.json's program out of sst.config.ts and infra/: they are
  // checked against SST's declarations in `.sst/platform` by tsconfig.infra.json instead.
  const configPath = "../../sst.config.ts";
  try {
    const module = (await import(configPath)) as { default: SstAppConfig };
    const app = module.default.app({ stage });
    const outputs = await module.default.run();
    return { stub, app, outputs };
  } catch (error) {
    stub.uninstall();
    throw error;
  }
}
