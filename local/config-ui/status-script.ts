/**
 * The status panel's script, served as /assets/status.js: asks `GET /status` every
 * `STATUS_REFRESH_MS`, fills the cards and tables (text only, never HTML from the answer) and
 * keeps a ring of events per second for the last five minutes, drawn as an SVG line. The durable
 * audit queue (`audit.queue`) and the local stores (`stores`) are shown when the answer has
 * them, with a warning while ingest or a store refuses calls, or a destination holds the queue up.
 * Each UDP queue shows, next to its own drops, what the operating system dropped before the queue
 * saw it, or "not available" (the reason on hover) where the system does not report it ("not
 * available on this platform" where it never does: Windows).
 * Reload-task events, when they are on, show the latest events with what each alert destination
 * did and what the repository could not tell, each destination's counts and last error, and the
 * failed reloads' script logs kept on disk (written, failed, kept, the last error). The
 * licence monitor's last run is shown when it runs (status-licences-script.ts), and each Qlik
 * Cloud tenant when `qlikCloud` is on (status-cloud-script.ts), with its licences when they are
 * read (status-cloud-licences-script.ts), and the Windows services the service monitor watches
 * when it runs (status-services-script.ts).
 */
import { STATUS_CLOUD_LICENCES_SCRIPT } from "./status-cloud-licences-script.ts";
import { STATUS_CLOUD_SCRIPT } from "./status-cloud-script.ts";
import { STATUS_LICENCES_SCRIPT } from "./status-licences-script.ts";
import { STATUS_SERVICES_SCRIPT } from "./status-services-script.ts";

export const STATUS_REFRESH_MS = 2000;

export const STATUS_SCRIPT = `"use strict";
(function () {
  var REFRESH_MS = ${STATUS_REFRESH_MS};
  var WINDOW_MS = 5 * 60 * 1000;
  var samples = [];
  var previous;

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function duration(seconds) {
    var s = Math.floor(seconds), d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
    return (d ? d + "d " : "") + (d || h ? h + "h " : "") + (d || h || m ? m + "m " : "") + (s % 60) + "s";
  }
  function num(value) { return typeof value === "number" ? value.toLocaleString("en") : value === undefined ? "–" : String(value); }
  function sumDropped(c) {
    return (c.droppedSource || 0) + (c.droppedSize || 0) + (c.droppedRateLimit || 0) + (c.droppedQueueFull || 0) + (c.droppedByRule || 0);
  }
  function table(title, headers, rows, empty) {
    var wrap = el("div");
    wrap.appendChild(el("h3", title));
    if (rows.length === 0) { wrap.appendChild(el("p", empty || "none running", "muted")); return wrap; }
    // Four columns or more stack as label/value lines on a narrow screen (page.css).
    var t = el("table", null, headers.length >= 4 ? "stack" : ""), head = el("tr");
    t.setAttribute("data-section", title);
    headers.forEach(function (h) { head.appendChild(el("th", h)); });
    t.appendChild(head);
    rows.forEach(function (row) {
      // A row is its cells, or {cells, cls} to mark the whole row (a warning).
      var cells = row.cells || row, tr = el("tr", null, row.cls);
      cells.forEach(function (cell, i) {
        var td = el("td", cell && cell.text !== undefined ? cell.text : cell, cell && cell.cls);
        if (cell && cell.title) td.title = cell.title;
        if (i === 0) td.setAttribute("data-name", String(cells[0]));
        td.setAttribute("data-label", headers[i]); // the label of a stacked row on a narrow screen
        tr.appendChild(td);
      });
      t.appendChild(tr);
    });
    wrap.appendChild(t);
    return wrap;
  }
  function state(s) { return { text: s || "–", cls: "state-" + (s || "unknown") }; }
  /** Dropped by the operating system: a count (marked when some were lost), or why there is none. */
  function kernelDrops(k) {
    if (!k) return "–";
    if (k.dropped === null)
      return { text: k.notOnThisPlatform ? "not available on this platform" : "not available", cls: "muted", title: k.reason };
    return { text: num(k.dropped), cls: k.dropped > 0 ? "error" : "" };
  }
  function entries(o) { return Object.keys(o || {}).map(function (k) { return [k, o[k]]; }); }
  // Events a destination skips by design (json: those without objectData) are not written.
  function written(n, skipped) { return num(n) + (skipped && skipped.events ? " (" + num(skipped.events) + " skipped: " + skipped.why + ")" : ""); }
  function bytes(n) {
    if (typeof n !== "number") return "–";
    var units = ["B", "KiB", "MiB", "GiB", "TiB"], i = 0;
    while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
    return (i === 0 ? String(n) : (Math.round(n * 10) / 10).toLocaleString("en")) + " " + units[i];
  }
  function percent(part, whole) { return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0; }
  /** "12:03:04 (2m 5s ago)", the age from the answer's own clock. */
  function at(iso, now) {
    var ms = Date.parse(iso);
    if (!iso || isNaN(ms)) return "–";
    return new Date(ms).toLocaleTimeString("en-GB") + " (" + duration(Math.max(0, (Date.parse(now) - ms) / 1000)) + " ago)";
  }

  /**
   * The durable audit queue: whether ingest takes events, disk use against the limit, each
   * destination's backlog. What needs an operator also goes to alerts (shown at the top).
   */
  function queueSection(q, doc, alerts) {
    var wrap = el("div", null, "queue");
    wrap.setAttribute("data-section", "Audit queue");
    wrap.appendChild(el("h3", "Audit queue"));
    var dests = entries(q.destinations), slowest;
    dests.forEach(function (e) { if (!slowest || e[1].behindBytes > slowest[1].behindBytes) slowest = e; });
    var holder = q.full && slowest && slowest[1].behindBytes > 0 ? slowest[0] : undefined;
    if (q.error) wrap.appendChild(el("p", "The queue's state cannot be read: " + q.error, "warning"));
    var refusing = q.state === "unavailable" ? { why: q.reason, since: q.since, refused: q.refused }
      : q.full ? { why: "the queue is full on disk" + (holder ? ", held back by " + holder : ""), since: q.full.since, refused: q.full.refused }
      : undefined;
    if (refusing) {
      wrap.appendChild(el("p", "Ingest refuses events (503): " + refusing.why + ". Since " + at(refusing.since, doc.now) + "; " +
        num(refusing.refused) + " refused.", "warning"));
      alerts.push("Audit queue: ingest refuses events (503): " + refusing.why + ".");
    }
    var summary = el("p", null, "queue-summary");
    summary.appendChild(el("span", refusing ? "refusing events" : "taking events", refusing ? "state-failed" : "state-running"));
    summary.appendChild(el("span", " · " + q.directory, "muted"));
    wrap.appendChild(summary);
    if (typeof q.maxDiskBytes === "number") {
      var used = percent(q.bytesOnDisk, q.maxDiskBytes), disk = el("div", null, "disk");
      var meter = el("meter");
      meter.min = 0; meter.max = 100; meter.value = used; meter.low = q.warnAtPct; meter.high = q.warnAtPct; meter.optimum = 0;
      meter.setAttribute("aria-label", "Disk used by the queue");
      disk.appendChild(meter);
      disk.appendChild(el("span", "disk " + bytes(q.bytesOnDisk) + " of " + bytes(q.maxDiskBytes) + " (" + used + " %)",
        used >= q.warnAtPct || q.full ? "disk-used error" : "disk-used"));
      wrap.appendChild(disk);
    }
    if (dests.length === 0) return wrap;
    var errors = doc.lastErrors || {};
    wrap.appendChild(table("Audit queue destinations", ["destination", "behind", "of the limit", "last written", "note"], dests.map(function (e) {
      var d = e[1], share = percent(d.behindBytes, q.maxDiskBytes), last = errors["audit." + e[0]];
      // Failing: behind, and its last failed write came after its last written batch.
      var failing = d.behindBytes > 0 && last && (!d.lastWrittenAt || Date.parse(last.at) > Date.parse(d.lastWrittenAt));
      var note = failing ? "failing: " + last.message
        : holder === e[0] ? "holds the full queue back"
        : d.behindBytes > 0 && share >= q.warnAtPct ? "behind by " + share + " % of the limit" : "";
      if (note && holder !== e[0]) alerts.push("Audit queue: " + e[0] + " is " + bytes(d.behindBytes) + " behind (" + (failing ? "failing" : share + " % of the limit") + ").");
      return { cls: note ? "warn" : "", cells: [e[0], { text: d.behindBytes > 0 ? bytes(d.behindBytes) : "up to date", cls: "nowrap" },
        { text: share + " %", cls: "nowrap" }, { text: d.lastWrittenAt ? at(d.lastWrittenAt, doc.now) : "not since start", cls: "nowrap" },
        { text: note, cls: note ? "error" : "" }] };
    })));
    return wrap;
  }

  var STORE_LABELS = { keyValues: "Key-value store", schedules: "Schedule store" };
  /** The REST API's local store files: available, or refused with the OS's reason. */
  function storesSection(stores, now, alerts) {
    return table("Stores", ["store", "state", "file", "detail"], entries(stores).map(function (e) {
      var s = e[1] || {}, down = s.state === "unavailable", label = STORE_LABELS[e[0]] || e[0];
      if (down) alerts.push(label + " unavailable: its calls are refused (503); the reason is under Stores.");
      return { cls: down ? "warn" : "", cells: [label, state(s.state), s.file || "",
        { text: down ? s.reason + " (since " + at(s.since, now) + "; " + num(s.refused) + " calls refused with 503)" : s.error || "",
          cls: down || s.error ? "error" : "" }] };
    }));
  }

  /** Reload-task events when they are on: the latest, newest first, and each alert destination's counts. */
  function taskEventSections(doc) {
    var last = (doc.taskEvents && doc.taskEvents.last) || [];
    if (!doc.taskEvents || !doc.taskEvents.last) return [];
    var shown = last.slice().reverse().map(function (t) {
      var sent = entries(t.alerts).map(function (a) { return a[0] + " " + a[1]; }).join(", ");
      var missing = Object.keys(t.unavailable || {});
      return { cells: [t.kind, t.taskName, t.appName || "–", t.node, at(t.at, doc.now), sent || "–",
        { text: missing.length ? missing.join(", ") : "", title: missing.map(function (k) { return k + ": " + t.unavailable[k]; }).join("\\n"), cls: missing.length ? "error" : "" }] };
    });
    return [
      table("Reload-task events", ["kind", "task", "app", "node", "received", "alerts", "not available"], shown, "no task events yet"),
      table("Alert destinations", ["destination", "sent", "failed", "suppressed", "over budget", "skipped", "last error"], entries(doc.alertDestinations).map(function (e) {
        var d = e[1] || {}, last = d.lastError;
        return [e[0], num(d.sent), { text: num(d.failed), cls: d.failed ? "error" : "" }, num(d.suppressed),
          { text: num(d.overBudget), cls: d.overBudget ? "error" : "" }, num(d.skipped),
          { text: last ? last.message + " (" + last.at + ")" : "", cls: last ? "error" : "" }];
      }), "none switched on"),
    ].concat(scriptLogSection(doc.taskEvents.scriptLogFiles, "Script logs on disk"));
  }

  /** Failed reloads' script logs kept on disk, when they are: what was written, failed, and is kept. */
  function scriptLogSection(k, title) {
    if (!k) return [];
    var last = k.lastError, kept = k.kept || {};
    return [table(title, ["directory", "written", "not available", "failed", "kept", "last error"], [
      { cls: k.failed ? "warn" : "", cells: [k.directory, num(k.written), num(k.notAvailable), { text: num(k.failed), cls: k.failed ? "error" : "" },
        num(kept.files) + " files, " + bytes(kept.bytes || 0), { text: last ? last.message + " (" + last.at + ")" : "", cls: last ? "error" : "" }] },
    ])];
  }

${STATUS_LICENCES_SCRIPT}
${STATUS_CLOUD_SCRIPT}
${STATUS_CLOUD_LICENCES_SCRIPT}
${STATUS_SERVICES_SCRIPT}
  /** What needs an operator, at the top of the status section. */
  function showAlerts(alerts) {
    var box = document.getElementById("status-alerts");
    if (alerts.length === 0) { box.replaceChildren(); return; }
    var list = el("ul", null, "warning alerts");
    alerts.forEach(function (text) { list.appendChild(el("li", text)); });
    box.replaceChildren(list);
  }

  function render(doc) {
    document.getElementById("status-version").textContent = doc.version;
    document.getElementById("status-uptime").textContent = duration(doc.uptimeSeconds);
    document.getElementById("status-events").textContent = num(doc.eventsTotal);
    document.getElementById("status-updated").textContent = "updated " + new Date(doc.now).toLocaleTimeString("en-GB");
    var tables = document.getElementById("status-tables");
    var parts = [];
    parts.push(table("Listeners", ["name", "state", "address"], entries(doc.listeners).map(function (e) {
      return [e[0], state(e[1].state), e[1].url || e[1].reason || ""];
    })));
    parts.push(table("Pollers", ["name", "state", "rounds", "succeeded", "failed", "last error"], entries(doc.pollers).map(function (e) {
      var p = e[1], errors = p.lastErrors ? Object.keys(p.lastErrors).map(function (k) { return k + ": " + p.lastErrors[k]; }).join("; ") : (p.lastError || "");
      return [e[0], state(p.state), num(p.rounds), num(p.succeeded), num(p.failed), { text: errors, cls: errors ? "error" : "" }];
    })));
    parts.push(table("UDP queues", ["queue", "state", "waiting", "received", "processed", "dropped", "dropped by OS", "malformed"], entries(doc.udpQueues).map(function (e) {
      var q = e[1], c = q.counters || {}, s = q.queue || {};
      return [e[0], state(q.state), num(s.waiting) + " / " + num(s.maxSize), num(c.received), num(c.processed), num(sumDropped(c)),
        kernelDrops(q.kernelDrops), num(c.malformed)];
    })));
    parts.push.apply(parts, taskEventSections(doc));
    parts.push(table("Event counts", ["type.source", "events"], entries(doc.eventCounts).map(function (e) { return [e[0], num(e[1])]; }), "no UDP events yet"));
    var audit = doc.audit || {}, ev = audit.events;
    parts.push(table("Audit events", ["counter", "value"], ev ? [
      ["received", num(ev.received)], ["accepted", num(ev.accepted)], ["processed", num(ev.processed)],
      ["failed", num(ev.failed)], ["dropped", num(sumDropped(ev))], ["waiting", num(ev.waiting)]
    ].concat(entries(audit.written).map(function (w) { return ["written to " + w[0], written(w[1], (audit.skipped || {})[w[0]])]; })) : []));
    var alerts = [];
    if (audit.queue) parts.push(queueSection(audit.queue, doc, alerts));
    if (entries(doc.stores).length > 0) parts.push(storesSection(doc.stores, doc.now, alerts));
    if (doc.licenses && doc.licenses.monitor) parts.push(licencesSection(doc.licenses.monitor, doc.now, alerts));
    if (doc.serviceMonitor && doc.serviceMonitor.monitor) parts.push(servicesSection(doc.serviceMonitor.monitor, doc.now, alerts));
    if (doc.qlikCloud) parts.push.apply(parts, cloudSections(doc.qlikCloud, doc.now, alerts));
    if (doc.scriptLogFiles) parts.push.apply(parts, scriptLogSection(doc.scriptLogFiles.qlikCloud, "Qlik Cloud script logs on disk"));
    parts.push(table("Destinations", ["destination", "written", "failed writes", "dropped", "refused", "buffered", "last refusal", "last error"], entries(doc.destinations).map(function (e) {
      var errors = doc.lastErrors || {}, d = e[1] || {}, last = errors[e[0]] || errors[e[0].split(".").pop()], refusal = d.lastRefusal;
      // Refused: written nowhere and never retried; the count by reason and the latest one's words.
      var reasons = entries(d.refused).map(function (r) { return r[0] + " " + num(r[1]); }).join(", ");
      return [e[0], written(d.written, d.skipped), num(d.failedWrites), num(d.dropped || 0), { text: num(d.rejected) + (reasons ? " (" + reasons + ")" : ""), cls: d.rejected ? "error" : "" }, num(d.buffered),
        { text: refusal ? refusal.reason + ", " + at(refusal.at, doc.now) + ": " + refusal.detail : "", cls: refusal ? "error" : "" },
        { text: last ? last.message + " (" + last.at + ")" : "", cls: last ? "error" : "" }];
    })));
    parts.push(table("Last write errors", ["destination", "at", "error"], entries(doc.lastErrors).map(function (e) {
      return [e[0], e[1].at, { text: e[1].message, cls: "error" }];
    }), "none"));
    var tracked = doc.errors;
    if (tracked && tracked.types) {
      parts.push(table("Errors today (" + tracked.day + ")", ["type", "count"], entries(tracked.types).map(function (e) { return [e[0], num(e[1].total)]; })));
    }
    tables.replaceChildren.apply(tables, parts);
    showAlerts(alerts);
  }

  function chart() {
    var svg = document.getElementById("status-chart");
    var ns = "http://www.w3.org/2000/svg";
    var now = Date.now(), max = 1;
    samples.forEach(function (s) { if (s.rate > max) max = s.rate; });
    var line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", samples.map(function (s) {
      var x = 600 - ((now - s.at) / WINDOW_MS) * 600, y = 115 - (s.rate / max) * 100;
      return x.toFixed(1) + "," + y.toFixed(1);
    }).join(" "));
    document.getElementById("status-chart-max").textContent = "scale: 0 to " + (Math.round(max * 10) / 10) + " events/s";
    svg.replaceChildren(line);
  }

  function refresh() {
    fetch("/status", { cache: "no-store" }).then(function (r) {
      if (!r.ok) throw new Error("status " + r.status);
      return r.json();
    }).then(function (doc) {
      var at = Date.parse(doc.now);
      if (previous && at > previous.at) {
        var rate = Math.max(0, (doc.eventsTotal - previous.total) / ((at - previous.at) / 1000));
        samples.push({ at: Date.now(), rate: rate });
        document.getElementById("status-rate").textContent = (Math.round(rate * 10) / 10).toLocaleString("en");
      }
      // The first answer starts the line at zero, so that the chart shows from the second one on.
      if (!previous) samples.push({ at: Date.now(), rate: 0 });
      previous = { at: at, total: doc.eventsTotal };
      while (samples.length && Date.now() - samples[0].at > WINDOW_MS) samples.shift();
      render(doc);
      chart();
    }).catch(function (error) {
      document.getElementById("status-updated").textContent = "not reachable (" + error.message + ")";
    });
  }
  refresh();
  setInterval(refresh, REFRESH_MS);
})();
`;
