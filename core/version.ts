import packageJson from "../package.json" with { type: "json" };

/** The running server version: always package.json's. */
export const SERVICE_VERSION: string = packageJson.version;
export const SERVICE_NAME = "steward";
