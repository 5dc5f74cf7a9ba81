/**
 * The alert rules that ship in dashboards/prometheus/steward-rules.yml, checked by Prometheus's
 * own tool: the file is valid, the example configuration loads it, and promtool's unit tests (steward-rules.promtool.yml beside this
 * file) show every rule firing on the series that should fire it and silent on healthy ones.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { skipWithoutPrometheus } from "../../helpers/prometheus.ts";

const skip = skipWithoutPrometheus();
const ROOT = join(import.meta.dirname, "..", "..", "..");
const RULES = join(ROOT, "dashboards", "prometheus", "steward-rules.yml");
const UNIT_TESTS = join(import.meta.dirname, "steward-rules.promtool.yml");

interface Rule {
  alert: string;
  annotations?: Record<string, string>;
}

const rules = (): Rule[] =>
  (parse(readFileSync(RULES, "utf8")) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);

const promtool = (...args: string[]) => spawnSync("promtool", args, { encoding: "utf8", cwd: ROOT });

describe("Steward's alert rules", () => {
  it("each have a summary, a description and a runbook line", () => {
    for (const rule of rules()) {
      expect(Object.keys(rule.annotations ?? {}).sort(), rule.alert).toEqual([
        "description",
        "runbook",
        "summary",
      ]);
    }
  });

  it("each have a promtool unit test that expects them to fire", () => {
    const tested = new Set(
      [
        ...readFileSync(UNIT_TESTS, "utf8").matchAll(
          /alertname: (\w+)\n\s+eval_time: \S+\n\s+exp_alerts:\n/g,
        ),
      ].map((match) => match[1]),
    );
    expect(
      rules()
        .filter((rule) => !tested.has(rule.alert))
        .map((rule) => rule.alert),
    ).toEqual([]);
  });

  it.skipIf(skip)("pass promtool check rules", () => {
    const checked = promtool("check", "rules", RULES);
    expect(checked.stdout + checked.stderr).toMatch(/SUCCESS: 15 rules found/);
    expect(checked.status).toBe(0);
  });

  it.skipIf(skip)(
    "pass promtool test rules: each fires when it should and stays silent on healthy series",
    () => {
      const tested = promtool("test", "rules", UNIT_TESTS);
      expect(tested.stdout + tested.stderr, tested.stdout + tested.stderr).toMatch(/SUCCESS/);
      expect(tested.status).toBe(0);
    },
  );
});
