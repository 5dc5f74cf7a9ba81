/** Lambda entry point of the REST API: the same Hono app, behind API Gateway v2. */
import { handle } from "hono/aws-lambda";
import { Resource } from "sst";
import { lambdaRuntime } from "../lambda-runtime.ts";
import { createApp } from "./app.ts";

const { config, logger } = lambdaRuntime(Resource.StewardConfig.value);

export const handler = handle(createApp({ config: config.restServer, logger: logger.child("rest") }));
