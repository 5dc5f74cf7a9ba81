/* The resources infra/audit-ingest.ts links to the ingest function, as `Resource` sees them. */
import "sst";

declare module "sst" {
  export interface Resource {
    AuditEventQueue: { type: "sst.aws.Queue"; url: string };
    RateLimitTable: { type: "sst.aws.Dynamo"; name: string };
  }
}
