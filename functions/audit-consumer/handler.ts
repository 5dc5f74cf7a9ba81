/**
 * Lambda entry point of the audit queue consumer (SQS → this function, partial batch
 * responses). Linked resources and the config secret are read here and only here; writers are
 * chosen once per cold start. An invalid configuration fails the cold start loudly: the
 * messages stay in the queue and reach the dead-letter queue rather than being dropped.
 */
import { S3Client } from "@aws-sdk/client-s3";
import { Resource } from "sst";
import { selectDestinations } from "../../core/destinations/index.ts";
import { systemClock } from "../../core/system-clock.ts";
import { lambdaRuntime } from "../lambda-runtime.ts";
import { cloudDestinationAdapters } from "./cloud-destinations.ts";
import { createAuditConsumer } from "./consumer.ts";

const runtime = lambdaRuntime(Resource.StewardConfig.value);
const config = runtime.config;
const logger = runtime.logger.child("audit-consumer");

const selected = selectDestinations(
  config.auditEvents.destination,
  config.timeseriesdbConfig,
  cloudDestinationAdapters({
    s3: new S3Client({}),
    bucket: Resource.AuditEventsBucket.name,
    bucketPrefix: config.cloud.bucketPrefix,
    logger,
  }),
);

export const handler = createAuditConsumer({
  destinations: selected.map(({ destination }) => destination),
  logger,
  clock: systemClock,
});
