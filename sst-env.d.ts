/* Resources linked to Steward's functions, as `Resource` from "sst" sees them. SST generates this
   file on `sst dev`/`deploy`; it is kept by hand here because neither can run offline. */
import "sst";

declare module "sst" {
  export interface Resource {
    StewardConfig: { type: "sst.sst.Secret"; value: string };
    AuditEventQueue: { type: "sst.aws.Queue"; url: string };
    RateLimitTable: { type: "sst.aws.Dynamo"; name: string };
    AuditEventsBucket: { type: "sst.aws.Bucket"; name: string };
  }
}
