import { describe, expect, it } from "vitest";
import { categoryNames, createCategoriser } from "../../../../core/udp/categorise.ts";
import { logEventsConfig } from "./udp-fixtures.ts";

const categorise = (rules: unknown[], ruleDefault: unknown = { enable: false }, enable = true) =>
  createCategoriser(logEventsConfig({ categorise: { enable, rules, ruleDefault } }).categorise);

const rule = (overrides: Record<string, unknown>) => ({
  logLevel: ["warn", "error"],
  category: [{ name: "qs_log_category", value: "reload" }],
  filter: [{ type: "so", value: "reload" }],
  ...overrides,
});

describe("createCategoriser", () => {
  it("matches sw, ew and so filters case-sensitively on the message", () => {
    const c = categorise([
      rule({ filter: [{ type: "sw", value: "Reload" }], category: [{ name: "kind", value: "starts" }] }),
      rule({ filter: [{ type: "ew", value: "failed." }], category: [{ name: "kind", value: "ends" }] }),
      rule({ filter: [{ type: "so", value: "Engine" }], category: [{ name: "kind", value: "contains" }] }),
    ]);

    expect(c("WARN", "Reload in Engine failed.")).toEqual([
      { name: "kind", value: "starts" },
      { name: "kind", value: "ends" },
      { name: "kind", value: "contains" },
    ]);
    expect(c("WARN", "reload in engine FAILED.")).toEqual([]);
  });

  it("matches the level case-insensitively, fatal included", () => {
    const c = categorise([rule({ logLevel: ["FATAL"] })]);

    expect(c("fatal", "reload")).toEqual([{ name: "qs_log_category", value: "reload" }]);
    expect(c("Fatal", "reload")).toEqual([{ name: "qs_log_category", value: "reload" }]);
    expect(c("ERROR", "reload")).toEqual([]);
  });

  it("adds a rule's categories once even when several of its filters match", () => {
    const c = categorise([
      rule({
        filter: [
          { type: "so", value: "a" },
          { type: "so", value: "b" },
        ],
      }),
    ]);

    expect(c("warn", "a b")).toEqual([{ name: "qs_log_category", value: "reload" }]);
  });

  it("removes duplicate categories contributed by several rules", () => {
    const c = categorise([
      rule({
        category: [
          { name: "x", value: "1" },
          { name: "y", value: "2" },
        ],
      }),
      rule({
        category: [
          { name: "x", value: "1" },
          { name: "x", value: "3" },
        ],
      }),
    ]);

    expect(c("warn", "reload")).toEqual([
      { name: "x", value: "1" },
      { name: "y", value: "2" },
      { name: "x", value: "3" },
    ]);
  });

  it("answers drop when a matching drop rule is met, whatever other rules gave", () => {
    const c = categorise([rule({}), rule({ action: "drop", filter: [{ type: "sw", value: "Noise" }] })]);

    expect(c("warn", "Noise about reload")).toBe("drop");
    expect(c("warn", "a reload")).toEqual([{ name: "qs_log_category", value: "reload" }]);
  });

  it("does not drop when the drop rule's level does not match", () => {
    const c = categorise([rule({ action: "drop", logLevel: ["error"] })]);

    expect(c("warn", "reload")).toEqual([]);
  });

  it("applies the default rule only when no rule matched", () => {
    const c = categorise([rule({})], {
      enable: true,
      category: [{ name: "qs_log_category", value: "unknown" }],
    });

    expect(c("warn", "something else")).toEqual([{ name: "qs_log_category", value: "unknown" }]);
    expect(c("warn", "reload")).toEqual([{ name: "qs_log_category", value: "reload" }]);
  });

  it("gives no categories and never drops when categorisation is off", () => {
    const c = categorise([rule({ action: "drop" })], { enable: true }, false);

    expect(c("warn", "reload")).toEqual([]);
  });

  it("lists every category name the rules and the default rule can give", () => {
    const config = logEventsConfig({
      categorise: {
        enable: true,
        rules: [
          rule({ category: [{ name: "a", value: "1" }] }),
          rule({ category: [{ name: "b", value: "1" }] }),
        ],
        ruleDefault: {
          enable: true,
          category: [
            { name: "a", value: "2" },
            { name: "c", value: "3" },
          ],
        },
      },
    }).categorise;

    expect(categoryNames(config)).toEqual(["a", "b", "c"]);
  });
});
