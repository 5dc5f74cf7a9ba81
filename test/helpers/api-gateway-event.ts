/** API Gateway v2 (HTTP API, payload 2.0) events for invoking Lambda handlers in tests. */

export interface ApiGatewayRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  sourceIp?: string;
}

export function apiGatewayEvent(request: ApiGatewayRequest) {
  const domainName = "abc.execute-api.us-east-1.amazonaws.com";
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath: request.path,
    rawQueryString: "",
    headers: { host: domainName, ...request.headers },
    requestContext: {
      accountId: "123456789012",
      apiId: "abc",
      domainName,
      domainPrefix: "abc",
      http: {
        method: request.method,
        path: request.path,
        protocol: "HTTP/1.1",
        sourceIp: request.sourceIp ?? "198.51.100.7",
        userAgent: "test",
      },
      requestId: "r1",
      routeKey: "$default",
      stage: "$default",
      time: "01/Jan/2026:12:00:00 +0000",
      timeEpoch: Date.UTC(2026, 0, 1, 12),
    },
    ...(request.body === undefined ? {} : { body: request.body }),
    isBase64Encoded: false,
  };
}

export const lambdaContext = { awsRequestId: "r1", getRemainingTimeInMillis: () => 3000 };

export interface LambdaResult {
  statusCode: number;
  body: string;
  headers: Record<string, string>;
}
