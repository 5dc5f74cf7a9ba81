import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  componentLabel,
  installSstStub,
  type RecordedResource,
  type SstStub,
} from "../../helpers/sst-stub.ts";

describe("infra/audit-ingest.ts", () => {
  let stub: SstStub;

  beforeAll(async () => {
    stub = installSstStub("test");
    // Computed specifier: infra/ is outside the main tsconfig (its types come from .sst/platform).
    const modulePath = "../../../infra/audit-ingest.ts";
    await import(modulePath);
  });
  afterAll(() => stub.uninstall());

  const linked = (resources: RecordedResource[]) => resources.map(componentLabel);

  it("defines the event queue with a dead-letter queue after 5 receives", () => {
    const queue = stub.find("aws.Queue", "AuditEventQueue");
    stub.find("aws.Queue", "AuditEventDlq");

    expect(queue.args).toMatchObject({ dlq: { queue: "aws.Queue:AuditEventDlq.arn", retry: 5 } });
  });

  it("defines the rate-limit table keyed by pk with expiresAt as TTL attribute", () => {
    expect(stub.find("aws.Dynamo", "RateLimitTable").args).toEqual({
      fields: { pk: "string" },
      primaryIndex: { hashKey: "pk" },
      ttl: "expiresAt",
    });
  });

  it("routes the ingest operations to one ingest function, by its ARN", () => {
    const api = stub.find("aws.ApiGatewayV2", "Api");
    const routes = new Map(
      api.calls.filter((call) => call.method === "route").map((call) => [call.args[0], call.args[1]]),
    );

    expect([...routes.keys()]).toEqual([
      "POST /api/v1/audit-event",
      "OPTIONS /api/v1/audit-event",
      "GET /api/v1/test-connection",
    ]);
    expect(new Set(routes.values())).toEqual(new Set(["aws.Function:AuditIngest.arn"]));
  });

  it("runs the ingest handler on Node 24, arm64, linked to config, queue and table", () => {
    const fn = stub.find("aws.Function", "AuditIngest").args as {
      handler: string;
      runtime: string;
      link: RecordedResource[];
    };
    expect(fn).toMatchObject({
      handler: "functions/audit-ingest/handler.handler",
      runtime: "nodejs24.x",
      architecture: "arm64",
      logging: { retention: "1 month" },
    });
    expect(linked(fn.link)).toEqual([
      "Secret StewardConfig",
      "aws.Queue AuditEventQueue",
      "aws.Dynamo RateLimitTable",
    ]);
  });
});
