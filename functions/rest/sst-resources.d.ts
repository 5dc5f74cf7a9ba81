/* The resources infra/rest.ts links to the REST function, as `Resource` sees them. */
import "sst";

declare module "sst" {
  export interface Resource {
    KeyValueTable: { type: "sst.aws.Dynamo"; name: string };
    ScheduleTable: { type: "sst.aws.Dynamo"; name: string };
    RateLimitTable: { type: "sst.aws.Dynamo"; name: string };
  }
}
