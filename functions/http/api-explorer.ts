/**
 * The interactive API explorer at `/documentation`: Swagger UI (the pinned `swagger-ui-dist`)
 * over the OpenAPI document at `/documentation/json`. Every file the page loads is served by the
 * same app under `/documentation/assets/` (no CDN: the page works offline). The page's own
 * start-up script is a file too, so the Content-Security-Policy needs no inline script: scripts,
 * styles, images and requests from this origin only (`'unsafe-inline'` styles because Swagger UI
 * sets style attributes; `data:` images for its icons). Runtime-neutral: the files themselves
 * come through `ExplorerAssets`, read from the package by core/adapters/swagger-ui-assets.ts.
 */

export const EXPLORER_PATH = "/documentation";
export const EXPLORER_ASSET_PREFIX = "/documentation/assets/";

export const EXPLORER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/** The package files the page loads, by the name they are served under. */
export const SWAGGER_UI_FILES = ["swagger-ui.css", "swagger-ui-bundle.js"] as const;
export type SwaggerUiFile = (typeof SWAGGER_UI_FILES)[number];

/** Reads one of the package's files (text). */
export interface ExplorerAssets {
  read(name: SwaggerUiFile): Promise<string>;
}

export interface ExplorerFile {
  body: string;
  contentType: string;
}

/** Starts Swagger UI on the document whose URL the page names in `data-openapi`. */
const START_SCRIPT = `"use strict";
window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-openapi"),
    dom_id: "#swagger-ui",
    deepLinking: true,
    tryItOutEnabled: true,
    displayRequestDuration: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });
});
`;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  css: "text/css; charset=UTF-8",
  js: "text/javascript; charset=UTF-8",
};

function escapeAttribute(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}

/** The explorer's HTML page, titled `title`, on the document at `documentUrl`. */
export function explorerPage(title: string, documentUrl: string): string {
  const asset = (name: string) => `${EXPLORER_ASSET_PREFIX}${name}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeAttribute(title)}</title>
<link rel="stylesheet" href="${asset("swagger-ui.css")}">
</head>
<body>
<div id="swagger-ui" data-openapi="${escapeAttribute(documentUrl)}"></div>
<script src="${asset("swagger-ui-bundle.js")}"></script>
<script src="${asset("explorer.js")}"></script>
</body>
</html>
`;
}

/**
 * The file served at `/documentation/assets/<name>`, or undefined for any other name (404).
 * Only the listed files are ever read: a name is never turned into a path.
 */
export async function explorerFile(name: string, assets: ExplorerAssets): Promise<ExplorerFile | undefined> {
  const type = CONTENT_TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "text/plain; charset=UTF-8";
  if (name === "explorer.js") return { body: START_SCRIPT, contentType: type };
  if (!(SWAGGER_UI_FILES as readonly string[]).includes(name)) return undefined;
  return { body: await assets.read(name as SwaggerUiFile), contentType: type };
}
