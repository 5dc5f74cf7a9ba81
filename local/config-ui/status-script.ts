/**
 * The status panel's script, served as /assets/status.js: asks `GET /status` every
 * `STATUS_REFRESH_MS`, fills the cards and tables (text only, never HTML from the answer) and
 * keeps a ring of events per second for the last five minutes, drawn as an SVG line.
 */
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
    var t = el("table"), head = el("tr");
    t.setAttribute("data-section", title);
    headers.forEach(function (h) { head.appendChild(el("th", h)); });
    t.appendChild(head);
    rows.forEach(function (row) {
      var tr = el("tr");
      row.forEach(function (cell, i) {
        var td = el("td", cell && cell.text !== undefined ? cell.text : cell, cell && cell.cls);
        if (i === 0) td.setAttribute("data-name", String(row[0]));
        tr.appendChild(td);
      });
      t.appendChild(tr);
    });
    wrap.appendChild(t);
    return wrap;
  }
  function state(s) { return { text: s || "–", cls: "state-" + (s || "unknown") }; }
  function entries(o) { return Object.keys(o || {}).map(function (k) { return [k, o[k]]; }); }

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
    parts.push(table("UDP queues", ["queue", "state", "waiting", "received", "processed", "dropped", "malformed"], entries(doc.udpQueues).map(function (e) {
      var q = e[1], c = q.counters || {}, s = q.queue || {};
      return [e[0], state(q.state), num(s.waiting) + " / " + num(s.maxSize), num(c.received), num(c.processed), num(sumDropped(c)), num(c.malformed)];
    })));
    parts.push(table("Event counts", ["type.source", "events"], entries(doc.eventCounts).map(function (e) { return [e[0], num(e[1])]; }), "no UDP events yet"));
    var audit = doc.audit || {}, ev = audit.events;
    parts.push(table("Audit events", ["counter", "value"], ev ? [
      ["received", num(ev.received)], ["accepted", num(ev.accepted)], ["processed", num(ev.processed)],
      ["failed", num(ev.failed)], ["dropped", num((ev.droppedRateLimit || 0) + (ev.droppedQueueFull || 0))], ["waiting", num(ev.waiting)]
    ].concat(entries(audit.written).map(function (w) { return ["written to " + w[0], num(w[1])]; })) : []));
    parts.push(table("Destinations", ["destination", "written", "failed writes", "dropped", "rejected", "buffered", "last error"], entries(doc.destinations).map(function (e) {
      var errors = doc.lastErrors || {}, d = e[1] || {}, last = errors[e[0]] || errors[e[0].split(".").pop()];
      return [e[0], num(d.written), num(d.failedWrites), num(d.dropped || 0), num(d.rejected), num(d.buffered),
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
