/**
 * The whole configuration tree under `Service`, one valibot schema, and the types inferred from
 * it. Sections are defined one file per concept in this folder.
 */
import * as v from "valibot";
import { auditEventsSchema } from "./audit-events.ts";
import { emailNotificationSchema } from "./email-notification.ts";
import { incidentToolSchema } from "./incident-tool.ts";
import { licenseMonitorSchema } from "./license-monitor.ts";
import { logEventsSchema } from "./log-events.ts";
import { crashFileSchema, errorTrackingSchema, loggingEntries, systemInfoSchema } from "./logging.ts";
import { obsPlatformSchema, thirdPartyToolsCredentialsSchema } from "./obs-platform.ts";
import { certSchema, chatSchema, platformSchema } from "./platform.ts";
import { platformEventsSchema } from "./platform-events.ts";
import { qlikCloudSchema } from "./qlik-cloud.ts";
import { genericUrlsSchema, qlikSenseUrlsSchema } from "./qlik-sense-urls.ts";
import { restServerSchema } from "./rest-server.ts";
import {
  configVisualisationSchema,
  containerHealthCheckSchema,
  heartbeatSchema,
  mqttConfigSchema,
  scrapeEndpointSchema,
  uptimeMonitorSchema,
} from "./self-monitoring.ts";
import { appNamesSchema, serversToMonitorSchema, userSessionsSchema } from "./servers.ts";
import { serviceMonitorSchema } from "./service-monitor.ts";
import { slackNotificationSchema } from "./slack-notification.ts";
import { startTaskFilterSchema } from "./start-task-filter.ts";
import { cloudSchema, fileOperationsSchema, keyValueStoreSchema, schedulerSchema } from "./stores.ts";
import { taskEventsSchema } from "./task-events.ts";
import { teamsNotificationSchema } from "./teams-notification.ts";
import { timeseriesdbSchema } from "./timeseriesdb.ts";
import { userEventsSchema } from "./user-events.ts";
import { webhookNotificationSchema } from "./webhook-notification.ts";

export const serviceSchema = v.object({
  ...loggingEntries,
  crashFile: crashFileSchema,
  systemInfo: systemInfoSchema,
  configVisualisation: configVisualisationSchema,
  heartbeat: heartbeatSchema,
  containerHealthCheck: containerHealthCheckSchema,
  uptimeMonitor: uptimeMonitorSchema,
  thirdPartyToolsCredentials: thirdPartyToolsCredentialsSchema,
  platformEvents: platformEventsSchema,
  userEvents: userEventsSchema,
  logEvents: logEventsSchema,
  taskEvents: taskEventsSchema,
  qlikSenseUrls: qlikSenseUrlsSchema,
  genericUrls: genericUrlsSchema,
  emailNotification: emailNotificationSchema,
  teamsNotification: teamsNotificationSchema,
  slackNotification: slackNotificationSchema,
  webhookNotification: webhookNotificationSchema,
  incidentTool: incidentToolSchema,
  cert: certSchema,
  mqttConfig: mqttConfigSchema,
  obsPlatform: obsPlatformSchema,
  scrapeEndpoint: scrapeEndpointSchema,
  timeseriesdbConfig: timeseriesdbSchema,
  errorTracking: errorTrackingSchema,
  appNames: appNamesSchema,
  userSessions: userSessionsSchema,
  serversToMonitor: serversToMonitorSchema,
  licenseMonitor: licenseMonitorSchema,
  serviceMonitor: serviceMonitorSchema,
  qlikCloud: qlikCloudSchema,
  auditEvents: auditEventsSchema,
  restServer: restServerSchema,
  fileOperations: fileOperationsSchema,
  keyValueStore: keyValueStoreSchema,
  scheduler: schedulerSchema,
  platform: platformSchema,
  startTaskFilter: startTaskFilterSchema,
  chat: chatSchema,
  cloud: cloudSchema,
});

/** The typed, fully-defaulted configuration (the tree under `Service`). */
export type Config = v.InferOutput<typeof serviceSchema>;

export type LoggingConfig = Pick<Config, "logLevel" | "fileLogging" | "logDirectory" | "anonTelemetry">;
export type CrashFileConfig = Config["crashFile"];
export type SystemInfoConfig = Config["systemInfo"];
export type ConfigVisualisationConfig = Config["configVisualisation"];
export type HeartbeatConfig = Config["heartbeat"];
export type ContainerHealthCheckConfig = Config["containerHealthCheck"];
export type UptimeMonitorConfig = Config["uptimeMonitor"];
export type ThirdPartyToolsCredentialsConfig = Config["thirdPartyToolsCredentials"];
export type ObsPlatformAccount = ThirdPartyToolsCredentialsConfig["obsPlatform"][number];
export type PlatformEventsConfig = Config["platformEvents"];
export type UserEventsConfig = Config["userEvents"];
export type LogEventsConfig = Config["logEvents"];
export type TaskEventsConfig = Config["taskEvents"];
export type UdpServerConfig =
  | UserEventsConfig["udpServerConfig"]
  | LogEventsConfig["udpServerConfig"]
  | TaskEventsConfig["udpServerConfig"];
export type QlikSenseUrlsConfig = Config["qlikSenseUrls"];
export type GenericUrlConfig = Config["genericUrls"][number];
export type EmailNotificationConfig = Config["emailNotification"];
export type TeamsNotificationConfig = Config["teamsNotification"];
export type SlackNotificationConfig = Config["slackNotification"];
export type WebhookNotificationConfig = Config["webhookNotification"];
export type NewRelicIncidentConfig = Config["incidentTool"]["newRelic"];
export type CategoriseRule = LogEventsConfig["categorise"]["rules"][number];
export type EnginePerformanceMonitorConfig = LogEventsConfig["enginePerformanceMonitor"];
export type CertConfig = Config["cert"];
export type MqttConfig = Config["mqttConfig"];
export type ObsPlatformConfig = Config["obsPlatform"];
export type ScrapeEndpointConfig = Config["scrapeEndpoint"];
export type TimeseriesdbConfig = Config["timeseriesdbConfig"];
export type ErrorTrackingConfig = Config["errorTracking"];
export type AppNamesConfig = Config["appNames"];
export type UserSessionsConfig = Config["userSessions"];
export type ServersToMonitorConfig = Config["serversToMonitor"];
export type MonitoredServerConfig = ServersToMonitorConfig["servers"][number];
export type LicenseMonitorConfig = Config["licenseMonitor"];
export type ServiceMonitorConfig = Config["serviceMonitor"];
export type QlikCloudConfig = Config["qlikCloud"];
export type QlikCloudTenantConfig = QlikCloudConfig["tenants"][number];
export type AuditEventsConfig = Config["auditEvents"];
export type AuditDestinationConfig = AuditEventsConfig["destination"];
export type RestServerConfig = Config["restServer"];
export type EndpointsEnableConfig = RestServerConfig["endpointsEnable"];
export type FileOperationsConfig = Config["fileOperations"];
export type KeyValueStoreConfig = Config["keyValueStore"];
export type SchedulerConfig = Config["scheduler"];
export type PlatformConfig = Config["platform"];
export type StartTaskFilterConfig = Config["startTaskFilter"];
export type ChatConfig = Config["chat"];
export type CloudConfig = Config["cloud"];
