/**
 * Steward's configuration: one valibot schema for the whole `Service` tree, parsed once at start
 * and handed down as typed slices (`config.auditEvents`, `config.restServer`, ...).
 *
 * - parseConfig(raw, env?)          pure; a parsed YAML tree → Config or every problem
 * - checkConfigText(text, file, env?) pure; YAML text → Config or every problem (CLI, Lambda)
 * - checkConfigFile(path, env?)     reads the file, also checks certificate files when needed
 * - loadConfigFile(path, env?)      like checkConfigFile, throws ConfigError
 * - defaultConfig()                 the embedded default config (CONTRACT §1)
 */
export { defaultConfig, EMBEDDED_CONFIG } from "./defaults.ts";
export type { Env } from "./env.ts";
export { checkCertificateFiles, checkConfigFile, loadConfigFile, needsCertificates } from "./load.ts";
export { checkConfigText, checkExtension, type ParseResult, parseConfig } from "./parse.ts";
export {
  ConfigError,
  type ConfigProblem,
  formatProblem,
  formatProblems,
} from "./problems.ts";
export { AUDIT_DESTINATION_TYPES, type AuditDestinationType } from "./schema/audit-events.ts";
export type * from "./schema/config.ts";
export { serviceSchema } from "./schema/config.ts";
export { LOG_EVENT_LEVELS } from "./schema/log-events.ts";
export type { NameValue } from "./schema/primitives.ts";
export { ENDPOINT_KEYS, type EndpointKey, PLATFORM_ENDPOINT_KEYS } from "./schema/rest-server.ts";
export { TIMESERIESDB_VERSIONS, type TimeseriesdbVersion } from "./schema/timeseriesdb.ts";
