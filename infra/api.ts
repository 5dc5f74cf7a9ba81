/** The HTTP API (API Gateway v2) every endpoint group routes on. */
export const api = new sst.aws.ApiGatewayV2("Api");
