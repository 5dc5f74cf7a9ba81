import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { checkConfigText, parseConfig, renderTemplate } from "../../../../core/config/index.ts";
import { envRef } from "./helpers.ts";

/** Small deterministic PRNG (mulberry32) so that a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_VALUES: unknown[] = [
  null,
  "",
  "<placeholder>",
  -1,
  0,
  1.5,
  true,
  "true",
  [],
  [null],
  {},
  { x: 1 },
  envRef("MISSING"),
];

/** Replaces random nodes of the tree with odd values (and occasionally flips enable flags on). */
function mutate(tree: unknown, next: () => number): unknown {
  if (Array.isArray(tree)) return tree.map((item) => mutate(item, next));
  if (typeof tree !== "object" || tree === null) {
    return next() < 0.05 ? ODD_VALUES[Math.floor(next() * ODD_VALUES.length)] : tree;
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tree)) {
    if (key === "enable" && next() < 0.3) out[key] = true;
    else out[key] = mutate(value, next);
  }
  if (next() < 0.02) out.unexpectedKey = "x";
  return out;
}

describe("robustness", () => {
  it("never throws and always answers ok or problems for mutated configs", () => {
    // Prepare
    const template = (parse(renderTemplate()) as { Service: unknown }).Service;

    for (let seed = 1; seed <= 300; seed++) {
      // Act
      const result = parseConfig({ Service: mutate(template, random(seed)) }, {});

      // Assess
      if (!result.ok) {
        expect(result.problems.length, `seed ${seed}`).toBeGreaterThan(0);
        for (const p of result.problems) expect(p.path, `seed ${seed}`).toMatch(/^Service/);
      }
    }
  });

  it("never throws on arbitrary text", () => {
    // Prepare
    const next = random(7);
    const alphabet = "Service:{}[]-: \n\t#&*!|>'\"%@`abc123";

    for (let i = 0; i < 200; i++) {
      const text = Array.from({ length: 60 }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");

      // Act / Assess
      expect(() => checkConfigText(text, "random.yaml", {})).not.toThrow();
    }
  });
});
