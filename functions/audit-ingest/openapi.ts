/**
 * The OpenAPI 3.0 description of the ingest API, served at /documentation/json. Request schemas
 * are generated from the valibot schemas the API validates with, so they cannot drift apart.
 */

import * as v from "valibot";
import { envelopeSchema, KNOWN_EVENT_TYPES, payloadSchemas } from "../../core/audit/index.ts";
import { type OpenApiSchema, toOpenApiSchema } from "../http/valibot-to-openapi.ts";

const ingestionResponseSchema = v.object({
  status: v.picklist(["accepted", "error"]),
  receivedAt: v.pipe(v.string(), v.metadata({ format: "date-time" })),
  outcome: v.picklist(["processed", "dropped", "error"]),
  reason: v.exactOptional(v.string()),
  details: v.exactOptional(v.looseObject({})),
});

const connectionTestSchema = v.object({
  status: v.picklist(["ok"]),
  message: v.string(),
  timestamp: v.pipe(v.string(), v.metadata({ format: "date-time" })),
  serverVersion: v.exactOptional(v.string()),
  auditClientVersion: v.exactOptional(v.string()),
  compatible: v.exactOptional(v.boolean()),
});

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const ingestion = (description: string) => ({
  description,
  content: { "application/json": { schema: ref("IngestionResponse") } },
});
const versionHeader = {
  name: "X-Audit-Client-Version",
  in: "header",
  required: false,
  description: "Audit client version (semver). Alias: X-Audit-QS-Version. Several values: the first counts.",
  schema: { type: "string" },
};

export function buildIngestOpenApi(serverVersion: string): Record<string, unknown> {
  const payloadComponents: Record<string, OpenApiSchema> = {};
  for (const [type, schema] of Object.entries(payloadSchemas)) {
    payloadComponents[`Payload_${type.replaceAll(".", "_")}`] = {
      ...toOpenApiSchema(schema),
      description: `payload of type ${type}`,
    };
  }
  const envelope = toOpenApiSchema(envelopeSchema);
  envelope.description =
    `Audit event envelope. type: one of ${KNOWN_EVENT_TYPES.join(", ")} or event.<name>. ` +
    "eventId and payload.context.appId must be UUIDs; per-type payload schemas are the Payload_* components.";
  return {
    openapi: "3.0.3",
    info: { title: "Steward audit event ingest API", version: serverVersion },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: {
        AuditEventEnvelope: envelope,
        IngestionResponse: toOpenApiSchema(ingestionResponseSchema),
        ConnectionTestResponse: toOpenApiSchema(connectionTestSchema),
        ...payloadComponents,
      },
    },
    security: [{ bearer: [] }, {}],
    paths: {
      "/api/v1/audit-event": {
        post: {
          operationId: "postAuditEvent",
          summary: "Accept one audit event envelope",
          parameters: [versionHeader],
          requestBody: {
            required: true,
            content: { "application/json": { schema: ref("AuditEventEnvelope") } },
          },
          responses: {
            "202": ingestion("Accepted: the event is in the queue"),
            "400": ingestion(
              "Malformed JSON, JSON nested deeper than 64 levels, or envelope schema violated (details.errors[].instancePath)",
            ),
            "401": ingestion("Token configured and missing or wrong"),
            "403": ingestion("Browser Origin not allowed"),
            "413": ingestion(
              'Body larger than maxBodyBytes (reason "Request body too large"), or an event larger than the event queue can ever hold (reason "Event larger than the event queue can ever hold: …"); do not retry',
            ),
            "415": ingestion("Content type is not JSON"),
            "422": ingestion("Content rejected, or incompatible client version"),
            "429": ingestion("Rate limit exceeded; see Retry-After"),
            "500": ingestion("Unexpected server-side failure"),
            "503": ingestion("Event queue full or unavailable; retry after about 30 s"),
          },
        },
        options: {
          operationId: "preflightAuditEvent",
          summary: "CORS preflight",
          security: [],
          responses: { "204": { description: "Preflight answered" }, "403": ingestion("Origin not allowed") },
        },
      },
      "/api/v1/test-connection": {
        get: {
          operationId: "testConnection",
          summary: "Check reachability, credentials and version compatibility",
          parameters: [versionHeader],
          responses: {
            "200": {
              description: "Reachable",
              content: { "application/json": { schema: ref("ConnectionTestResponse") } },
            },
            "401": ingestion("Token configured and missing or wrong"),
            "429": ingestion("Rate limit exceeded; see Retry-After"),
          },
        },
      },
    },
  };
}
