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

/**
 * Starts Swagger UI on the document whose URL the page names in `data-openapi`. The document may
 * need the API's token (the REST API's, when one is set): the page itself holds no data and loads
 * without one, then asks the document; on 401 it asks the person for the token (a password field,
 * naming the setting from `data-token-setting`), and once the document answers with it, starts
 * Swagger UI with the token on every request it makes (the document, "Try it out") and shown as
 * authorized. The token lives in this page's memory only: a reload asks again.
 */
const START_SCRIPT = `"use strict";
window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  var url = root.getAttribute("data-openapi");
  var setting = root.getAttribute("data-token-setting") || "apiToken";
  var form;

  function start(token) {
    window.ui = SwaggerUIBundle({
      url: url,
      dom_id: "#swagger-ui",
      deepLinking: true,
      tryItOutEnabled: true,
      displayRequestDuration: true,
      validatorUrl: null,
      presets: [SwaggerUIBundle.presets.apis],
      layout: "BaseLayout",
      requestInterceptor: function (request) {
        if (token && !request.headers.Authorization) request.headers.Authorization = "Bearer " + token;
        return request;
      },
      onComplete: function () {
        if (token) window.ui.preauthorizeApiKey("bearer", token);
      }
    });
  }

  function element(tag, text, style) {
    var node = document.createElement(tag);
    if (text) node.textContent = text;
    Object.assign(node.style, style || {});
    return node;
  }

  function ask(refused) {
    if (!form) {
      form = element("form", "", { maxWidth: "34rem", margin: "3rem auto", padding: "1.5rem 2rem",
        border: "1px solid #d8dde7", borderRadius: "6px", fontFamily: "sans-serif", color: "#3b4151" });
      form.id = "token-form";
      form.appendChild(element("h2", "This API's documentation needs its token", { marginTop: "0" }));
      form.appendChild(element("p", "Enter the bearer token the API is configured with (" + setting +
        "). It stays in this page only and is sent with every request the explorer makes.", { lineHeight: "1.4" }));
      var input = element("input", "", { width: "100%", boxSizing: "border-box", padding: "0.5rem",
        fontSize: "1rem", marginBottom: "0.75rem" });
      input.type = "password";
      input.id = "token";
      input.autocomplete = "off";
      input.placeholder = "API token";
      input.setAttribute("aria-label", "API token");
      form.appendChild(input);
      form.appendChild(element("button", "Open the documentation", { padding: "0.5rem 1rem", fontSize: "1rem" }));
      var message = element("p", "", { color: "#b00020" });
      message.id = "token-message";
      message.setAttribute("role", "alert");
      form.appendChild(message);
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        load(input.value.trim());
      });
      root.parentNode.insertBefore(form, root);
    }
    form.querySelector("#token-message").textContent = refused ? "That token was refused (401): check it and try again." : "";
    form.querySelector("#token").focus();
  }

  function load(token) {
    var headers = token ? { Authorization: "Bearer " + token } : {};
    fetch(url, { headers: headers }).then(function (response) {
      if (response.status === 401) {
        ask(token !== "");
        return;
      }
      if (form) form.remove();
      start(token);
    }, function () {
      start(token);
    });
  }

  load("");
});
`;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  css: "text/css; charset=UTF-8",
  js: "text/javascript; charset=UTF-8",
};

function escapeAttribute(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}

/**
 * The explorer's HTML page, titled `title`, on the document at `documentUrl`; `tokenSetting`
 * names the setting whose token the document may need (shown when the page asks for it).
 */
export function explorerPage(title: string, documentUrl: string, tokenSetting = "apiToken"): string {
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
<div id="swagger-ui" data-openapi="${escapeAttribute(documentUrl)}" data-token-setting="${escapeAttribute(tokenSetting)}"></div>
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
