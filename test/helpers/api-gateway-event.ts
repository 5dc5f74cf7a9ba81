import type { LambdaContext, LambdaEvent } from "hono/aws-lambda";

/** The API Gateway v2 event shape as Hono's Lambda adapter types it. */
type APIGatewayProxyEventV2 = Extract<LambdaEvent, { version: string; rawPath: string }>;

export interface ApiGatewayRequest {
  method: string;
  path: string;
  query?: string;
  headers?: Record<string, string>;
  body?: string;
  sourceIp?: string;
}

/** An API Gateway v2 (HTTP API, payload 2.0) event, as Lambda hands it to a handler. */
export function apiGatewayEvent(request: ApiGatewayRequest): APIGatewayProxyEventV2 {
  const domainName = "abc123.execute-api.eu-west-1.amazonaws.com";
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath: request.path,
    rawQueryString: request.query ?? "",
    headers: { host: domainName, ...request.headers },
    requestContext: {
      accountId: "123456789012",
      apiId: "abc123",
      authentication: null,
      authorizer: {},
      domainName,
      domainPrefix: "abc123",
      http: {
        method: request.method,
        path: request.path,
        protocol: "HTTP/1.1",
        sourceIp: request.sourceIp ?? "198.51.100.7",
        userAgent: "vitest",
      },
      requestId: "req-1",
      routeKey: "$default",
      stage: "$default",
      time: "22/Nov/2026:00:00:00 +0000",
      timeEpoch: Date.now(),
    },
    body: request.body ?? null,
    isBase64Encoded: false,
  };
}

export const lambdaContext = {
  awsRequestId: "req-1",
  getRemainingTimeInMillis: () => 3000,
} as unknown as LambdaContext;

/** What a handler built with hono/aws-lambda's `handle` resolves to for an API Gateway v2 event. */
export interface LambdaResult {
  statusCode: number;
  body: string;
  headers: Record<string, string>;
}
