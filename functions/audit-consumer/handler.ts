/**
 * Lambda entry point of the audit queue consumer (SQS → this function, partial batch
 * responses). Linked resources and the config secret are read here and only here; writers are
 * chosen once per cold start. An invalid configuration fails the cold start loudly: the
 * messages stay in the queue and reach the dead-letter queue rather than being dropped.
 */
import { S3Client } from "@aws-sdk/client-s3";
import { Resource } from "sst";
import { ConfigError, checkConfigText } from "../../core/config/index.ts";
import { selectDestinations } from "../../core/destinations/select-destinations.ts";
import { consoleSink } from "../../core/logging/console-sink.ts";
import { createLogger } from "../../core/logging/logger.ts";
import { systemClock } from "../../core/system-clock.ts";
import { cloudDestinationAdapters } from "./cloud-destinations.ts";
import { createAuditConsumer } from "./consumer.ts";

const parsed = checkConfigText(Resource.StewardConfig.value, "steward.yaml");
if (!parsed.ok) throw new ConfigError(parsed.problems);
const config = parsed.config;

const logger = createLogger({ level: config.logLevel, sinks: [consoleSink()] }).child("audit-consumer");

const destinations = selectDestinations(
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
  writers: destinations.map((destination) => destination.writer),
  logger,
  clock: systemClock,
});
