/**
 * The HTTP API (API Gateway v2) every endpoint group routes on. CORS is off at the gateway: the
 * apps answer preflights and refuse foreign origins themselves, which a gateway-level CORS
 * configuration would bypass. Access logs are kept as long as the functions' logs. Every route
 * is throttled (the stage's default route settings, infra/limits.ts): beyond the limits the
 * gateway answers 429 without invoking a function.
 */
import { LOG_RETENTION } from "./functions.ts";
import { apiThrottle } from "./limits.ts";

export const api = new sst.aws.ApiGatewayV2("Api", {
  cors: false,
  accessLog: { retention: LOG_RETENTION },
  transform: {
    stage: {
      defaultRouteSettings: {
        throttlingRateLimit: apiThrottle.rateLimit,
        throttlingBurstLimit: apiThrottle.burstLimit,
      },
    },
  },
});
