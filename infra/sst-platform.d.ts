/*
 * The part of SST's platform globals (`sst.*`, and the Pulumi AWS provider as `aws.*`) that infra/ uses, typed so that `npm run
 * typecheck` checks infra/ offline. SST generates the full declarations in
 * .sst/platform/config.d.ts on `sst install`/`sst dev`, which needs the network; sst.config.ts
 * references those and is type-checked by SST itself. Keep this subset in step with the SST
 * components infra/ calls (names and argument shapes as SST v4 documents them).
 */
type SstInput<T> = T | { readonly __output: T };
type SstDuration =
  `${number} ${"second" | "seconds" | "minute" | "minutes" | "hour" | "hours" | "day" | "days"}`;
type SstSize = `${number} ${"MB" | "GB"}`;
type SstRetention =
  | "1 day"
  | "1 week"
  | "2 weeks"
  | "1 month"
  | "3 months"
  | "6 months"
  | "1 year"
  | "forever";

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
  logging?: false | { retention?: SstRetention; format?: "text" | "json" };
  nodejs?: {
    format?: "esm" | "cjs";
    minify?: boolean;
    splitting?: boolean;
    sourcemap?: boolean;
    install?: readonly string[];
    esbuild?: { external?: readonly string[]; keepNames?: boolean; target?: string };
  };
}

interface SstFunction extends SstLinkable {
  readonly arn: string;
  readonly name: string;
}

interface SstApiGatewayV2 extends SstLinkable {
  readonly url: string;
  /** `handler`: a handler path, function arguments, or the ARN of a function (shared by routes). */
  route(route: string, handler: string | SstFunctionArgs): unknown;
}

interface SstQueue extends SstLinkable {
  readonly arn: string;
  readonly url: string;
  readonly nodes: { readonly queue: { readonly name: string; readonly arn: string } };
  subscribe(
    subscriber: string | SstFunctionArgs,
    args?: { batch?: { size?: number; window?: SstDuration; partialResponses?: boolean } },
  ): unknown;
}

type SstDynamoFieldType = "string" | "number" | "binary";

declare const sst: {
  Secret: new (name: string, placeholder?: string) => SstLinkable & { readonly value: string };
  x: {
    DevCommand: new (
      name: string,
      args: {
        link?: readonly SstLinkable[];
        environment?: Readonly<Record<string, string>>;
        dev?: { command?: string; directory?: string; autostart?: boolean; title?: string };
      },
    ) => unknown;
  };
  aws: {
    Function: new (name: string, args: SstFunctionArgs) => SstFunction;
    SnsTopic: new (name: string) => SstLinkable & { readonly arn: string; readonly name: string };
    ApiGatewayV2: new (
      name: string,
      args?: { cors?: boolean; accessLog?: { retention?: SstRetention } },
    ) => SstApiGatewayV2;
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

/** The Pulumi AWS provider's resources infra/ creates directly (@pulumi/aws names and arguments). */
declare const aws: {
  cloudwatch: {
    MetricAlarm: new (
      name: string,
      args: {
        alarmDescription?: string;
        namespace: string;
        metricName: string;
        dimensions?: Readonly<Record<string, string>>;
        statistic: "SampleCount" | "Average" | "Sum" | "Minimum" | "Maximum";
        period: number;
        evaluationPeriods: number;
        threshold: number;
        comparisonOperator:
          | "GreaterThanOrEqualToThreshold"
          | "GreaterThanThreshold"
          | "LessThanThreshold"
          | "LessThanOrEqualToThreshold";
        treatMissingData?: "missing" | "ignore" | "breaching" | "notBreaching";
        alarmActions?: readonly string[];
        okActions?: readonly string[];
      },
    ) => { readonly arn: string };
  };
  sns: {
    TopicSubscription: new (
      name: string,
      args: { topic: string; protocol: "email" | "sqs" | "lambda" | "https"; endpoint: string },
    ) => unknown;
  };
};
