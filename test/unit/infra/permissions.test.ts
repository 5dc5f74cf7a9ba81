/**
 * Each function may do exactly what its code does in AWS. The expected grants are derived from
 * the code: the AWS SDK commands in what each handler reaches (test/helpers/aws-sdk-commands.ts),
 * each on the resource the adapter that sends it is handed, plus what the queue subscription's
 * poller does in the consumer's name. A command added without its grant, or a grant left behind
 * by a command removed, fails here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReachedCode, reachedFrom, type SdkCommand } from "../../helpers/aws-sdk-commands.ts";
import { componentLabel, type RecordedResource, runSstConfig, type SstStub } from "../../helpers/sst-stub.ts";

const root = path.resolve(import.meta.dirname, "../../..");

/** The linked resource each adapter is handed by the handlers (functions/*\/handler.ts), as an ARN output. */
const RESOURCE_OF_ADAPTER: Record<string, string> = {
  "core/adapters/aws/dynamo-rate-limit-store.ts": "aws.Dynamo:RateLimitTable.arn",
  "core/adapters/aws/dynamo-key-value-table.ts": "aws.Dynamo:KeyValueTable.arn",
  "core/adapters/aws/dynamo-schedule-store.ts": "aws.Dynamo:ScheduleTable.arn",
  "core/adapters/aws/dynamo-schedule-lease.ts": "aws.Dynamo:ScheduleTable.arn",
  "core/adapters/aws/sqs-event-queue.ts": "aws.Queue:AuditEventQueue.arn",
  "core/adapters/aws/sqs-cloud-run-queue.ts": "aws.Queue:QlikCloudRunQueue.arn",
  "core/adapters/aws/dynamo-cloud-run-inbox.ts": "aws.Dynamo:QlikCloudTable.arn",
  "core/adapters/aws/dynamo-cloud-cursor-store.ts": "aws.Dynamo:QlikCloudTable.arn",
  // Objects, not the bucket: the store only reads and writes keys.
  "core/adapters/aws/s3-object-store.ts": "aws.Bucket:AuditEventsBucket.arn/*",
};

/** IAM names a few actions unlike the SDK command that needs them. */
const IAM_ACTION: Record<string, string> = { "s3:ListObjectsV2": "s3:ListBucket" };

/**
 * Commands in methods a function's code reaches but never calls: the audit destinations only put
 * objects (ObjectStore.get and list serve the tests); checked below, so that a destination that
 * starts reading makes this test fail until the grant is added.
 */
const NEVER_CALLED: Record<string, string[]> = {
  AuditConsumer: ["s3-object-store.ts GetObject", "s3-object-store.ts ListObjectsV2"],
};

/** What Lambda's poller of a queue subscription needs from the function's role (AWSLambdaSQSQueueExecutionRole). */
const QUEUE_POLLER_ACTIONS = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"];

interface Permission {
  effect?: string;
  actions: string[];
  resources: string[];
}

const iamAction = ({ service, command }: SdkCommand) =>
  IAM_ACTION[`${service}:${command}`] ?? `${service}:${command}`;

describe("IAM grants of each function", () => {
  let stub: SstStub;
  const reached = new Map<string, ReachedCode>();

  beforeAll(async () => {
    ({ stub } = await runSstConfig("production"));
    for (const fn of functions()) {
      const handler = (fn.args as { handler: string }).handler.replace(/\.\w+$/, ".ts");
      reached.set(fn.name, await reachedFrom(handler, root));
    }
  }, 60_000);
  afterAll(() => stub.uninstall());

  const functions = () => stub.resources.filter((resource) => resource.kind === "aws.Function");

  /** "<action> on <resource>" for every command `name`'s code sends and every queue it is subscribed to. */
  function expectedGrants(name: string): string[] {
    const commands = reached.get(name)?.commands ?? [];
    const fromCode = commands
      .filter((command) => !NEVER_CALLED[name]?.includes(`${path.basename(command.file)} ${command.command}`))
      .map((command) => {
        const resource = RESOURCE_OF_ADAPTER[command.file];
        if (resource === undefined)
          throw new Error(`${command.file} sends ${command.command}: on which resource?`);
        return `${iamAction(command)} on ${resource}`;
      });
    const fromSubscriptions = stub.resources.flatMap((queue) =>
      queue.calls
        .filter((call) => call.method === "subscribe" && call.args[0] === `aws.Function:${name}.arn`)
        .flatMap(() => QUEUE_POLLER_ACTIONS.map((action) => `${action} on ${queue.kind}:${queue.name}.arn`)),
    );
    return [...new Set([...fromCode, ...fromSubscriptions])].sort();
  }

  function grants(fn: RecordedResource): string[] {
    const permissions = (fn.args as { permissions?: Permission[] }).permissions ?? [];
    return permissions
      .flatMap(({ actions, resources }) =>
        actions.flatMap((action) => resources.map((r) => `${action} on ${r}`)),
      )
      .sort();
  }

  it.each(["AuditIngest", "Rest", "AuditConsumer", "QlikCloudWebhook", "QlikCloudPoll", "QlikCloudHandOn"])(
    "%s may do exactly what its code sends, on the resources it sends it to",
    (name) => {
      const fn = stub.find("aws.Function", name);
      const permissions = (fn.args as { permissions?: Permission[] }).permissions ?? [];

      expect(grants(fn)).toEqual(expectedGrants(name));
      for (const permission of permissions) {
        expect(permission.effect ?? "allow").toBe("allow");
        expect(permission.actions.join(" ")).not.toContain("*");
      }
    },
  );

  it("derives the expected grants from commands the code holds (the ingest function sends, counts and nothing else)", () => {
    expect(expectedGrants("AuditIngest")).toEqual([
      "dynamodb:UpdateItem on aws.Dynamo:RateLimitTable.arn",
      "sqs:SendMessage on aws.Queue:AuditEventQueue.arn",
    ]);
    for (const [name, skipped] of Object.entries(NEVER_CALLED)) {
      const found = (reached.get(name)?.commands ?? []).map((c) => `${path.basename(c.file)} ${c.command}`);
      expect(found).toEqual(expect.arrayContaining(skipped));
    }
  });

  it("the consumer's code never reads or lists the objects it writes", () => {
    const files = reached.get("AuditConsumer")?.files ?? [];
    const readers = files.filter((file) =>
      /\bstores?\.(get|list)\(|objectStoreFor\([^)]*\)\.(get|list)\(/.test(
        readFileSync(path.join(root, file), "utf8"),
      ),
    );

    expect(files).toContain("core/destinations/table-file-destination.ts");
    expect(readers).toEqual([]);
  });

  it("links grant nothing: a linked table, queue or bucket hands a function its name or URL only", () => {
    for (const fn of functions()) {
      for (const linked of (fn.args as { link: unknown[] }).link) {
        const label = componentLabel(linked);
        // SST's secret link carries the value and no grant; it is not redefined.
        if (label.startsWith("Secret ")) continue;
        const definition = stub.linkOf(linked);
        expect(definition, label).toBeDefined();
        expect(definition?.include ?? [], label).toEqual([]);
        expect(Object.keys(definition?.properties ?? {}), label).toEqual([
          label.startsWith("aws.Queue ") ? "url" : "name",
        ]);
      }
    }
  });
});
