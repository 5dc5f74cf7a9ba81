/* The resources infra/consumer.ts links to the consumer function, as `Resource` sees them. */
import "sst";

declare module "sst" {
  export interface Resource {
    AuditEventsBucket: { type: "sst.aws.Bucket"; name: string };
  }
}
