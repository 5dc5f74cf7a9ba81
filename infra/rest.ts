/** The management REST API (/v4) function and its routes. */
import { api } from "./api.ts";
import { functionDefaults } from "./functions.ts";

export const restRoutes = ["GET /v4/ping"] as const;

export const restHandler = { ...functionDefaults, handler: "functions/rest/handler.handler" };

for (const route of restRoutes) api.route(route, restHandler);
