/* The resources infra/qlik-cloud.ts links to the Qlik Cloud functions, as `Resource` sees them
   (ScheduleTable, which the polling function's lease uses, is declared beside the REST function's). */
import "sst";

declare module "sst" {
  export interface Resource {
    QlikCloudTable: { type: "sst.aws.Dynamo"; name: string };
    QlikCloudRunQueue: { type: "sst.aws.Queue"; url: string };
  }
}
