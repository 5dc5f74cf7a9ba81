/*
 * The part of SST's platform globals (`sst.*`) that infra/ uses, typed so that `npm run
 * typecheck` checks infra/ offline. SST generates the full declarations in
 * .sst/platform/config.d.ts on `sst install`/`sst dev`, which needs the network; sst.config.ts
 * references those and is type-checked by SST itself. Keep this subset in step with the SST
 * components infra/ calls (names and argument shapes as SST v4 documents them).
 */
type SstInput<T> = T | { readonly __output: T };
type SstDuration =
  `${number} ${"second" | "seconds" | "minute" | "minutes" | "hour" | "hours" | "day" | "days"}`;
type SstSize = `${number} ${"MB" | "GB"}`;

interface SstLinkable {
  readonly urn: string;
}

interface SstFunctionArgs {
  handler: string;
  runtime?: "nodejs20.x" | "nodejs22.x" | "nodejs24.x";
  architecture?: "x86_64" | "arm64";
  memory?: SstSize;
  timeout?: SstDuration;
  environment?: Readonly<Record<string, string>>;
  link?: readonly SstLinkable[];
  /** Packages installed beside the bundle instead of bundled (files read at run time). */
  nodejs?: { install?: readonly string[] };
}

interface SstApiGatewayV2 extends SstLinkable {
  readonly url: string;
  route(route: string, handler: string | SstFunctionArgs): unknown;
}

interface SstQueue extends SstLinkable {
  readonly arn: string;
  readonly url: string;
  subscribe(
    subscriber: string | SstFunctionArgs,
    args?: { batch?: { size?: number; window?: SstDuration; partialResponses?: boolean } },
  ): unknown;
}

type SstDynamoFieldType = "string" | "number" | "binary";

declare const sst: {
  Secret: new (name: string, placeholder?: string) => SstLinkable & { readonly value: string };
  aws: {
    ApiGatewayV2: new (name: string, args?: { cors?: boolean }) => SstApiGatewayV2;
    Queue: new (
      name: string,
      args?: {
        visibilityTimeout?: SstDuration;
        dlq?: SstInput<string> | { queue: SstInput<string>; retry?: number };
        transform?: { queue?: { messageRetentionSeconds?: number } };
      },
    ) => SstQueue;
    Bucket: new (name: string) => SstLinkable & { readonly name: string };
    Dynamo: new (
      name: string,
      args: {
        fields: Readonly<Record<string, SstDynamoFieldType>>;
        primaryIndex: { hashKey: string; rangeKey?: string };
        ttl?: string;
      },
    ) => SstLinkable & { readonly name: string };
  };
};
