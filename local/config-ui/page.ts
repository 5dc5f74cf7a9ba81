/**
 * The config UI's HTML page (`GET /`): a live status panel (filled by /assets/status.js from
 * `GET /status`; what needs an operator is listed at its top, in #status-alerts), then the
 * configuration as numbered, highlighted YAML lines with a download link, and as an expandable
 * tree. Built once at start: the configuration does not change while the process runs. No
 * inline script or style: the CSP allows only this origin's files.
 */
import { SERVICE_NAME, SERVICE_VERSION } from "../../core/version.ts";
import { escapeHtml, treeHtml, yamlLines } from "./yaml-html.ts";

export interface PageOptions {
  yaml: string;
  tree: unknown;
  obfuscated: boolean;
}

export function renderConfigPage(options: PageOptions): string {
  const note = options.obfuscated
    ? "Secrets are masked, and so are user names, passwords, query values and tokens inside URLs; host names, paths and similar values show only their first characters."
    : "Shown as written (configVisualisation.obfuscate is false): secrets are visible.";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(SERVICE_NAME)} ${escapeHtml(SERVICE_VERSION)}: status and configuration</title>
<link rel="stylesheet" href="/assets/page.css">
<link rel="icon" href="data:,">
</head>
<body>
<header><h1>${escapeHtml(SERVICE_NAME)} <span class="version">${escapeHtml(SERVICE_VERSION)}</span></h1>
<nav><a href="#status">Status</a> <a href="#config">Configuration</a> <a href="#tree">Tree</a></nav></header>
<main>
<section id="status" aria-live="polite">
<h2>Status <span id="status-updated" class="muted">loading…</span></h2>
<div id="status-alerts"></div>
<div class="cards">
<div class="card"><div class="label">Version</div><div class="value" id="status-version">–</div></div>
<div class="card"><div class="label">Uptime</div><div class="value" id="status-uptime">–</div></div>
<div class="card"><div class="label">Events taken in</div><div class="value" id="status-events">–</div></div>
<div class="card"><div class="label">Events per second</div><div class="value" id="status-rate">–</div></div>
</div>
<figure class="chart"><svg id="status-chart" viewBox="0 0 600 120" preserveAspectRatio="none" role="img" aria-label="Events per second over the last minutes"></svg>
<figcaption>Events per second, last 5 minutes (audit events and UDP datagrams received); <span id="status-chart-max"></span></figcaption></figure>
<div id="status-tables"></div>
</section>
<section id="config">
<h2>Configuration</h2>
<p class="muted">${escapeHtml(note)} <code>\${NAME}</code> references are shown as written, never resolved.</p>
<p><a class="button" id="download" href="/config.yaml" download="steward-config.yaml">Download as YAML</a></p>
<ol class="yaml" id="yaml">
${yamlLines(options.yaml)}
</ol>
</section>
<section id="tree">
<h2>Tree</h2>
${treeHtml(options.tree)}
</section>
</main>
<script src="/assets/status.js"></script>
</body>
</html>
`;
}
