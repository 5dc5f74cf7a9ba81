/**
 * ARCHITECTURE rule 1: core/ (outside core/adapters/) never imports runtime-specific libraries,
 * does no I/O of its own (file system, sockets, DNS, HTTP servers and clients of node: are
 * adapters' business), and never reaches into the adapters; the arrows point edge → use case →
 * port → adapter.
 */
import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, ROOT, sourceFiles } from "../../helpers/source-imports.ts";

const FORBIDDEN = [
  /^hono(\/|$)/,
  /^@hono\//,
  /^@aws-sdk\//,
  /^mqtt(\/|$)/,
  /^@influxdata\//,
  /^influx(db)?(-client)?(\/|$)/,
  /^hyparquet-writer(\/|$)/,
  /^(node:)?dgram$/,
  /^(node:)?fs(\/promises)?$/,
  /^(node:)?net$/,
  /^(node:)?dns(\/promises)?$/,
  /^(node:)?https?$/,
  /^(node:)?http2$/,
  /^(node:)?child_process$/,
  /^sst(\/|$)/,
];

function violations(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(join(ROOT, "core"))) {
    const path = relative(ROOT, file).split(sep).join("/");
    if (path.startsWith("core/adapters/")) continue;
    for (const specifier of importsOf(readFileSync(file, "utf8"))) {
      if (FORBIDDEN.some((pattern) => pattern.test(specifier))) found.push(`${path} imports ${specifier}`);
      if (specifier.startsWith(".") && /(^|\/)adapters(\/|$)/.test(join(path, "..", specifier))) {
        found.push(`${path} imports an adapter (${specifier})`);
      }
    }
  }
  return found;
}

describe("core import boundary", () => {
  it("finds import specifiers in every form the code uses", () => {
    const source = [
      'import { Hono } from "hono";',
      'import type { X } from "@aws-sdk/client-sqs";',
      'export { y } from "./y.ts";',
      'const m = await import("mqtt");',
      'import "node:dgram";',
      "import {\n  a,\n  b,\n} from 'hyparquet-writer';",
    ].join("\n");
    expect(importsOf(source)).toEqual([
      "hono",
      "@aws-sdk/client-sqs",
      "./y.ts",
      "mqtt",
      "node:dgram",
      "hyparquet-writer",
    ]);
  });

  it("flags forbidden libraries", () => {
    const flagged = [
      "hono/aws-lambda",
      "@aws-sdk/client-s3",
      "mqtt",
      "@influxdata/influxdb3-client",
      "hyparquet-writer",
      "node:dgram",
      "dgram",
      "node:fs",
      "node:fs/promises",
      "fs",
      "node:net",
      "node:dns",
      "node:dns/promises",
      "node:http",
      "node:https",
      "https",
      "node:child_process",
    ];
    for (const specifier of flagged) expect(FORBIDDEN.some((pattern) => pattern.test(specifier))).toBe(true);
    for (const allowed of ["valibot", "node:path", "node:os", "node:crypto", "fs-extra", "netmask"]) {
      expect(FORBIDDEN.some((pattern) => pattern.test(allowed))).toBe(false);
    }
  });

  it("holds for every file under core/ outside core/adapters/", () => {
    expect(violations()).toEqual([]);
  });
});
