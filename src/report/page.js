"use strict";
// sealkit report page script. Every value from the data is inserted with textContent (never
// as markup), after the same visible escaping of control, bidi and invisible characters the
// static page applies. Filters and the page number live in the URL fragment, so a view can
// be shared and replayed: #order=time&verdict=block&status=failed&tool=db.execute&finding=...&approver=...&q=...&page=2
// Rows open problems first (most serious finding, then time), as the static page does.
(function () {
  var PAGE = 100;
  var model = JSON.parse(document.getElementById("sealkit-data").textContent);
  var rows = model.rows;
  var INVISIBLE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u00AD\u061C\u115F-\u1160\u180B-\u180F\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;
  function inert(s) {
    return String(s === null || s === undefined ? "" : s).replace(INVISIBLE, function (c) {
      return "\\u{" + c.codePointAt(0).toString(16).toUpperCase() + "}";
    });
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = inert(text);
    return e;
  }
  function iso(ms) { return ms === null || ms === undefined ? "" : new Date(ms).toISOString(); }
  function codes(row) {
    var out = [];
    row.findings.forEach(function (f) { if (out[out.length - 1] !== f.code) out.push(f.code); });
    return out;
  }
  function approver(row) { return row.approval ? row.approval.approver : ""; }
  // Only an authenticated receipt has a verdict; any other's decision is shown as a claim.
  function verdictLabel(row) {
    if (row.class === "released") return "ALLOW (released)";
    if (row.class === "unauthenticated") {
      return row.claimed_verdict === undefined ? "no verdict \u2014 not authenticated"
        : "claims " + row.claimed_verdict + " \u2014 not authenticated";
    }
    return row.verdict === null ? "?" : row.verdict;
  }
  var RANK = { error: 3, warning: 2, info: 1 };
  var problemFirst = rows.map(function (r, i) { return i; });
  problemFirst.sort(function (a, b) {
    var ra = RANK[rows[a].severity] || 0, rb = RANK[rows[b].severity] || 0;
    if (ra !== rb) return rb - ra;
    var ua = rows[a].class === "unauthenticated" ? 0 : 1, ub = rows[b].class === "unauthenticated" ? 0 : 1;
    return ua !== ub ? ua - ub : a - b;
  });
  // Free-text search covers what a row shows and what its details name.
  var haystack = rows.map(function (r) {
    var d = r.details || {};
    return [r.file, r.tool, r.target, r.verdict, r.class, r.status, r.reason, r.session,
      r.request_sha256, r.canonical_request_sha256, approver(r), codes(r).join(" "),
      d.frame, d.arguments].join("\n").toLowerCase();
  });

  var state = { order: "", verdict: "", status: "", tool: "", finding: "", approver: "", q: "", page: 1 };
  var ids = { order: "f-order", verdict: "f-verdict", status: "f-status", tool: "f-tool", finding: "f-finding", approver: "f-approver" };
  var matches = [];

  function options(select, values) {
    values.sort().forEach(function (v) {
      var o = el("option", null, v);
      o.value = v;
      select.appendChild(o);
    });
  }
  function distinct(fn) {
    var seen = Object.create(null), out = [];
    rows.forEach(function (r) {
      [].concat(fn(r)).forEach(function (v) {
        if (v !== "" && v !== null && v !== undefined && !seen[v]) { seen[v] = 1; out.push(v); }
      });
    });
    return out;
  }
  function readHash() {
    var params = new URLSearchParams(location.hash.replace(/^#/, ""));
    Object.keys(state).forEach(function (k) {
      var v = params.get(k);
      state[k] = k === "page" ? Math.max(1, parseInt(v || "1", 10) || 1) : (v || "");
    });
  }
  function writeHash() {
    var params = new URLSearchParams();
    Object.keys(state).forEach(function (k) {
      if (state[k] && !(k === "page" && state[k] === 1)) params.set(k, state[k]);
    });
    var text = params.toString();
    history.replaceState(null, "", text ? "#" + text : location.pathname + location.search);
  }
  function filter() {
    var q = state.q.toLowerCase();
    matches = [];
    for (var k = 0; k < rows.length; k++) {
      var i = state.order === "time" ? k : problemFirst[k];
      var r = rows[i];
      if (state.verdict && r.class !== state.verdict) continue;
      if (state.status && r.status !== state.status) continue;
      if (state.tool && r.tool !== state.tool) continue;
      if (state.finding && codes(r).indexOf(state.finding) < 0) continue;
      if (state.approver && approver(r) !== state.approver) continue;
      if (q && haystack[i].indexOf(q) < 0) continue;
      matches.push(i);
    }
  }
  function kv(dl, key, value) {
    dl.appendChild(el("dt", null, key));
    dl.appendChild(el("dd", null, value));
  }
  function details(row) {
    var box = document.createDocumentFragment();
    var dl = el("dl", "kv");
    kv(dl, "receipt file", row.file);
    kv(dl, "receipt status", row.status);
    if (row.reason !== null) kv(dl, "reason", row.reason);
    if (row.session !== null) kv(dl, "session", row.session);
    kv(dl, "target", row.target === null ? "(unknown)" : row.target);
    if (row.subject) kv(dl, "exact-frame subject", row.subject.sha256 + " (" + row.subject.length + " bytes)");
    kv(dl, "request hash", row.request_sha256 === null ? "(unknown)" : row.request_sha256);
    kv(dl, "canonical request hash", row.canonical_request_sha256 === null ? "(unknown)" : row.canonical_request_sha256);
    var a = row.approval;
    kv(dl, "approval token", a ? a.file + " line " + a.line + " by " + a.approver + " (key id " + a.signer_key_id +
      "), authorised " + iso(a.authorized_at) + ", expires " + iso(a.expiry) + ", " +
      (a.fresh_when_used ? a.fresh_when_used : "not judged") + " when used" : "(none joined)");
    var st = row.approval_statement;
    if (st) kv(dl, "signed approval statement", "approver " + st.approver + ", nonce " + st.nonce + ", authorised " +
      iso(st.authorized_at) + ", expires " + iso(st.expiry) + ", key id " + st.signer_key_id);
    (row.other_approvals || []).forEach(function (t) {
      var tok = model.tokens[t], s = tok.signed;
      kv(dl, "other approval of this call (not the one used)", tok.file + " line " + tok.line +
        (s && s.approver !== undefined ? " by " + s.approver + " (nonce " + s.nonce + ")" : ""));
    });
    var c = row.chain;
    kv(dl, "chain entry", c ? c.file + " entry " + c.entry + (c.head_ok ? "" : " (head does not recompute)") : "(none joined)");
    var f = row.frame, from;
    if (f.capture) from = f.capture.file + " frame " + (f.capture.frame_number === undefined ? "" : f.capture.frame_number) +
      " (by canonical request hash)" + (f.status === "object-a" ? "; shown from the receipt's object A" : "");
    else from = { "object-a": "the receipt's signed object A", "not-captured": "frame not captured" }[f.status] || "not available";
    kv(dl, "frame from", from);
    box.appendChild(dl);
    var d = row.details;
    if (d) {
      var dl2 = el("dl", "kv");
      if (d.arguments !== undefined) kv(dl2, "arguments", d.arguments);
      d.meta.forEach(function (m) { kv(dl2, "_meta " + m[0], m[1]); });
      if (d.identities) {
        ["committed", "host", "legacy"].forEach(function (p) {
          kv(dl2, p + " target", d.identities[p].target + " (effect " + d.identities[p].effect + ")");
        });
        kv(dl2, "server identity", d.server);
      }
      if (d.refused !== undefined) kv(dl2, "refused today", d.refused);
      box.appendChild(dl2);
      if (d.frame !== undefined) {
        box.appendChild(el("p", "sub", "exact frame, " + d.frame_length + " bytes:"));
        box.appendChild(el("pre", "frame", d.frame));
      }
    }
    if (row.findings.length) {
      var t = el("table", "grid findings"), head = el("thead"), hr = el("tr"), body = el("tbody");
      ["severity", "code", "path", "message"].forEach(function (h) { hr.appendChild(el("th", null, h)); });
      head.appendChild(hr); t.appendChild(head);
      row.findings.forEach(function (x) {
        var tr = el("tr", x.severity);
        tr.appendChild(el("td", null, x.severity));
        tr.appendChild(el("td", null, x.code));
        tr.appendChild(el("td", "path", x.path === undefined ? "" : x.path));
        tr.appendChild(el("td", null, x.message));
        body.appendChild(tr);
      });
      t.appendChild(body);
      var scroll = el("div", "scroll");
      scroll.appendChild(t);
      box.appendChild(scroll);
    }
    return box;
  }
  function rowElements(i) {
    var r = rows[i];
    var tr = el("tr", "row" + (r.severity ? " " + r.severity : ""));
    tr.setAttribute("data-i", String(i));
    tr.appendChild(el("td", null, iso(r.time)));
    tr.appendChild(el("td", "tool", r.tool === null ? "" : r.tool));
    var td = el("td");
    td.appendChild(el("code", "hash short", r.target === null ? "" : r.target));
    tr.appendChild(td);
    td = el("td");
    td.appendChild(el("span", "v " + r.class, verdictLabel(r)));
    tr.appendChild(td);
    td = el("td");
    if (r.approval) {
      td.appendChild(document.createTextNode(inert(r.approval.approver) + " "));
      td.appendChild(el("span", "sub", iso(r.approval.authorized_at)));
    } else if (r.class === "released") {
      td.appendChild(el("span", "bad", "no matching token"));
    }
    var others = (r.other_approvals || []).length;
    if (others) {
      td.appendChild(document.createTextNode(" "));
      td.appendChild(el("span", "sub warn", others + " other approval" + (others === 1 ? "" : "s") + " of this call, not the one used"));
    }
    tr.appendChild(td);
    tr.appendChild(el("td", "st " + r.status, r.status));
    tr.appendChild(el("td", null, codes(r).join(" ")));
    var dr = el("tr", "detail"), dc = el("td");
    dc.setAttribute("colspan", "7");
    var det = el("details"), sum = el("summary", null, "details");
    det.appendChild(sum);
    // Details are built when opened: a page of rows stays light.
    det.addEventListener("toggle", function () {
      if (det.open && det.childNodes.length === 1) det.appendChild(details(r));
    });
    dc.appendChild(det);
    dr.appendChild(dc);
    return [tr, dr];
  }
  function render() {
    filter();
    var pages = Math.max(1, Math.ceil(matches.length / PAGE));
    if (state.page > pages) state.page = pages;
    var start = (state.page - 1) * PAGE, end = Math.min(matches.length, start + PAGE);
    var body = document.getElementById("rows");
    var fresh = document.createElement("tbody");
    fresh.id = "rows";
    for (var k = start; k < end; k++) {
      rowElements(matches[k]).forEach(function (e) { fresh.appendChild(e); });
    }
    body.parentNode.replaceChild(fresh, body);
    document.getElementById("first-row").textContent = String(matches.length ? start + 1 : 0);
    document.getElementById("last-row").textContent = String(end);
    document.getElementById("match-count").textContent = String(matches.length);
    document.getElementById("prev").hidden = state.page <= 1;
    document.getElementById("next").hidden = state.page >= pages;
    document.documentElement.setAttribute("data-page", String(state.page));
  }
  function sync() {
    Object.keys(ids).forEach(function (k) { document.getElementById(ids[k]).value = state[k]; });
    document.getElementById("f-q").value = state.q;
  }

  options(document.getElementById("f-verdict"), distinct(function (r) { return r.class; }));
  options(document.getElementById("f-status"), distinct(function (r) { return r.status; }));
  options(document.getElementById("f-tool"), distinct(function (r) { return r.tool; }));
  options(document.getElementById("f-finding"), distinct(codes));
  options(document.getElementById("f-approver"), distinct(approver));
  Object.keys(ids).forEach(function (k) {
    document.getElementById(ids[k]).addEventListener("change", function (e) {
      state[k] = e.target.value; state.page = 1; writeHash(); render();
    });
  });
  document.getElementById("f-q").addEventListener("input", function (e) {
    state.q = e.target.value; state.page = 1; writeHash(); render();
  });
  document.getElementById("prev").addEventListener("click", function () { state.page -= 1; writeHash(); render(); });
  document.getElementById("next").addEventListener("click", function () { state.page += 1; writeHash(); render(); });
  // A link that filters the calls (the verdict's sentences and codes) shows them; a link
  // to an anchor (#other-CODE) is the browser's to follow.
  window.addEventListener("hashchange", function () {
    readHash(); sync(); render();
    if (state.verdict || state.status || state.tool || state.finding || state.approver || state.q) {
      document.getElementById("calls").scrollIntoView();
    }
  });
  document.getElementById("filters").hidden = false;
  readHash();
  sync();
  render();
  document.documentElement.setAttribute("data-ready", "1");
  // When the page became usable, for the benchmark (milliseconds since navigation start).
  document.documentElement.setAttribute("data-ready-ms", String(Math.round(performance.now())));
})();
