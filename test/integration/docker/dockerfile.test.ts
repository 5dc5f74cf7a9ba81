/**
 * The Dockerfile parses (no `docker` here: its instructions are read by test/helpers/dockerfile.ts),
 * builds in two stages, runs as a non-root user, copies only files that exist after
 * `npm run build`, and its HEALTHCHECK command exits 0 against a running Steward and 1 once it
 * has stopped (the command is run as written, with the test's configuration file). The
 * handbook's configuration for the container (docs/running-on-prem.md) passes `check-config` with
 * its tokens in the environment, and without them, or without a token on 0.0.0.0, is refused.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NODE_FLAGS } from "../../../bin/node-flags.mjs";
import { SUPPORTED_NODE_LINES } from "../../../local/cli/node-lines.ts";
import { type Instruction, parseDockerfile, type Stage, stagesOf } from "../../helpers/dockerfile.ts";
import { freePort } from "../../helpers/free-port.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { runSteward, type StewardProcess, spawnSteward } from "../../helpers/steward-process.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const CONFIG_IN_IMAGE = "/app/config/steward.yaml";
const instructions = parseDockerfile(readFileSync(join(ROOT, "Dockerfile"), "utf8"));
const stages = stagesOf(instructions);
const [build, runtime] = stages as [Stage, Stage];
const find = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);
const last = (stage: Stage, keyword: string): Instruction | undefined => find(stage, keyword).at(-1);

beforeAll(() => {
  // What the build stage runs, so that the runtime stage's COPY --from=build sources exist.
  const result = spawnSync(process.execPath, [join(ROOT, "bin", "bundle.mjs"), "local/cli/main.ts"], {
    cwd: ROOT,
  });
  expect(result.status, result.stderr.toString()).toBe(0);
}, 60_000);

describe("Dockerfile", () => {
  it("has a build stage running npm ci and npm run build, and a runtime stage from the same Node line, the primary one (24)", () => {
    expect(stages.map((stage) => stage.name)).toEqual(["build", "runtime"]);
    expect(build.from).toBe(`node:${SUPPORTED_NODE_LINES[0]}-bookworm-slim`);
    expect(runtime.from).toBe(build.from);
    const runs = find(build, "RUN").map((i) => i.args.join(" "));
    expect(runs).toContain("npm ci --no-audit --no-fund");
    expect(runs).toContain("npm run build");
    expect(find(runtime, "RUN").map((i) => i.args.join(" "))).toEqual(
      expect.arrayContaining([expect.stringContaining("npm ci --omit=dev")]),
    );
  });

  it("runs as a non-root user", () => {
    const user = last(runtime, "USER")?.args[0];
    expect(user).toBeDefined();
    expect(["root", "0", "0:0"]).not.toContain(user);
    const userLine = last(runtime, "USER")?.line ?? Infinity;
    for (const keyword of ["CMD", "ENTRYPOINT", "HEALTHCHECK"]) {
      expect(last(runtime, keyword)?.line).toBeGreaterThan(userLine);
    }
  });

  it("copies only files that exist after npm run build", () => {
    for (const stage of stages) {
      for (const copy of find(stage, "COPY")) {
        const sources = copy.args.slice(0, -1);
        for (const source of sources) {
          if (source === ".") continue;
          const path = copy.flags.from === "build" ? source.replace(/^\/app\//, "") : source;
          expect(existsSync(join(ROOT, path)), `${source} (line ${copy.line})`).toBe(true);
        }
      }
    }
    // The whole of dist/: the entry and the chunks it imports on demand.
    expect(find(runtime, "COPY").some((c) => c.flags.from === "build" && c.args[0] === "/app/dist")).toBe(
      true,
    );
    expect(existsSync(join(ROOT, "dist", "main.mjs"))).toBe(true);
  });

  it("exposes the default ports and starts `steward start` with Steward's node options and the mounted configuration", () => {
    expect(last(runtime, "EXPOSE")?.args).toEqual(["8181", "8081", "12398"]);
    expect(last(runtime, "ENTRYPOINT")?.args).toEqual(["node", ...NODE_FLAGS, "dist/main.mjs"]);
    expect(last(runtime, "CMD")?.args).toEqual(["start", "--config", CONFIG_IN_IMAGE]);
  });

  it("checks health with `steward healthcheck` in exec form", () => {
    const health = last(runtime, "HEALTHCHECK");
    expect(health?.args).toEqual([
      "CMD",
      "node",
      "dist/main.mjs",
      "healthcheck",
      "--config",
      CONFIG_IN_IMAGE,
    ]);
    expect(health?.flags).toMatchObject({ interval: "12s", timeout: "12s", "start-period": "30s" });
  });
});

describe("the HEALTHCHECK command", () => {
  let steward: StewardProcess | undefined;
  afterAll(() => {
    steward?.child.kill("SIGKILL");
  });

  /** The HEALTHCHECK's command as written, with the image's config path replaced by `config`. */
  function healthcheck(config: string) {
    const [, command = "", ...args] = last(runtime, "HEALTHCHECK")?.args ?? [];
    expect(command).toBe("node");
    const argv = args.map((arg) => (arg === CONFIG_IN_IMAGE ? config : arg));
    return spawnSync(process.execPath, argv, { cwd: ROOT, encoding: "utf8", timeout: 20_000 });
  }

  it("exits 0 while Steward runs and 1 once it has stopped", async () => {
    const dir = scratchDirectory("steward-docker-");
    const config = join(dir, "steward.yaml");
    writeFileSync(
      config,
      `Service:
  auditEvents:
    port: ${await freePort()}
  restServer:
    port: ${await freePort()}
  containerHealthCheck:
    enable: true
    port: ${await freePort()}
`,
    );
    steward = spawnSteward(["start", "--config", config], { cwd: dir });
    await steward.waitFor(/steward ready/);

    const healthy = healthcheck(config);
    expect(healthy.status, healthy.stderr).toBe(0);

    steward.child.kill("SIGTERM");
    expect((await steward.exited()).code).toBe(0);
    const stopped = healthcheck(config);
    expect(stopped.status).toBe(1);
    expect(stopped.stderr).toContain("did not answer");
  }, 60_000);
});

describe("the handbook's configuration for the container", () => {
  const handbook = readFileSync(join(ROOT, "docs", "running-on-prem.md"), "utf8");
  const yaml =
    /```yaml\n# steward\.yaml, mounted at \/app\/config\/steward\.yaml\n([\s\S]*?)```/.exec(handbook)?.[1] ??
    "";
  const tokens = { STEWARD_INGEST_TOKEN: "ingest-token", STEWARD_REST_TOKEN: "rest-token" };

  async function checkConfig(text: string, env: NodeJS.ProcessEnv) {
    const dir = scratchDirectory("steward-docker-config-");
    writeFileSync(join(dir, "steward.yaml"), text);
    return runSteward(["check-config", "steward.yaml"], dir, env);
  }

  it("listens on 0.0.0.0 with the tokens from the environment, and passes check-config", async () => {
    expect(yaml).toContain("host: 0.0.0.0");
    expect(yaml).toContain(`apiToken: ${["$", "{STEWARD_REST_TOKEN}"].join("")}`);

    const checked = await checkConfig(yaml, tokens);

    expect(checked.output.trim()).toBe("ok");
    expect(checked.code).toBe(0);
  });

  it("is refused with the token variable unset, or with the REST API's token taken out", async () => {
    const unset = await checkConfig(yaml, {
      STEWARD_INGEST_TOKEN: "ingest-token",
      STEWARD_REST_TOKEN: undefined,
    });
    const withoutToken = await checkConfig(
      yaml.replace(/ {4}apiToken: .*STEWARD_REST_TOKEN.*\n/, ""),
      tokens,
    );

    expect(unset.code).toBe(1);
    expect(unset.output).toContain("environment variable STEWARD_REST_TOKEN is not set");
    expect(withoutToken.code).toBe(1);
    expect(withoutToken.output).toContain(
      "Service.restServer.host: 0.0.0.0 is not a loopback address and restServer.apiToken is empty",
    );
  });
});
