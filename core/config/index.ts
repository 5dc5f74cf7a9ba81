/**
 * Steward's configuration: one valibot schema for the whole `Service` tree, parsed once at start
 * and handed down as typed slices (`config.auditEvents`, `config.restServer`, ...). No file
 * access anywhere below this module (edge-style handlers import it); reading a file from disk is
 * the local adapter's job (core/adapters/local/config-file.ts).
 *
 * - parseConfig(raw, env?)             a parsed YAML tree (`{Service: ...}`) → Config or every problem
 * - checkConfigText(text, file, env?)  YAML text → Config or every problem (extension, syntax, schema)
 * - defaultConfig()                    the embedded default config (what `npm start` runs without a file)
 * - renderTemplate()                   the commented template of `steward init-config`
 * - obfuscateConfig(tree)              a masked copy for logs, crash files and the config UI
 *
 * Semantics in short: every setting has a default; unknown keys are errors (with a suggestion),
 * in every section; a section whose `enable` is not true has only its key names checked and
 * parses to its defaults with `enable: false`; `${ENV}` references are substituted in validated
 * sections; the files validated sections name are listed with the result (`files`) for the local
 * adapter to check in the same pass; every problem is reported at once as
 * `Service.path.to.key: message`, sorted by path.
 *
 * This file is the module's only door: code outside core/config/ imports it and nothing else of
 * the module, so the schema's files can be rearranged without touching their users. Besides the
 * above, it gives the types of every section, the checks other modules share (address forms,
 * URL masking, listener TLS, certificate files, the open-listener warning), the schema walk of
 * the config UI and `npm run docs:config`, and the migration of Butler's config.
 */
export { type MqttTlsFileKey, mqttTlsFiles } from "./certificates.ts";
export { type ConfigView, configView } from "./config-view.ts";
export { defaultConfig, EMBEDDED_CONFIG } from "./defaults.ts";
export type { Env } from "./env.ts";
export {
  type LicenseMonitorDestinations,
  licenseMonitorDestinations,
  serviceMonitorDestinations,
} from "./license-monitor-destinations.ts";
export {
  type CertificateForm,
  certificateForm,
  type ListenerTlsSection,
  listenerTlsOf,
  type NamedListenerTls,
} from "./listener-tls.ts";
export { maskUrl } from "./mask-url.ts";
export { migrateConfigText } from "./migrate/convert.ts";
export type { NamedFile } from "./named-file.ts";
export { cannotReadFile } from "./named-file.ts";
export { isSecretKey, MASK, obfuscateConfig } from "./obfuscate.ts";
export { openListenerWarning } from "./open-listeners.ts";
export { checkConfigText, checkExtension, type ParseResult, parseConfig } from "./parse.ts";
export { platformProblems, SERVICE_MONITOR_WINDOWS_ONLY } from "./platform-checks.ts";
export { ConfigError, type ConfigProblem, formatProblem, formatProblems, sortProblems } from "./problems.ts";
export { AUDIT_DESTINATION_TYPES, type AuditDestinationType } from "./schema/audit-events.ts";
export type * from "./schema/config.ts";
export { serviceSchema } from "./schema/config.ts";
export type { ReleaseFlagRule } from "./schema/license-monitor.ts";
export { LOG_EVENT_LEVELS } from "./schema/log-events.ts";
export type { NameValue } from "./schema/primitives.ts";
export {
  ENDPOINT_KEYS,
  type EndpointKey,
  FILE_ENDPOINT_KEYS,
  PLATFORM_ENDPOINT_KEYS,
  SCHEDULE_ENDPOINT_KEYS,
} from "./schema/rest-server.ts";
export { TIMESERIESDB_VERSIONS, type TimeseriesdbVersion } from "./schema/timeseriesdb.ts";
export {
  type AnySchema,
  arrayItem,
  isRequiredWhenActive,
  objectEntries,
  recordValue,
  schemaAt,
  schemaDefault,
  unwrap,
} from "./schema-walk.ts";
export { documentationOf, renderTemplate } from "./template.ts";
export {
  cloudRunsPublish,
  logEventsEnabled,
  type PipelineDestinations,
  pipelineDestinations,
  taskEventsPublish,
  taskEventsServerStatus,
  udpEventsEnabled,
} from "./udp-pipelines.ts";
export { isIPv4, isIPv6, isLoopbackHost } from "./validators.ts";
