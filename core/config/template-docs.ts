/**
 * One line of documentation per setting, used by the template (`steward init-config`). Keys are
 * dotted paths under `Service` (`[]` marks list items); a key may be a path suffix shared by
 * several sections (e.g. `messageQueue.maxSize`), the longest matching key wins.
 */
/** `${NAME}` written without tripping the "template placeholder in a string" lint. */
import { LISTENER_TLS_SECTIONS } from "./listener-tls.ts";
import { serviceSchema } from "./schema/config.ts";
import { schemaAt } from "./schema-walk.ts";

export const envRef = (name: string) => ["$", "{", name, "}"].join("");

const ENV_REF = envRef("ENV_NAME");

/**
 * The table, built when asked for: as a plain constant, its `${ENV_REF}` lines would keep it (and
 * its 27 kB) in every bundle that imports the config, the Lambda functions included, where no
 * template is ever printed.
 */
export const settingDocs = (): Readonly<Record<string, string>> => ({
  // ---- top level, logging, crash files ----
  logLevel: "Console/file log level: silly, debug, verbose, info, warn or error (decreasing detail).",
  fileLogging: "Also log to daily files under logDirectory.",
  logDirectory: "Subdirectory (of the working directory) for log files.",
  anonTelemetry:
    "Share anonymous usage data (version, platform, enabled features, instance id) every 12 h; off by default. Needs systemInfo.enable: true and anonTelemetryEndpoint.",
  anonTelemetryEndpoint:
    "http(s) URL the anonymous telemetry is POSTed to (required when anonTelemetry is true).",
  crashFile: "Crash dump files written when the process dies of an unexpected error.",
  "crashFile.enable": "Master switch for crash dump files.",
  "crashFile.crashFileDirectory": "Directory for dumps; relative paths resolve from the working directory.",
  "crashFile.crashFileCreateJson": "Create a machine-readable JSON dump.",
  "crashFile.crashFileCreateText": "Create a plain-text dump.",
  systemInfo: "Host information gathering.",
  "systemInfo.enable":
    "Gather host information (from Node's os module only, no OS commands) for the start-up banner; telemetry needs it.",
  errorTracking: "Counting of the service's own errors.",
  "errorTracking.enable": "Master switch: when false, counting, daily summary and database writes all stop.",
  "errorTracking.logSummary.enable": "Log the day's error counts per type and server once, at midnight UTC.",
  "errorTracking.timeseriesdb.enable": "Write individual error events to the time-series database.",
  "errorTracking.timeseriesdb.measurementName": "Measurement name for errors.",

  // ---- agent self-monitoring ----
  configVisualisation: "Web UI showing the running configuration.",
  "configVisualisation.enable": "Show the configuration in a web UI.",
  "configVisualisation.host": "Listen host name or IP (localhost keeps it private).",
  "configVisualisation.port": "Listen port; change it if 3100 is taken.",
  "configVisualisation.obfuscate": "Mask secrets and host names in the configuration shown.",
  "configVisualisation.allowUnauthenticated":
    "Serve the page on a host other than loopback although it has no token (anyone who reaches it reads the configuration and status); otherwise such a host is refused at start.",
  heartbeat: "Alive messages sent to a monitoring tool.",
  "heartbeat.enable": "Send alive messages.",
  "heartbeat.remoteURL":
    "http(s) URL called on each heartbeat, e.g. http://monitor.example.com/ping; no user:pass@ (logged with its path masked).",
  "heartbeat.frequency":
    'Schedule (UTC): later.js text such as "every 1 hour" or "every 30 seconds", or 5/6-field cron such as "0 * * * *".',
  containerHealthCheck: "Health check endpoint for container runtimes.",
  "containerHealthCheck.enable":
    "Serve GET /health on 127.0.0.1:port (200 while every listener is up and the event loop responds, else 503); `steward healthcheck` calls it.",
  "containerHealthCheck.port":
    "Port of the health check endpoint on 127.0.0.1 (change when instances share a host).",
  uptimeMonitor: "Periodic uptime and memory messages.",
  "uptimeMonitor.enable": "Write uptime and memory messages to console and log.",
  "uptimeMonitor.frequency":
    'Schedule (UTC): later.js text such as "every 15 minutes", or 5/6-field cron such as "*/15 * * * *".',
  "uptimeMonitor.logLevel": "Level of the uptime messages (silly, debug, verbose, info, warn, error).",
  "uptimeMonitor.storeInTimeseriesdb.serviceMemoryUsage": "Store own memory use in the time-series database.",
  "uptimeMonitor.storeInTimeseriesdb.instanceTag": "Tag telling instances apart in the stored data.",
  "uptimeMonitor.storeObsPlatform.enable": "Send uptime data to the observability platform.",
  "storeObsPlatform.metric.dynamic.serviceMemoryUsage.enable": "Send memory metrics.",
  "storeObsPlatform.metric.dynamic.serviceUptime.enable": "Send the uptime metric.",
  scrapeEndpoint: "Metrics endpoint for scraping (Prometheus format).",
  "scrapeEndpoint.enable": "Serve GET /metrics: UDP, audit and process metrics (health metrics once polled).",
  "scrapeEndpoint.host":
    "Listen host name or IP; 127.0.0.1 lets only this machine scrape (another host needs allowUnauthenticated).",
  "scrapeEndpoint.port": "Listen port.",
  "scrapeEndpoint.allowUnauthenticated":
    "Serve /metrics on a host other than loopback (e.g. for a Prometheus on another machine) although it has no token; otherwise such a host is refused at start.",

  // ---- observability platform ----
  thirdPartyToolsCredentials: "Credentials of third-party tools.",
  "thirdPartyToolsCredentials.obsPlatform": "Accounts of the observability platform.",
  "thirdPartyToolsCredentials.obsPlatform[].accountName": "Friendly name used by destinationAccount lists.",
  "thirdPartyToolsCredentials.obsPlatform[].insertApiKey": `Insert API key of the account (secret; use ${ENV_REF}).`,
  "thirdPartyToolsCredentials.obsPlatform[].accountId": "Account ID.",
  obsPlatform: "Observability platform destination (accounts for events are set under userEvents/logEvents).",
  "obsPlatform.enable": "Send health metrics to the observability platform.",
  "obsPlatform.event.url": "Event API base URL (EU or US collector).",
  "obsPlatform.metric.url": "Metric API URL (EU or US collector).",
  header: "Name/value pairs sent as HTTP headers (values are masked in logs).",
  "header[].name": "HTTP header name.",
  "header[].value": `HTTP header value (secret; use ${ENV_REF}).`,
  "attribute.static": "Name/value attributes added to everything sent.",
  "attribute.static[].name": "Attribute name.",
  "attribute.static[].value": "Attribute value.",
  "attribute.dynamic.serviceVersion.enable": "Attach the service version as an attribute.",
  "obsPlatform.metric.dynamic.engine": "Engine metric groups, each switched by its enable flag.",
  "obsPlatform.metric.dynamic.apps": "App metric groups, each switched by its enable flag.",
  "dynamic.engine.memory.enable": "Send engine memory metrics.",
  "dynamic.engine.cpu.enable": "Send engine CPU metrics.",
  "dynamic.engine.calls.enable": "Send engine call metrics.",
  "dynamic.engine.selections.enable": "Send engine selection metrics.",
  "dynamic.engine.sessions.enable": "Send engine session metrics.",
  "dynamic.engine.users.enable": "Send engine user metrics.",
  "dynamic.engine.saturated.enable": "Send the engine saturation metric.",
  "dynamic.apps.docCount.enable": "Send the app count metric.",
  "dynamic.apps.activeDocs.enable": "Send active app metrics.",
  "dynamic.apps.loadedDocs.enable": "Send loaded app metrics.",
  "dynamic.apps.inMemoryDocs.enable": "Send in-memory app metrics.",
  "obsPlatform.metric.dynamic.cache.cache.enable": "Send cache metrics.",
  "obsPlatform.metric.dynamic.proxy.sessions.enable": "Send proxy session metrics.",
  destinationAccount: "Account names (from thirdPartyToolsCredentials.obsPlatform) to send to.",
  "obsPlatform.metric.destinationAccount": "Account names for health metrics.",

  // ---- platform events, UDP servers ----
  platformEvents: "Counters shared by user and log events.",
  "platformEvents.timeseriesdb.enable": "Store counters of user/log events and rejected events.",
  "platformEvents.timeseriesdb.writeFrequency": "Milliseconds between counter writes.",
  "platformEvents.eventCount.enable": "Store event counts.",
  "platformEvents.eventCount.timeseriesdb.measurementName": "Measurement name of event counts.",
  "platformEvents.rejectedEventCount.enable": "Count and store rejected events.",
  "platformEvents.rejectedEventCount.timeseriesdb.measurementName":
    "Measurement name of rejected-event counts.",
  udpServerConfig: "UDP listener for events sent by the platform's log appenders.",
  "udpServerConfig.serverHost": "Listen host name or IP (a specific address or FQDN is recommended).",
  "udpServerConfig.portUserActivityEvents": "UDP port; must match the log appender.",
  "udpServerConfig.portLogEvents": "UDP port; must match the log appender.",
  "messageQueue.maxConcurrent": "Messages processed simultaneously.",
  "messageQueue.maxSize": "Queue size before messages are dropped.",
  "messageQueue.backpressureThreshold": "Percent queue utilisation at which a warning is logged.",
  "udpServerConfig.rateLimit.enable": "Limit message flooding.",
  "udpServerConfig.rateLimit.maxMessagesPerMinute": "Messages accepted per minute.",
  "udpServerConfig.maxMessageSize": "Maximum UDP message size in bytes.",
  "udpServerConfig.receiveBufferBytes":
    "Socket receive buffer asked of the operating system (Linux caps it at 2 x net.core.rmem_max).",
  "udpServerConfig.enableSourceValidation": "Reject messages from IPs not resolved from allowedSources.",
  "udpServerConfig.allowedSources":
    "IP addresses or host names allowed to send (names resolved at start, unresolved ones retried every minute; none resolved: every datagram refused; empty: every sender accepted).",
  "queueMetrics.timeseriesdb.enable": "Store queue metrics in the time-series database.",
  "queueMetrics.timeseriesdb.writeFrequency": "Milliseconds between queue metric writes.",
  "queueMetrics.timeseriesdb.measurementName": "Measurement name of queue metrics.",
  tags: "Name/value tags added to the stored data.",
  "tags[].name": "Tag name.",
  "tags[].value": "Tag value.",
  excludeUser: "Users to disregard.",
  "excludeUser[].directory": "User directory.",
  "excludeUser[].userId": "User ID.",

  // ---- user events ----
  userEvents: "Session start/stop and connection open/close events from the platform's proxy.",
  "userEvents.enable": "Track user events.",
  "userEvents.tags": "Name/value tags added to each user event before storing.",
  "userEvents.sendToMQTT.enable": "Send user events to the message broker.",
  "sendToMQTT.postTo.everythingTopic": "All user events to one topic.",
  "sendToMQTT.postTo.sessionStartTopic": "Session start messages.",
  "sendToMQTT.postTo.sessionStopTopic": "Session stop messages.",
  "sendToMQTT.postTo.connectionOpenTopic": "Connection open messages.",
  "sendToMQTT.postTo.connectionCloseTopic": "Connection close messages.",
  topic: "Broker topic.",
  "userEvents.sendToTimeseriesdb.enable": "Save user events in the time-series database.",
  "userEvents.sendToObsPlatform.enable": "Save user events in the observability platform.",
  "userEvents.sendToObsPlatform.scramble": "Scramble user directory and user ID before sending.",

  // ---- reload-task events and the links alerts carry ----
  taskEvents:
    "Reload-task events (failed, aborted, successful, distribute runs) from the scheduler's log appender.",
  "taskEvents.enable": "Listen for task events, look each one up in the repository and send its alerts.",
  "udpServerConfig.portTaskEvents": "UDP port; must match the scheduler's task appenders.",
  "taskEvents.deduplication.windowSeconds":
    "Seconds a task execution's event is remembered: a repeat within them (appenders on several nodes) is counted as duplicate and goes nowhere.",
  "taskEvents.timeseriesdb": "Task events as time-series points (through timeseriesdbConfig).",
  "tag.static": "Name/value tags added to every point (e.g. qs_env, which the dashboards filter on).",
  "tag.static[].name": "Tag name.",
  "tag.static[].value": "Tag value.",
  "taskEvents.timeseriesdb.reloadTaskFailure.enable":
    "Write failed reloads (measurement reload_task_failed).",
  "taskEvents.timeseriesdb.reloadTaskSuccess.enable":
    "Write successful reloads (measurement reload_task_success).",
  "reloadTaskSuccess.allReloadTasks.enable":
    "Write every successful reload, not only the tasks chosen by custom property.",
  "reloadTaskSuccess.byCustomProperty.enable":
    "Write successful reloads of tasks whose custom property has the value below.",
  "byCustomProperty.customPropertyName": "Custom property of the task that chooses it.",
  "byCustomProperty.enabledValue": "Value of that custom property that chooses the task.",
  headScriptLogLines: "First lines of the script log included.",
  tailScriptLogLines: "Last lines of the script log included.",
  "taskEvents.timeseriesdb.externalProgramTaskFailure.enable": "Write failed external program tasks.",
  "taskEvents.timeseriesdb.externalProgramTaskSuccess.enable": "Write successful external program tasks.",
  "taskEvents.timeseriesdb.userSyncTaskFailure.enable": "Write failed user sync tasks.",
  "taskEvents.timeseriesdb.userSyncTaskSuccess.enable": "Write successful user sync tasks.",
  "taskEvents.timeseriesdb.distributeTaskFailure.enable": "Write failed distribute tasks.",
  "taskEvents.timeseriesdb.distributeTaskSuccess.enable": "Write successful distribute tasks.",
  "taskEvents.timeseriesdb.preloadTaskFailure.enable": "Write failed preload tasks.",
  "taskEvents.timeseriesdb.preloadTaskSuccess.enable": "Write successful preload tasks.",
  "taskEvents.sendToMQTT.enable":
    "Publish failed and aborted reloads to the message broker (mqttConfig), the Qlik Cloud tenants' too (read with qlikCloud on, even while taskEvents is off).",
  "sendToMQTT.taskFailureTopic": "Topic of a failed reload's task name.",
  "sendToMQTT.taskFailureFullTopic": "Topic of a failed reload's full JSON.",
  "sendToMQTT.taskFailureSendFull": "Also publish the full JSON of failed reloads.",
  "sendToMQTT.taskAbortedTopic": "Topic of an aborted reload's task name.",
  "sendToMQTT.taskAbortedFullTopic": "Topic of an aborted reload's full JSON.",
  "sendToMQTT.taskAbortedSendFull": "Also publish the full JSON of aborted reloads.",
  "taskEvents.scriptLogFiles":
    "The full script log of each failed reload kept on disk as <directory>/<YYYY-MM-DD>/<taskId>-<executionId>.log (UTC date of the run). Here rather than at Butler's scriptLog.storeOnDisk because the task-event listener downloads the log for its alerts and the file is written from that same download; local process only.",
  "scriptLogFiles.enable":
    "Keep the script log of every failed reload (aborted runs are not kept, as in Butler).",
  "scriptLogFiles.directory":
    "Directory of the kept logs (relative to the working directory; a drive or UNC path on Windows). Created 0700, files 0600.",
  "scriptLogFiles.retentionDays":
    "Days a date folder is kept after its day has ended; checked at start and every hour.",
  "scriptLogFiles.maxTotalBytes":
    "Size cap of all kept logs in bytes (at least 1 MiB); over it the oldest files go first.",
  qlikSenseUrls: "Links alerts carry (template fields qlikSenseQMC, qlikSenseHub, appUrl); empty = no link.",
  "qlikSenseUrls.qmc": "URL of the management console.",
  "qlikSenseUrls.hub": "URL of the hub.",
  "qlikSenseUrls.appBaseUrl":
    "Base URL of app pages, e.g. https://sense.example.com/sense/app; the app id is appended.",
  genericUrls: "Links of your own that alert templates can show (template field genericUrls).",
  "genericUrls[].id": "Name a template refers to the link by.",
  "genericUrls[].linkText": "Text of the link.",
  "genericUrls[].comment": "What the link is for (not shown by the built-in templates).",
  "genericUrls[].url": "http(s) URL of the link.",

  // ---- reload-task alerts by email, Teams and Slack ----
  emailNotification: "Reload-task alerts by email (failed, aborted and successful reloads).",
  "emailNotification.enable": "Master switch for alert emails.",
  maxAlertsPerMinute:
    "Alerts this destination sends per minute at most, whatever the task (0 = no budget); those beyond are counted over_budget.",
  "emailNotification.smtp": "The SMTP server every alert email goes through (one connection pool).",
  "emailNotification.smtp.host": "SMTP server host name or IP address.",
  "emailNotification.smtp.port": "SMTP port: 25, 587 (STARTTLS) or 465 (TLS, with secure: true).",
  "emailNotification.smtp.secure":
    "TLS from the first byte (port 465); false upgrades with STARTTLS when the server offers it.",
  "emailNotification.smtp.tls.serverName":
    "Name the server's certificate is checked against, when it differs from host.",
  "emailNotification.smtp.tls.ignoreTLS": "Never upgrade to TLS (only for a server on a trusted network).",
  "emailNotification.smtp.tls.requireTLS": "Refuse to send unless the connection is upgraded to TLS.",
  "emailNotification.smtp.tls.rejectUnauthorized":
    "Refuse a server certificate that does not verify (keep true).",
  "emailNotification.smtp.auth.enable": "Log in to the SMTP server.",
  "emailNotification.smtp.auth.user": "SMTP user name.",
  "emailNotification.smtp.auth.password": `SMTP password; write it as ${ENV_REF} (a secret, masked in logs and on the status page).`,
  "emailNotification.smtp.timeoutSeconds":
    "Seconds to connect, greet and send before the email counts as failed.",
  "emailNotification.reloadTaskFailure":
    "Emails about failed reloads (the site's and, with qlikCloud.enable, the Qlik Cloud tenants').",
  "emailNotification.reloadTaskAborted":
    "Emails about aborted reloads (the site's, and canceled Qlik Cloud reloads).",
  "emailNotification.reloadTaskSuccess": "Emails about successful reloads.",
  "emailNotification.reloadTaskFailure.enable": "Send emails about failed reloads.",
  "emailNotification.reloadTaskAborted.enable": "Send emails about aborted reloads.",
  "emailNotification.reloadTaskSuccess.enable": "Send emails about successful reloads.",
  "emailNotification.distributeTaskFailure": "Emails about failed distribute tasks.",
  "emailNotification.distributeTaskFailure.enable": "Send emails about failed distribute tasks.",
  "emailNotification.distributeTaskFailure.rateLimit":
    "Seconds after an email in which the same task sends no other to the same recipient (0 = no limit).",
  "emailNotification.distributeTaskSuccess": "Emails about successful distribute tasks.",
  "emailNotification.distributeTaskSuccess.enable": "Send emails about successful distribute tasks.",
  "emailNotification.distributeTaskSuccess.rateLimit":
    "Seconds after an email in which the same task sends no other to the same recipient (0 = no limit).",
  "emailNotification.preloadTaskFailure": "Emails about failed preload tasks.",
  "emailNotification.preloadTaskFailure.enable": "Send emails about failed preload tasks.",
  "emailNotification.preloadTaskFailure.rateLimit":
    "Seconds after an email in which the same task sends no other to the same recipient (0 = no limit).",
  "emailNotification.preloadTaskSuccess": "Emails about successful preload tasks.",
  "emailNotification.preloadTaskSuccess.enable": "Send emails about successful preload tasks.",
  "emailNotification.preloadTaskSuccess.rateLimit":
    "Seconds after an email in which the same task sends no other to the same recipient (0 = no limit).",
  appOwnerAlert: "Also send the email to the app's owner (every email address of the owner's user).",
  "appOwnerAlert.enable":
    "Send to the app owner; an owner that cannot be looked up never stops the email to the others.",
  "appOwnerAlert.includeOwner.includeAll":
    "true: every owner but the excluded ones; false: only the owners listed in user.",
  "appOwnerAlert.includeOwner.user": "Owners who receive the email when includeAll is false.",
  "appOwnerAlert.excludeOwner.user": "Owners who never receive the email.",
  "user[].directory": "User directory of the owner.",
  "user[].userId": "User id of the owner.",
  alertEnableByCustomProperty:
    "Send to the recipients list only for tasks whose custom property has the value below.",
  "alertEnableByCustomProperty.enable":
    "true: recipients only for tasks so marked; false: recipients for every task.",
  "alertEnableByCustomProperty.customPropertyName": "Task custom property that marks a task.",
  "alertEnableByCustomProperty.enabledValue": "Value of that custom property that marks the task.",
  "alertEnabledByEmailAddress.customPropertyName":
    "Task custom property whose values are email addresses that always receive the task's alerts.",
  "emailNotification.reloadTaskFailure.rateLimit":
    "Seconds after an email in which the same task sends no other to the same recipient (0 = no limit).",
  "emailNotification.reloadTaskAborted.rateLimit":
    "Seconds after an email in which the same task sends no other to the same recipient (0 = no limit).",
  "emailNotification.reloadTaskSuccess.rateLimit":
    "Seconds after an email in which the same task sends no other to the same recipient (0 = no limit).",
  priority: "Email priority: high, normal or low.",
  subject:
    'Subject, a Handlebars template with the alert fields, e.g. Qlik Sense reload failed: "{{taskName}}".',
  bodyFileDirectory: "Directory of your own body template; empty = the built-in body.",
  htmlTemplateFile:
    "Your body template's file name in bodyFileDirectory (.handlebars may be left out); if it cannot be read or rendered, a plain email is sent.",
  fromAddress: "Sender, an address or Name <address>.",
  recipients: "Email addresses that receive every alert of this kind (see alertEnableByCustomProperty).",
  teamsNotification: "Failed and aborted reloads posted to Microsoft Teams through Power Automate Workflows.",
  "teamsNotification.enable": "Master switch for Teams messages.",
  "teamsNotification.timeoutSeconds": "Seconds a post may take before it counts as failed.",
  "teamsNotification.reloadTaskFailure":
    "Teams messages about failed reloads (the site's and, with qlikCloud.enable, the Qlik Cloud tenants').",
  "teamsNotification.reloadTaskAborted":
    "Teams messages about aborted reloads (the site's, and canceled Qlik Cloud reloads).",
  "teamsNotification.reloadTaskFailure.enable": "Post failed reloads.",
  "teamsNotification.reloadTaskAborted.enable": "Post aborted reloads.",
  "teamsNotification.reloadTaskFailure.webhookURL": `Workflows URL of the channel; write it as ${ENV_REF} (it carries a key: masked everywhere).`,
  "teamsNotification.reloadTaskAborted.webhookURL": `Workflows URL of the channel; write it as ${ENV_REF} (it carries a key: masked everywhere).`,
  messageType:
    "basic: Steward's card; formatted: your templateFile (falls back to basic when it cannot be used).",
  basicMsgTemplate: "Title of the basic message, a Handlebars template with the alert fields.",
  "teamsNotification.reloadTaskFailure.rateLimit":
    "Seconds after a message in which the same task posts no other (0 = no limit).",
  "teamsNotification.reloadTaskAborted.rateLimit":
    "Seconds after a message in which the same task posts no other (0 = no limit).",
  templateFile: "Path of your Handlebars template for formatted messages; it renders to the message JSON.",
  slackNotification: "Failed and aborted reloads posted to Slack through an incoming webhook.",
  "slackNotification.enable": "Master switch for Slack messages.",
  "slackNotification.timeoutSeconds": "Seconds a post may take before it counts as failed.",
  "slackNotification.reloadTaskFailure":
    "Slack messages about failed reloads (the site's and, with qlikCloud.enable, the Qlik Cloud tenants').",
  "slackNotification.reloadTaskAborted":
    "Slack messages about aborted reloads (the site's, and canceled Qlik Cloud reloads).",
  "slackNotification.reloadTaskFailure.enable": "Post failed reloads.",
  "slackNotification.reloadTaskAborted.enable": "Post aborted reloads.",
  "slackNotification.reloadTaskFailure.webhookURL": `Incoming webhook URL; write it as ${ENV_REF} (it carries a token: masked everywhere).`,
  "slackNotification.reloadTaskAborted.webhookURL": `Incoming webhook URL; write it as ${ENV_REF} (it carries a token: masked everywhere).`,
  "slackNotification.reloadTaskFailure.rateLimit":
    "Seconds after a message in which the same task posts no other (0 = no limit).",
  "slackNotification.reloadTaskAborted.rateLimit":
    "Seconds after a message in which the same task posts no other (0 = no limit).",
  channel: "Slack channel, e.g. sense-task-failure (empty = the webhook's own channel).",
  fromUser: "Name the message is posted under.",
  iconEmoji: "Emoji shown as the poster's icon, e.g. :ghost:.",
  webhookNotification: "Failed and aborted reloads sent to your own HTTP endpoints.",
  "webhookNotification.enable": "Master switch for outgoing webhooks.",
  "webhookNotification.timeoutSeconds":
    "Seconds one webhook call may take (every method) before it counts as failed.",
  "webhookNotification.reloadTaskFailure":
    "Webhooks called for failed reloads (the site's and, with qlikCloud.enable, the Qlik Cloud tenants').",
  "webhookNotification.reloadTaskAborted":
    "Webhooks called for aborted reloads (the site's, and canceled Qlik Cloud reloads).",
  "webhookNotification.reloadTaskFailure.rateLimit":
    "Seconds after a call in which the same task calls the list no more (0 = no limit).",
  "webhookNotification.reloadTaskAborted.rateLimit":
    "Seconds after a call in which the same task calls the list no more (0 = no limit).",
  webhooks: "Endpoints called one after another; one that fails is logged and the others are still called.",
  "webhooks[].description": "Name of the webhook in logs.",
  "webhooks[].webhookURL": `http(s) URL of the endpoint (user:pass@ is sent as Basic authentication); write it as ${ENV_REF} when it carries a token or password (masked everywhere).`,
  "webhooks[].httpMethod":
    "GET (fields as query parameters), POST or PUT (fields as a JSON body); any letter case.",
  "webhooks[].cert.enable":
    "Check the endpoint's certificate against your own CA (the file named in certCA: below).",
  "webhooks[].cert.rejectUnauthorized": "Refuse a certificate that does not verify (keep true).",
  "webhooks[].cert.certCA": "PEM file of the CA that signed the endpoint's certificate (read at every call).",

  "emailNotification.serverLicenseExpiry":
    "Email when the server licence has expired or expires within licenseMonitor.serverLicense.alertDaysBefore days.",
  "emailNotification.serverLicenseExpiry.enable": "Send the server licence's expiry by email.",
  "emailNotification.serverLicenseExpiry.rateLimit":
    "Seconds after an email in which the same recipient gets no other licence email (default one day: the monitor runs every 6 hours).",
  "emailNotification.serverLicenseExpiry.subject":
    "Subject, a Handlebars template with the licence fields; the default is the sentence {{message}}.",
  "emailNotification.serverLicenseExpiry.recipients": "Email addresses that receive the licence alert.",
  "teamsNotification.serverLicenseExpiry":
    "Teams message when the server licence has expired or expires within the alert window.",
  "teamsNotification.serverLicenseExpiry.enable": "Post the server licence's expiry.",
  "teamsNotification.serverLicenseExpiry.webhookURL": `Workflows URL of the channel; write it as ${ENV_REF} (it carries a key: masked everywhere).`,
  "teamsNotification.serverLicenseExpiry.rateLimit":
    "Seconds after a licence message in which no other is posted (default one day).",
  "teamsNotification.serverLicenseExpiry.basicMsgTemplate":
    "Title of the basic message, a Handlebars template with the licence fields (default: the sentence {{message}}).",
  "slackNotification.serverLicenseExpiry":
    "Slack message when the server licence has expired or expires within the alert window.",
  "slackNotification.serverLicenseExpiry.enable": "Post the server licence's expiry.",
  "slackNotification.serverLicenseExpiry.webhookURL": `Incoming webhook URL; write it as ${ENV_REF} (it carries a token: masked everywhere).`,
  "slackNotification.serverLicenseExpiry.rateLimit":
    "Seconds after a licence message in which no other is posted (default one day).",
  "slackNotification.serverLicenseExpiry.basicMsgTemplate":
    "Title of the basic message, a Handlebars template with the licence fields (default: the sentence {{message}}).",
  "webhookNotification.qlikSenseServerLicenseMonitor":
    "Webhooks called with the server licence's status after every licence monitor run (with licenseMonitor.serverLicense.webhook.sendRecurring).",
  "webhookNotification.qlikSenseServerLicenseMonitor.rateLimit":
    "Seconds after a status call in which the list is not called again (0 = no limit).",
  "webhookNotification.qlikSenseServerLicenseExpiryAlert":
    "Webhooks called when the server licence has expired or expires within the alert window (with licenseMonitor.serverLicense.webhook.sendAlert).",
  "webhookNotification.qlikSenseServerLicenseExpiryAlert.rateLimit":
    "Seconds after an expiry call in which the list is not called again (default one day).",
  "emailNotification.serviceStopped":
    "Email when a watched Windows service stops, or leaves RUNNING for a paused or pending state (serviceMonitor).",
  "emailNotification.serviceStarted":
    "Email when a watched Windows service is RUNNING again (serviceMonitor).",
  "emailNotification.serviceStopped.enable": "Send stopped Windows services by email.",
  "emailNotification.serviceStarted.enable": "Send started Windows services by email.",
  "emailNotification.serviceStopped.rateLimit":
    "Seconds after an email in which the same service and recipient get no other stopped email (0 = no limit).",
  "emailNotification.serviceStarted.rateLimit":
    "Seconds after an email in which the same service and recipient get no other started email (0 = no limit).",
  "emailNotification.serviceStopped.subject":
    "Subject, a Handlebars template with the service fields ({{host}}, {{serviceName}}, {{serviceDisplayName}}, {{serviceFriendlyName}}, {{serviceStatus}}, {{servicePrevStatus}}, ...).",
  "emailNotification.serviceStarted.subject":
    "Subject, a Handlebars template with the service fields ({{host}}, {{serviceName}}, {{serviceDisplayName}}, {{serviceFriendlyName}}, {{serviceStatus}}, {{servicePrevStatus}}, ...).",
  "emailNotification.serviceStopped.recipients": "Email addresses that receive stopped services.",
  "emailNotification.serviceStarted.recipients": "Email addresses that receive started services.",
  "teamsNotification.serviceStopped":
    "Teams message when a watched Windows service stops or leaves RUNNING (serviceMonitor).",
  "teamsNotification.serviceStarted": "Teams message when a watched Windows service is RUNNING again.",
  "slackNotification.serviceStopped":
    "Slack message when a watched Windows service stops or leaves RUNNING (serviceMonitor).",
  "slackNotification.serviceStarted": "Slack message when a watched Windows service is RUNNING again.",
  "teamsNotification.serviceStopped.enable": "Post stopped Windows services.",
  "teamsNotification.serviceStarted.enable": "Post started Windows services.",
  "slackNotification.serviceStopped.enable": "Post stopped Windows services.",
  "slackNotification.serviceStarted.enable": "Post started Windows services.",
  "teamsNotification.serviceStopped.webhookURL": `Workflows URL of the channel; write it as ${ENV_REF} (it carries a key: masked everywhere).`,
  "teamsNotification.serviceStarted.webhookURL": `Workflows URL of the channel; write it as ${ENV_REF} (it carries a key: masked everywhere).`,
  "slackNotification.serviceStopped.webhookURL": `Incoming webhook URL; write it as ${ENV_REF} (it carries a token: masked everywhere).`,
  "slackNotification.serviceStarted.webhookURL": `Incoming webhook URL; write it as ${ENV_REF} (it carries a token: masked everywhere).`,
  "serviceStopped.rateLimit":
    "Seconds after a message in which the same service posts no other (0 = no limit).",
  "serviceStarted.rateLimit":
    "Seconds after a message in which the same service posts no other (0 = no limit).",
  "serviceStopped.basicMsgTemplate":
    "Title of the basic message, a Handlebars template with the service fields ({{host}}, {{serviceName}}, {{serviceFriendlyName}}, {{serviceStatus}}, ...).",
  "serviceStarted.basicMsgTemplate":
    "Title of the basic message, a Handlebars template with the service fields ({{host}}, {{serviceName}}, {{serviceFriendlyName}}, {{serviceStatus}}, ...).",
  "webhookNotification.serviceMonitor":
    "Webhooks called when a watched Windows service changes state (serviceMonitor), with Butler's fields.",
  "webhookNotification.serviceMonitor.enable": "Call these webhooks (also needs webhookNotification.enable).",
  "webhookNotification.serviceMonitor.rateLimit":
    "Seconds after a call in which the same service calls the list no more (0 = no limit).",
  "incidentTool.newRelic.serviceMonitor":
    "Events and log entries when a watched Windows service changes state (serviceMonitor).",
  "incidentTool.newRelic.serviceMonitor.destination.event.enable": "Send an event per change.",
  "incidentTool.newRelic.serviceMonitor.destination.event.sendToAccount":
    "Account names (thirdPartyToolsCredentials.obsPlatform) that get the event, besides destinationAccount.event.",
  "incidentTool.newRelic.serviceMonitor.destination.log.enable": "Send a log entry per change.",
  "incidentTool.newRelic.serviceMonitor.destination.log.sendToAccount":
    "Account names (thirdPartyToolsCredentials.obsPlatform) that get the log entry, besides destinationAccount.log.",
  "incidentTool.newRelic.serviceMonitor.monitorServiceState.running.enable":
    "Send services that are RUNNING again.",
  "incidentTool.newRelic.serviceMonitor.monitorServiceState.stopped.enable":
    "Send services that stopped or left RUNNING.",
  "incidentTool.newRelic.serviceMonitor.rateLimit":
    "Seconds after an event or log entry in which the same service sends no other of it (0 = no limit).",
  "incidentTool.newRelic.serviceMonitor.attribute.static":
    "Attributes added to every service event and log entry.",
  incidentTool: "Incident and observability tools that get reload-task alerts.",
  "incidentTool.newRelic":
    "Failed and aborted reloads sent to the observability platform as events and log entries.",
  "incidentTool.newRelic.enable": "Master switch for reload alerts to the observability platform.",
  "incidentTool.newRelic.destinationAccount.event":
    "Account names (thirdPartyToolsCredentials.obsPlatform) that get every event.",
  "incidentTool.newRelic.destinationAccount.log":
    "Account names (thirdPartyToolsCredentials.obsPlatform) that get every log entry.",
  "incidentTool.newRelic.url.event":
    "Event API base URL (EU or US collector); /v1/accounts/<id>/events is added.",
  "incidentTool.newRelic.url.log": "Log API URL (EU or US).",
  "incidentTool.newRelic.reloadTaskFailure": "Events and log entries about failed reloads.",
  "incidentTool.newRelic.reloadTaskAborted": "Events and log entries about aborted reloads.",
  "destination.event.enable":
    "Send an event (eventType qs_reloadTaskFailedEvent / qs_reloadTaskAbortedEvent).",
  "destination.log.enable":
    "Send a log entry with the script log's tail (logtype qs_reloadTaskFailedLog / qs_reloadTaskAbortedLog).",
  "destination.log.tailScriptLogLines": "Last lines of the script log in the log entry.",
  "sendToAccount.byCustomProperty.enable": "Also send to the accounts named in the task's custom property.",
  "sendToAccount.byCustomProperty.customPropertyName":
    "Task custom property whose values are account names; a name that is not an account is logged and skipped.",
  "sendToAccount.always.enable": "Always send to the accounts listed in account.",
  "sendToAccount.always.account": "Account names (thirdPartyToolsCredentials.obsPlatform) always sent to.",
  "attribute.dynamic.useAppTags": "Add each app tag as the attribute qs_appTag_<tag> = true.",
  "attribute.dynamic.useTaskTags": "Add each task tag as the attribute qs_taskTag_<tag> = true.",
  "sharedSettings.rateLimit":
    "Seconds after an event (or log entry) in which the same task sends no other (0 = no limit).",

  // ---- log events ----
  logEvents: "Warnings, errors and fatals from the platform's services (validated when a source is enabled).",
  "logEvents.tags": "Name/value tags added to each log event.",
  "logEvents.source.engine.enable": "Handle log events from the engine.",
  "logEvents.source.proxy.enable": "Handle log events from the proxy.",
  "logEvents.source.repository.enable": "Handle log events from the repository.",
  "logEvents.source.scheduler.enable": "Handle log events from the scheduler.",
  "logEvents.source.engineApiPerf.enable": "Handle engine API performance log events.",
  "logEvents.categorise.enable": "Categorise log events by the rules below.",
  "logEvents.categorise.rules": "Rules, all evaluated in order; every matching rule adds its categories.",
  "rules[].description": "What the rule finds.",
  "rules[].logLevel": "Levels the rule applies to (e.g. [warn, error, fatal]).",
  "rules[].action": "categorise (add the categories) or drop (discard the event).",
  "rules[].category": "Name/value pairs added on a match.",
  "rules[].category[].name": "Category name.",
  "rules[].category[].value": "Category value.",
  "rules[].filter": "Message filters; the first match decides.",
  "rules[].filter[].type": "sw (starts with), ew (ends with) or so (substring of).",
  "rules[].filter[].value": "Text to match (case sensitive).",
  "categorise.ruleDefault.enable": "Add the default categories when no rule matches.",
  "categorise.ruleDefault.category": "Categories added when no rule matches.",
  "ruleDefault.category[].name": "Category name.",
  "ruleDefault.category[].value": "Category value.",
  enginePerformanceMonitor: "App performance data extracted from engine API performance log events.",
  "enginePerformanceMonitor.enable": "Extract app performance data from log events.",
  "enginePerformanceMonitor.appNameLookup.enable": "Look up app names from app IDs.",
  "trackRejectedEvents.enable": "Track events rejected by the monitor.",
  "trackRejectedEvents.tags": "Tags stored with rejected events.",
  "monitorFilter.allApps.enable": "Monitor all apps.",
  "monitorFilter.allApps.appExclude": "Apps to exclude.",
  appId: "App ID.",
  appName: "App name.",
  "objectType.allObjectTypes": "Monitor every object type.",
  "objectType.allObjectTypesExclude": "Object types to exclude when allObjectTypes is true.",
  "objectType.someObjectTypesInclude": "Object types to monitor when allObjectTypes is false.",
  "method.allMethods": "Monitor every engine method.",
  "method.allMethodsExclude": "Methods to exclude when allMethods is true.",
  "method.someMethodsInclude": "Methods to monitor when allMethods is false.",
  "monitorFilter.appSpecific.enable": "Monitor specific apps.",
  "monitorFilter.appSpecific.app": "Per-app selections.",
  "app[].include": "Apps this selection applies to.",
  "appObject.allAppObjects": "Monitor every app object.",
  "appObject.allAppObjectsExclude": "Object IDs to exclude when allAppObjects is true.",
  "appObject.someAppObjectsInclude": "Object IDs to monitor when allAppObjects is false.",
  "logEvents.sendToMQTT.enable": "Send log events to the message broker.",
  "logEvents.sendToMQTT.baseTopic": "Root topic of log events.",
  "logEvents.sendToMQTT.postTo.baseTopic": "Post every log event to the root topic.",
  "logEvents.sendToMQTT.postTo.subsystemTopics": "Post to per-subsystem topics under the root topic.",
  "logEvents.sendToTimeseriesdb.enable": "Save log events in the time-series database.",
  "logEvents.sendToObsPlatform.enable": "Send log events to the observability platform.",
  "sendToObsPlatform.source": "Per-source and per-level selection.",
  "sendToObsPlatform.source.engine.enable": "Send engine log events.",
  "sendToObsPlatform.source.proxy.enable": "Send proxy log events.",
  "sendToObsPlatform.source.repository.enable": "Send repository log events.",
  "sendToObsPlatform.source.scheduler.enable": "Send scheduler log events.",
  "logLevel.error": "Send error events.",
  "logLevel.warn": "Send warning events.",

  // ---- platform access ----
  cert: "Client certificates for the platform (checked when a feature reaching the platform is on).",
  "cert.clientCert": "Certificate file (PEM).",
  "cert.clientCertKey": "Certificate key file (PEM).",
  "cert.clientCertCA": "Root certificate file (PEM).",
  "cert.clientCertPassphrase": `Passphrase of the certificate key (secret; use ${ENV_REF}), empty for none.`,
  platform: "The platform's repository and engine APIs (used by the app and reload-task endpoints).",
  "platform.host": "Platform server host name or IP; required by appReload/appDump/appList/reloadTaskStart.",
  "platform.repositoryPort": "Repository API port.",
  "platform.enginePort": "Engine API port.",
  "platform.userHeader": "Identity sent to the platform in the X-Qlik-User header.",
  "platform.rejectUnauthorized": "Reject self-signed or otherwise untrusted platform certificates.",
  "platform.timeoutMs": "Timeout of platform calls in milliseconds.",
  startTaskFilter:
    "Allow-list of the tasks the REST task start and the broker's start topic may start (403 / counted when refused).",
  "startTaskFilter.enable": "Apply the list; off = every task may be started.",
  "startTaskFilter.allowTask":
    "A task may start when its id, one of its tags or one of its custom property values is listed.",
  "startTaskFilter.allowTask.taskId": "Task ids (GUIDs) that may be started.",
  "startTaskFilter.allowTask.tag": "Tags (exact names): a task carrying one may be started.",
  "startTaskFilter.allowTask.customProperty":
    "Custom property name/value pairs: a task holding one may be started.",
  "allowTask.customProperty[].name": "Custom property name.",
  "allowTask.customProperty[].value": "Value the task's custom property must hold.",

  // ---- message broker ----
  mqttConfig: "Message broker (MQTT).",
  "mqttConfig.enable": "Connect to the broker (health metrics, events, REST publish).",
  "mqttConfig.brokerHost": "Broker IP or FQDN.",
  "mqttConfig.brokerPort": "Broker port.",
  "mqttConfig.baseTopic": "Default topic; should end with /.",
  "mqttConfig.clientId": "Client id the broker sees; empty = a random one (mqttjs_...) on each start.",
  "mqttConfig.username": "User name for the broker; empty = connect without credentials.",
  "mqttConfig.password": `Password for the broker (secret; use ${ENV_REF}); needs username.`,
  "mqttConfig.tls": "TLS to the broker (mqtts://); brokers usually listen for it on port 8883.",
  "mqttConfig.tls.enable": "Connect with TLS instead of plain MQTT.",
  "mqttConfig.tls.caFile": "CA certificate file (PEM) of the broker's certificate; empty = the system's CAs.",
  "mqttConfig.tls.certFile": "Client certificate file (PEM) for brokers that require one; needs keyFile.",
  "mqttConfig.tls.keyFile": "Key file (PEM, unencrypted) of the client certificate; needs certFile.",
  "mqttConfig.tls.rejectUnauthorized":
    "Refuse a broker whose certificate is not trusted; false is for tests only.",
  "mqttConfig.subscriptionRootTopic":
    "Topic filter subscribed to for task starts (e.g. qliksense/#); empty = taskStartTopic alone.",
  "mqttConfig.taskStartTopic":
    "A task id published here starts that task on the platform (needs platform.host); empty = no starts from the broker.",
  "mqttConfig.taskFailureServerStatusTopic":
    "While taskEvents is on: 'start' once its UDP listener listens, 'error' when it cannot bind or its socket fails; empty = not published.",

  // ---- time-series database ----
  timeseriesdbConfig: "Time-series database (validated when enabled or when audit events are written to it).",
  "timeseriesdbConfig.enable": "Store health metrics.",
  "timeseriesdbConfig.host": "Server IP or FQDN.",
  "timeseriesdbConfig.port": "Server port.",
  "timeseriesdbConfig.version": "Database version: 1, 2 or 3 (only that version's block is validated).",
  "timeseriesdbConfig.maxBatchSize": "Points per write batch (1-10000); failed batches are retried smaller.",
  "timeseriesdbConfig.tls":
    "HTTPS to the database (plain http when off: credentials and tokens go in clear).",
  "timeseriesdbConfig.tls.enable": "Connect with HTTPS (https://host:port).",
  "timeseriesdbConfig.tls.caFile":
    "CA certificate file (PEM) of the server's certificate; empty = the system's CAs.",
  "timeseriesdbConfig.tls.rejectUnauthorized":
    "Refuse a server whose certificate is not trusted or not issued for host; false only for tests.",
  "v1Config.auth.enable": "The version 1 database is password protected.",
  "v1Config.auth.username": "User name.",
  "v1Config.auth.password": `Password (secret; use ${ENV_REF}).`,
  "v1Config.dbName": "Database name (required for version 1).",
  "v1Config.retentionPolicy.name": "Name of the default retention policy created with the database.",
  "v1Config.retentionPolicy.duration": 'Retention period, e.g. "10d", "1h", "0" or "INF" (forever).',
  "v2Config.org": "Organisation (required for version 2).",
  "v2Config.bucket": "Bucket (required for version 2).",
  "v2Config.description": "Bucket description.",
  "v2Config.token": `API token (secret; use ${ENV_REF}; required for version 2).`,
  "v2Config.retentionDuration": 'Bucket retention, e.g. "10d" or "0" (forever).',
  "v3Config.database": "Database (required for version 3).",
  "v3Config.description": "Database description.",
  "v3Config.token": `API token (secret; use ${ENV_REF}; required for version 3).`,
  "v3Config.retentionDuration": 'Database retention, e.g. "10d" or "0" (forever).',
  "v3Config.writeTimeout": "Socket timeout of writes in milliseconds (>= 1000).",
  "v3Config.queryTimeout": "Query timeout in milliseconds (>= 1000).",
  "includeFields.activeDocs": "Store the list of active apps.",
  "includeFields.loadedDocs": "Store the list of user-opened apps.",
  "includeFields.inMemoryDocs": "Store the list of in-memory apps.",

  // ---- platform polling ----
  appNames: "App names extracted from the platform.",
  "appNames.enableAppNameExtract": "Extract app names from the platform server.",
  "appNames.extractInterval": "Milliseconds between extractions.",
  "appNames.hostIP": "Platform server IP or FQDN (required when extraction is on).",
  userSessions: "Session data per virtual proxy.",
  "userSessions.enableSessionExtract": "Extract session data per virtual proxy.",
  "userSessions.pollingInterval": "Milliseconds between polls.",
  serversToMonitor: "Platform servers whose health API is polled.",
  "serversToMonitor.pollingInterval": "Milliseconds between health polls.",
  "serversToMonitor.rejectUnauthorized": "false ignores errors from self-signed certificates.",
  "serversToMonitor.serverTagsDefinition":
    "Tag names every server must set in serverTags; also metric label names ([a-zA-Z_][a-zA-Z0-9_]*).",
  "serversToMonitor.servers": "Servers to monitor.",
  "servers[].host": "Server FQDN including port (normally :4747).",
  "servers[].serverName": "Human-friendly server name.",
  "servers[].serverDescription": "Server description.",
  "servers[].userSessions.enable": "Retrieve sessions for this server.",
  "servers[].userSessions.host": "Proxy host and port (usually :4243).",
  "servers[].userSessions.virtualProxies": "Virtual proxies to poll (at least one).",
  "virtualProxies[].virtualProxy": "Virtual proxy prefix, e.g. / or /hdr.",
  "servers[].serverTags": "Tag name/value pairs (every name of serverTagsDefinition, nothing else).",
  "servers[].headers": "HTTP headers used when retrieving metrics (values are masked in logs).",

  // ---- Qlik Cloud tenants ----
  qlikCloud:
    "Qlik Cloud tenants whose reload runs Steward takes in, by signed webhook and by polling (docs/qlik-cloud.md).",
  "qlikCloud.enable": "Take reload runs from the tenants below.",
  "qlikCloud.tenants": "The tenants, each with its own credential, webhook secret and polling.",
  "qlikCloud.tenants[].name":
    "The tenant's label: its tag, the last part of its webhook's path, its cursor files' name (a-z, 0-9, -; unique).",
  "qlikCloud.tenants[].url":
    "The tenant's address, e.g. https://acme.eu.qlikcloud.com (any http(s) URL, for proxies and the simulator).",
  "qlikCloud.tenants[].auth.oauth.clientId":
    "Client ID of the tenant's OAuth machine-to-machine client (preferred over apiKey: its tokens expire on their own).",
  "qlikCloud.tenants[].auth.oauth.clientSecret": `Its client secret (secret; use ${ENV_REF}).`,
  "qlikCloud.tenants[].auth.apiKey": `An API key instead of the OAuth client (secret; use ${ENV_REF}).`,
  "qlikCloud.tenants[].webhook.enable":
    "Receive the tenant's signed webhooks at POST /api/v1/qlik-cloud/webhooks/<name> on the ingest API's listener (needs auditEvents.enable).",
  "qlikCloud.tenants[].webhook.secret": `The webhook's secret, 32 to 64 characters, as registered in the tenant (secret; use ${ENV_REF}).`,
  "qlikCloud.tenants[].poll.enable":
    "Read finished reloads and reload audit events from the tenant's APIs on a schedule, from a cursor kept under ./data/qlik-cloud.",
  "qlikCloud.tenants[].poll.interval":
    'Schedule (UTC): later.js text such as "every 5 minutes" or 5/6-field cron such as "*/5 * * * *".',
  "qlikCloud.tenants[].poll.initialHours":
    "How many hours back the first poll reads (0 to 2160); later polls go on from the cursor.",
  "qlikCloud.tenants[].licences.enable":
    "Read the tenant's licences (/api/v1/licenses/overview and /status) on licenseMonitor.frequency, to qlik_sense_license points tagged with the tenant, the steward_license_access_* gauges and the status page (docs/qlik-cloud.md#licences). Every 6 hours while licenseMonitor.enable is off.",
  "qlikCloud.tenants[].tags.static": "Tags added to everything the tenant's runs become.",
  "qlikCloud.tenants[].tags.static[].name": "Tag name, e.g. qs_env.",
  "qlikCloud.tenants[].tags.static[].value": "Tag value, e.g. prod.",
  "qlikCloud.timeseriesdb":
    "The tenants' reload points, written through timeseriesdbConfig under the site's measurements with a tenant tag.",
  "qlikCloud.timeseriesdb.reloadFailure.enable":
    "Write a reload_task_failed point for every failed reload of a tenant (needs timeseriesdbConfig.enable).",
  "qlikCloud.timeseriesdb.reloadSuccess.enable":
    "Write a reload_task_success point for every successful reload of a tenant (one per reload: a tenant may reload often).",
  "qlikCloud.scriptLogFiles":
    "The full script log of each failed run of a tenant kept on disk as <directory>/<YYYY-MM-DD>/<tenant>-<appId>-<reloadId>.log (UTC date of the run), Butler's scriptLog.storeOnDisk.qsCloud; the settings of taskEvents.scriptLogFiles, in a directory of its own. Here so that a site with tenants only need not turn taskEvents on; local process only (the cloud functions keep no files).",
  "qlikCloud.scriptLogFiles.enable":
    "Keep the script log of every failed run of the tenants (canceled runs are not kept, as in Butler), written from the download the alert makes.",

  // ---- Windows services ----
  serviceMonitor:
    "Windows services of the platform's servers, read with sc.exe on a schedule; Windows only (docs/windows-services.md).",
  "serviceMonitor.enable":
    "Watch the services below; refused by check-config and start on another operating system.",
  "serviceMonitor.frequency":
    'Schedule (UTC): later.js text such as "every 30 seconds" or 5/6-field cron such as "*/1 * * * *".',
  "serviceMonitor.timeoutSeconds":
    "Seconds one sc.exe run may take before it is killed and the reading counted as failed (timeout).",
  "serviceMonitor.monitor": "The hosts and their services to watch.",
  "serviceMonitor.monitor[].host":
    "Host name sc.exe reads the services of (\\\\HOST), e.g. sense1.corp.local.",
  "serviceMonitor.monitor[].services": "The services of that host.",
  "serviceMonitor.monitor[].services[].name":
    "Service name as sc.exe knows it (not the display name), e.g. QlikSenseRepositoryService.",
  "serviceMonitor.monitor[].services[].friendlyName":
    "Name shown in alerts, e.g. Repository; empty: the service name.",
  "serviceMonitor.timeseriesdb.enable":
    "Write a win_service_state point at the first reading and at every change (needs timeseriesdbConfig.enable).",
  "serviceMonitor.timeseriesdb.tag.static": "Tags added to every win_service_state point.",
  "serviceMonitor.timeseriesdb.tag.static[].name": "Tag name, e.g. qs_env.",
  "serviceMonitor.timeseriesdb.tag.static[].value": "Tag value, e.g. prod.",
  "serviceMonitor.sendToMQTT.enable":
    "Publish the services' states to the broker under the topics below (needs mqttConfig.enable).",
  "serviceMonitor.sendToMQTT.serviceRunningTopic":
    "Topic root of services that are RUNNING again: <topic>/<host>/<service>, with the previous state.",
  "serviceMonitor.sendToMQTT.serviceStoppedTopic":
    "Topic root of services that left RUNNING: <topic>/<host>/<service>, with the previous state.",
  "serviceMonitor.sendToMQTT.serviceStatusTopic":
    "Topic root of every service's state at the first reading and at every change: <topic>/<host>/<service>.",

  // ---- licences and version ----
  licenseMonitor:
    "Licence and version monitoring: access licence use, the server licence's expiry, the platform version, and the release of unused access licences (docs/licences.md). Reads the repository at platform.host with the cert.* client certificate.",
  "licenseMonitor.enable": "Run the licence monitor (once at start, then on its schedule).",
  "licenseMonitor.frequency":
    'Schedule (UTC): later.js text such as "every 6 hours" or 5/6-field cron such as "0 */6 * * *".',
  "licenseMonitor.timeseriesdb.enable":
    "Write qlik_sense_license, qlik_sense_server_license, qlik_sense_version and qlik_sense_license_release (needs timeseriesdbConfig.enable).",
  "licenseMonitor.timeseriesdb.tag.static":
    "Tags added to every licence point, e.g. qs_env, which the shipped dashboards filter on.",
  "licenseMonitor.timeseriesdb.tag.static[].name": "Tag name, e.g. qs_env.",
  "licenseMonitor.timeseriesdb.tag.static[].value": "Tag value, e.g. prod.",
  "licenseMonitor.sendToMQTT.enable":
    "Publish the server licence's state (and expiry alerts) to the broker (needs mqttConfig.enable).",
  "licenseMonitor.sendToMQTT.qlikSenseServerLicenseTopic":
    "Topic of the server licence's state ({licenseExpired, expiryDateStr, daysUntilExpiry}), every run.",
  "licenseMonitor.sendToMQTT.qlikSenseServerLicenseExpireTopic":
    "Topic of the text alert when the server licence has expired or expires within alertDaysBefore days.",
  "licenseMonitor.accessLicenses.enable":
    "Read the access licence overview (professional, analyzer, analyzer capacity, login and user tokens).",
  "licenseMonitor.serverLicense.enable": "Read the server licence's expiry.",
  "licenseMonitor.serverLicense.alertDaysBefore":
    "WARN (and alert) once per run when the server licence expires within this many days, or has expired.",
  "licenseMonitor.serverLicense.webhook.enable":
    "Call the server licence's webhooks (also needs webhookNotification.enable and a switch below).",
  "licenseMonitor.serverLicense.webhook.sendRecurring.enable":
    "After every run, call webhookNotification.qlikSenseServerLicenseMonitor with the licence's status.",
  "licenseMonitor.serverLicense.webhook.sendAlert.enable":
    "When the licence has expired or expires within alertDaysBefore days, call webhookNotification.qlikSenseServerLicenseExpiryAlert.",
  "licenseMonitor.version.enable": "Read the platform's version from its /v1/systeminfo endpoint.",
  "licenseMonitor.version.host": "Host of the version endpoint (the central node); empty: platform.host.",
  "licenseMonitor.version.port": "Port of the version endpoint (the platform serves it on 9032).",
  "licenseMonitor.licenseRelease.enable":
    "Release access licences unused for releaseThresholdDays (writes to the platform: see dryRun).",
  "licenseMonitor.licenseRelease.dryRun":
    "Only log and count what would be released; set false to release for real.",
  "licenseMonitor.licenseRelease.neverRelease.user":
    "Users whose licences are never released (userDir and userId, case-insensitive).",
  "neverRelease.user[].userDir": "User directory, e.g. INTERNAL.",
  "neverRelease.user[].userId": "User id, e.g. sa_repository.",
  "licenseMonitor.licenseRelease.neverRelease.tag": "Users carrying any of these tags keep their licences.",
  "licenseMonitor.licenseRelease.neverRelease.customProperty":
    "Users with any of these custom property name/value pairs keep their licences.",
  "neverRelease.customProperty[].name": "Custom property name.",
  "neverRelease.customProperty[].value": "Custom property value.",
  "licenseMonitor.licenseRelease.neverRelease.userDirectory":
    "User directories whose users keep their licences (case-insensitive).",
  "licenseMonitor.licenseRelease.neverRelease.inactive":
    "ignore, yes (keep licences of inactive users) or no (keep those of active users).",
  "licenseMonitor.licenseRelease.neverRelease.blocked":
    "ignore, yes (keep licences of blocked users) or no (keep those of users not blocked).",
  "licenseMonitor.licenseRelease.neverRelease.removedExternally":
    "ignore, yes (keep licences of users removed externally) or no (keep the others').",
  "licenseMonitor.licenseRelease.licenseType.professional.enable": "Release professional licences.",
  "licenseMonitor.licenseRelease.licenseType.professional.releaseThresholdDays":
    "Days a professional licence may go unused before it is released (at least 1: 0 would release licences in use today).",
  "licenseMonitor.licenseRelease.licenseType.analyzer.enable": "Release analyzer licences.",
  "licenseMonitor.licenseRelease.licenseType.analyzer.releaseThresholdDays":
    "Days an analyzer licence may go unused before it is released (at least 1: 0 would release licences in use today).",

  // ---- audit events ----
  auditEvents: "Audit event ingest API (POST /api/v1/audit-event) and its destinations.",
  "auditEvents.enable": "Enable the audit ingest HTTP API.",
  "auditEvents.host": "Listen host name or IP.",
  "auditEvents.port": "Listen port.",
  "auditEvents.apiToken": `Bearer token required by the ingest API (not by its documentation); empty = no token, with a warning at start (secret; use ${ENV_REF}).`,
  "auditEvents.maxConnections":
    "Open connections at most (every user's browser may keep one open for 5 s); one more is closed at once.",
  allowedHosts:
    "Host names (no scheme or port) clients use to reach this listener, besides localhost and IP addresses; a request naming another Host gets 421 (a guard against DNS rebinding). Behind a proxy that passes the Host on: its public name, e.g. qlik-ops.corp.local.",
  trustedProxies:
    "Addresses or CIDR ranges of proxies in front of this listener, e.g. \"10.0.0.0/8\": from them X-Forwarded-For names the client (rate limit, logs, the event's clientIp); empty = the connection's peer is the client.",
  ...Object.fromEntries(
    LISTENER_TLS_SECTIONS.map((section) => [
      `${section}.tls`,
      "HTTPS with a server certificate (PEM cert and key, or a PFX); TLS 1.2 at least; the files are read again when they change.",
    ]),
  ),
  "tls.enable": "Serve HTTPS instead of plain HTTP (the listener's URLs say https://).",
  "tls.cert":
    "Server certificate file (PEM), issued for the names clients use; intermediate certificates may follow it.",
  "tls.key": "Private key file (PEM) of cert; an encrypted one needs passphrase.",
  "tls.pfx": "Instead of cert and key: a PFX (PKCS#12) file holding the certificate and its private key.",
  "tls.ca": "Intermediate CA certificates (PEM) sent with the certificate; empty = none.",
  "tls.passphrase": `Passphrase of an encrypted key or of the PFX (secret; use ${ENV_REF}).`,
  "auditEvents.maxBodyBytes": "Largest accepted request body in bytes.",
  "auditEvents.correlationIdMaxLength": "Longest accepted correlation ID.",
  "auditEvents.compatibility": "Server/client version pairs that work together.",
  "compatibility[].serverRange": "Semver range of server versions.",
  "compatibility[].clientRange": "Semver range of client versions they accept.",
  "cors.allowedOrigins": 'Browser origins allowed, e.g. "https://sense.example.com"; empty refuses browsers.',
  "rateLimit.enable": "HTTP rate limiting per client IP.",
  "rateLimit.maxPerMinute": "Requests per minute per client IP.",
  "auditEvents.queue.durable":
    "Local runtime: answer 202 only once the event is in an append-only log on disk and synced (fdatasync), so a crash, kill -9 or power cut loses no acknowledged event; each destination is fed from the log and, after a restart, gets again what it had not yet written (at least once: de-duplicate on eventId). false = in-memory queue (faster, loses buffered events in a crash).",
  "auditEvents.queue.directory":
    "Directory of the durable queue's log segments and destination cursors (relative paths resolve from the working directory).",
  "auditEvents.queue.maxDiskBytes":
    "Most bytes the durable queue's log may hold (default 1 GiB); when full, ingest answers 503 with retry-after and a warning names the destination that is behind.",
  "auditEvents.queue.maxSize":
    "In-memory queue (durable: false): events waiting before new ones are refused.",
  "auditEvents.queue.maxConcurrent": "In-memory queue (durable: false): events processed simultaneously.",
  "auditEvents.queue.backpressureThreshold":
    "Percent queue utilisation (durable queue: of maxDiskBytes) at which a warning is logged.",
  "auditEvents.queue.rateLimit.enable": "Global throughput limiter of the internal queue.",
  "auditEvents.queue.rateLimit.maxPerMinute": "Events processed per minute.",
  "auditEvents.destination.enable": "Write accepted events to the destinations.",
  "auditEvents.destination.type": "Comma-delimited writers: timeseriesdb, parquet, tablefile, json.",
  maxBatchSize: "Events per write batch.",
  writeFrequency: "Milliseconds between writes of a partial batch.",
  measurementName: "Measurement name.",
  exportDirectory: "Directory the files are written to.",
  staticTags: "Name/value tags added to every row or file.",
  "staticTags[].name": "Tag name.",
  "staticTags[].value": "Tag value.",
  "json.objectdata.enable": "Write per-event JSON files of payload.event.objectData.",

  // ---- REST server ----
  restServer: "Management REST API (/v4).",
  "restServer.enable": "Enable the REST API.",
  "restServer.host": "Listen host name or IP.",
  "restServer.port": "Listen port.",
  "restServer.apiToken": `Bearer token required by every /v4 endpoint and the OpenAPI document; empty = no token: a warning at start, and only on a loopback host without * among cors.allowedOrigins unless allowUnauthenticated (secret; use ${ENV_REF}).`,
  "restServer.allowUnauthenticated":
    "Serve without apiToken on a host other than loopback, or with * among cors.allowedOrigins (with a warning); otherwise either is refused at start.",
  "restServer.maxConnections": "Open connections at most; one more is closed at once.",
  "restServer.maxBodyBytes": "Largest accepted request body in bytes.",
  "restServer.endpointsEnable": "Endpoints served; a disabled endpoint answers 404.",
  "endpointsEnable.apiListEnabledEndpoints": "GET /v4/configfile/endpointsenabled.",
  "endpointsEnable.ping": "GET /v4/ping.",
  "endpointsEnable.base62ToBase16": "GET /v4/base62tobase16.",
  "endpointsEnable.base16ToBase62": "GET /v4/base16tobase62.",
  "endpointsEnable.fileCopy": "PUT /v4/filecopy (within fileOperations.copyApprovedDirectories).",
  "endpointsEnable.fileMove": "PUT /v4/filemove (within fileOperations.moveApprovedDirectories).",
  "endpointsEnable.fileDelete": "DELETE /v4/filedelete (within fileOperations.deleteApprovedDirectories).",
  "endpointsEnable.createDirTableData": "POST /v4/createdirqvd (needs fileOperations.tableDataDirectory).",
  "endpointsEnable.createDir": "POST /v4/createdir.",
  "endpointsEnable.keyValueStore": "The /v4/keyvaluesnamespaces endpoints.",
  "endpointsEnable.mqttPublishMessage": "PUT /v4/mqttpublishmessage (needs mqttConfig).",
  "endpointsEnable.observabilityEvent": "POST /v4/observability/event (needs obsPlatform.event).",
  "endpointsEnable.observabilityMetric": "POST /v4/observability/metric (needs obsPlatform.metric).",
  "endpointsEnable.chatPostMessage": "PUT /v4/chatpostmessage (needs chat.webhookURL).",
  "endpointsEnable.scheduleCreate": "POST /v4/schedules.",
  "endpointsEnable.scheduleGet": "GET /v4/schedules.",
  "endpointsEnable.scheduleDelete": "DELETE /v4/schedules/{id}.",
  "endpointsEnable.scheduleStart": "PUT /v4/schedules/{id}/start and /startall.",
  "endpointsEnable.scheduleStop": "PUT /v4/schedules/{id}/stop and /stopall.",
  "endpointsEnable.scheduleStatus": "GET /v4/schedules/status.",
  "endpointsEnable.appReload": "PUT /v4/app/{appId}/reload (needs platform and cert).",
  "endpointsEnable.appDump": "GET /v4/app/{appId}/dump (needs platform and cert).",
  "endpointsEnable.appList": "GET /v4/apps/list (needs platform and cert).",
  "endpointsEnable.reloadTaskStart": "PUT /v4/reloadtask/{taskId}/start (needs platform and cert).",
  "restServer.observability.event.destinationAccount": "Accounts POST /v4/observability/event sends to.",
  "restServer.observability.metric.destinationAccount": "Accounts POST /v4/observability/metric sends to.",

  // ---- files, stores, chat, cloud ----
  fileOperations: "Directories the file endpoints may touch (anything else answers 403).",
  "fileOperations.copyApprovedDirectories": "Allowed copy source/target directory pairs.",
  "fileOperations.moveApprovedDirectories": "Allowed move source/target directory pairs.",
  fromDirectory: "Source directory (files in it and below).",
  toDirectory: "Target directory (files in it and below).",
  "fileOperations.deleteApprovedDirectories": "Directories in which files may be deleted.",
  "fileOperations.tableDataDirectory": "Base directory of POST /v4/createdirqvd.",
  keyValueStore: "Key-value store of the REST API.",
  "keyValueStore.enable": "Enable the key-value store.",
  "keyValueStore.maxKeysPerNamespace": "Most keys a namespace may hold.",
  "keyValueStore.maxNamespaces":
    "Most namespaces the store may hold; a write that would add one more is refused with 507.",
  "keyValueStore.maxTotalBytes":
    "Most bytes (UTF-8) of all keys and values together; a write past it is refused with 507. A store over a limit answers reads and deletes only.",
  "keyValueStore.storeFile": "File persisting the store (local runs).",
  scheduler: "Cron schedules that start platform tasks.",
  "scheduler.enable": "Run the schedules.",
  "scheduler.storeFile": "File persisting the schedules (local runs).",
  chat: "Chat (webhook) messages of PUT /v4/chatpostmessage.",
  "chat.webhookURL": `Incoming-webhook URL (secret; use ${ENV_REF}); required when chatPostMessage is on.`,
  cloud: "AWS resources shared with the cloud deployment (filled from SST links inside Lambda).",
  "cloud.enable": "Use the cloud stores named below from this process (an on-prem agent of the cloud).",
  "cloud.region": "AWS region (required when enabled).",
  "cloud.eventQueueUrl":
    "URL of the audit event SQS queue; set: ingested events go there, no local destinations run.",
  "cloud.rateLimitTable":
    "DynamoDB table of rate-limit counters; set: the ingest limit is shared through it.",
  "cloud.keyValueTable": "DynamoDB table of the key-value store.",
  "cloud.scheduleTable":
    "DynamoDB table of schedules (and the locks that let one agent start each occurrence).",
  "cloud.bucketName": "S3 bucket of exported files.",
  "cloud.bucketPrefix": "Key prefix inside the bucket.",
});

/** Commented examples printed under lists that are empty by default. */
export const LIST_EXAMPLES: Readonly<Record<string, unknown>> = {
  "serviceMonitor.monitor": [
    {
      host: "sense1.example.com",
      services: [
        { name: "QlikSenseRepositoryService", friendlyName: "Repository" },
        { name: "QlikSenseSchedulerService", friendlyName: "Scheduler" },
      ],
    },
  ],
  "thirdPartyToolsCredentials.obsPlatform": [
    { accountName: "First account", insertApiKey: envRef("OBS_INSERT_API_KEY"), accountId: "1234567" },
  ],
  "logEvents.categorise.rules": [
    {
      description: "Find access denied errors",
      logLevel: ["warn", "error"],
      action: "categorise",
      category: [{ name: "qs_log_category", value: "access-denied" }],
      filter: [{ type: "sw", value: "Access was denied for User:" }],
    },
  ],
  "serversToMonitor.servers": [
    {
      host: "sense1.example.com:4747",
      serverName: "sense1",
      serverDescription: "Central node",
      userSessions: {
        enable: true,
        host: "sense1.example.com:4243",
        virtualProxies: [{ virtualProxy: "/" }],
      },
      serverTags: { server_group: "DEV" },
      headers: { "X-My-Header": "value" },
    },
  ],
  "monitorFilter.appSpecific.app": [
    {
      include: [{ appId: "6d2b2f3c-0000-4000-8000-000000000000" }, { appName: "Sales" }],
      objectType: { allObjectTypes: true, allObjectTypesExclude: [], someObjectTypesInclude: [] },
      appObject: { allAppObjects: true, allAppObjectsExclude: [], someAppObjectsInclude: [] },
      method: { allMethods: true, allMethodsExclude: [], someMethodsInclude: [] },
    },
  ],
  "startTaskFilter.allowTask.taskId": ["7552d9fc-d1bb-4975-9a38-18357de531ea"],
  "startTaskFilter.allowTask.tag": ["startTask1"],
  "startTaskFilter.allowTask.customProperty": [{ name: "taskGroup", value: "tasks1" }],
  "licenseMonitor.timeseriesdb.tag.static": [{ name: "qs_env", value: "prod" }],
  "licenseMonitor.licenseRelease.neverRelease.user": [{ userDir: "INTERNAL", userId: "sa_repository" }],
  "licenseMonitor.licenseRelease.neverRelease.tag": ["License do not release"],
  "licenseMonitor.licenseRelease.neverRelease.customProperty": [
    { name: "LicenseManage", value: "do-not-release" },
  ],
  "licenseMonitor.licenseRelease.neverRelease.userDirectory": ["ADMIN"],
  "qlikCloud.tenants": [
    {
      name: "acme-eu",
      url: "https://acme.eu.qlikcloud.com",
      auth: {
        oauth: { clientId: "0123456789abcdef0123456789abcdef", clientSecret: envRef("ACME_CLIENT_SECRET") },
      },
      webhook: { enable: true, secret: envRef("ACME_WEBHOOK_SECRET") },
      poll: { enable: true, interval: "every 5 minutes", initialHours: 24 },
      tags: { static: [{ name: "qs_env", value: "prod" }] },
    },
  ],
  "fileOperations.copyApprovedDirectories": [{ fromDirectory: "/data/in", toDirectory: "/data/out" }],
  "fileOperations.moveApprovedDirectories": [{ fromDirectory: "/data/in", toDirectory: "/data/archive" }],
  excludeUser: [{ directory: "LAB", userId: "testuser" }],
  "allApps.appExclude": [{ appId: "6d2b2f3c-0000-4000-8000-000000000000" }, { appName: "Test app" }],
  "app[].include": [{ appName: "Sales" }],
  header: [{ name: "X-My-Header", value: envRef("MY_HEADER_VALUE") }],
  tags: [{ name: "env", value: "dev" }],
  "tag.static": [{ name: "qs_env", value: "prod" }],
  genericUrls: [
    {
      id: "runbook",
      linkText: "Runbook",
      comment: "What to do when a reload fails",
      url: "https://wiki.example.com/reloads",
    },
  ],
  staticTags: [{ name: "env", value: "dev" }],
  "attribute.static": [{ name: "env", value: "dev" }],
};

/** True when `key` names a real path from the root: its entry then applies there only, never to a nested namesake. */
const isRootPath = (key: string) =>
  schemaAt(serviceSchema, key.replaceAll("[]", ".[]").split(".")) !== undefined;

/** The entry for a setting, by the longest matching path suffix. */
export function lookupByPath<T>(table: Readonly<Record<string, T>>, path: readonly string[]): T | undefined {
  for (let i = 0; i < path.length; i++) {
    const key = path.slice(i).join(".").replaceAll(".[]", "[]");
    if (key.startsWith("[]")) continue;
    if (i > 0 && isRootPath(key)) continue;
    const found = table[key];
    if (found !== undefined) return found;
  }
  return undefined;
}
