/**
 * Steward's YAML configuration for the Lambda functions, kept as a secret because it may hold
 * tokens. Set it with `npx sst secret set StewardConfig "$(cat steward.yaml)"`; until then every
 * setting takes its default.
 */
export const stewardConfig = new sst.Secret("StewardConfig", "Service: {}");
