/// <reference path="./.sst/platform/config.d.ts" />
// Cloud deployment (SST v4): one Lambda per endpoint group behind API Gateway v2. Resources are
// defined in infra/*.ts, one group per file; this file only imports them.
export default $config({
  app(input) {
    return {
      name: "steward",
      removal: input?.stage === "production" ? "retain" : "remove",
      protect: input?.stage === "production",
      home: "aws",
    };
  },
  async run() {
    const { api } = await import("./infra/api.ts");
    await import("./infra/rest.ts");
    await import("./infra/audit-ingest.ts");
    const { auditConsumerFunction } = await import("./infra/consumer.ts");
    const { auditEventQueue, auditEventDlq } = await import("./infra/queue.ts");
    const { qlikCloudRunQueue, qlikCloudRunDlq, qlikCloudHandOnFunction } = await import(
      "./infra/qlik-cloud.ts"
    );
    await import("./infra/alarms.ts");
    // `npx sst dev`: the on-prem agent runs beside the live functions, on the dev stage's stores.
    await import("./infra/dev.ts");
    // What the runbooks (docs/aws.md, "Alarms and runbooks") need: where to redrive from and to.
    return {
      api: api.url,
      queueArn: auditEventQueue.arn,
      deadLetterQueueUrl: auditEventDlq.url,
      deadLetterQueueArn: auditEventDlq.arn,
      consumerFunction: auditConsumerFunction.name,
      qlikCloudRunQueueArn: qlikCloudRunQueue.arn,
      qlikCloudDeadLetterQueueUrl: qlikCloudRunDlq.url,
      qlikCloudDeadLetterQueueArn: qlikCloudRunDlq.arn,
      qlikCloudHandOnFunction: qlikCloudHandOnFunction.name,
    };
  },
});
