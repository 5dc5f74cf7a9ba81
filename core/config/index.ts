/**
 * Steward's configuration: one valibot schema for the whole `Service` tree, parsed once at start
 * and handed down as typed slices (`config.auditEvents`, `config.restServer`, ...).
 *
 * Everything in `pure.ts` (parseConfig, checkConfigText, defaultConfig, renderTemplate,
 * obfuscateConfig, the types), plus the file loaders, the only code here using node:fs:
 * - checkConfigFile(path, env?)  reads the file; also checks certificate files when needed
 * - loadConfigFile(path, env?)   like checkConfigFile, but returns Config or throws ConfigError
 */
export { checkCertificateFiles, checkConfigFile, loadConfigFile, needsCertificates } from "./load.ts";
export * from "./pure.ts";
