/**
 * The REST API applies the same depth limit to its JSON bodies as the ingest API: a body nested
 * deeper than 64 levels is refused with 400 naming, as a JSON pointer, where it passed them, and
 * nothing of it is stored.
 */
import { describe, expect, it } from "vitest";
import { json } from "../../../helpers/rest-app.ts";
import { restTestAppForSuite } from "../../../helpers/suite-rest-app.ts";

const t = restTestAppForSuite();

describe("the REST API's depth limit", () => {
  it("answers 400 with the pointer for a key-value body nested 100,000 levels deep", async () => {
    const body = `{"key":"k","value":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;

    const response = await t.app.request("/v4/keyvalues/deep", json("POST", body));

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      statusCode: 400,
      error: "Bad Request",
      message: `JSON nested deeper than 64 levels at /value${"/0".repeat(63)}`,
    });
    expect(await t.kv.listNamespaces()).toEqual([]);
  });
});
