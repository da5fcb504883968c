// The access report's script: it asks /access/api/ with the
// administrator's token as a Bearer header and draws the answers. Every
// value is set as text, never as markup.
"use strict";

(function () {
  const tokenKey = "sqe.access.token";
  const $ = (id) => document.getElementById(id);
  const state = { catalogs: [], users: [], view: "table" };
  // The address's fragment (#catalog=…&schema=…&table=…) picks the table
  // first shown, so that a link leads to it.
  let wanted = new URLSearchParams(location.hash.slice(1));
  // Each view counts its loads: an answer that arrives after a later
  // pick's load began is dropped, so a slow first answer never replaces
  // the one the user asked for last.
  const loads = { matrix: 0, user: 0, column: 0 };

  // fail shows why a view could not be drawn (a refusal has already
  // brought the sign-in back).
  function fail(err) {
    console.error(err);
    if (err && err.message !== "refused") status(String(err.message || err), true);
  }

  // normalized is a TableAccess with its lists present even when empty.
  function normalized(a) {
    for (const k of ["columns", "row_filters", "roles", "notes"]) a[k] = a[k] || [];
    return a;
  }

  function token() {
    return sessionStorage.getItem(tokenKey) || "";
  }

  function status(msg, isError) {
    const el = $("status");
    el.textContent = msg;
    el.className = isError ? "error" : "";
  }

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else if (k.startsWith("data-")) e.setAttribute(k, v);
      else e[k] = v;
    }
    for (const c of children) {
      if (c === null || c === undefined || c === "") continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  // api fetches an answer of /access/api/; a refusal forgets the token.
  async function api(path, params, asText) {
    const q = new URLSearchParams(params || {});
    const resp = await fetch("/access/api/" + path + (q.toString() ? "?" + q : ""), {
      headers: { Authorization: "Bearer " + token() },
      cache: "no-store",
    });
    if (resp.status === 403) {
      sessionStorage.removeItem(tokenKey);
      showSignIn("This token is not an administrator's (or is no longer valid).");
      throw new Error("refused");
    }
    if (!resp.ok) {
      let msg = resp.status + " " + resp.statusText;
      try {
        msg = (await resp.json()).error || msg;
      } catch (e) {
        /* not JSON */
      }
      status(msg, true);
      throw new Error(msg);
    }
    return asText ? resp.text() : resp.json();
  }

  function showSignIn(msg) {
    $("sign-in").hidden = false;
    $("report").hidden = true;
    $("signed-in").hidden = true;
    status(msg || "", Boolean(msg));
  }

  function fillSelect(sel, values, current) {
    sel.replaceChildren(...values.map((v) => el("option", { value: v, selected: v === current }, v)));
  }

  function tablesOf(catalog) {
    const c = state.catalogs.find((c) => c.catalog === catalog);
    return c ? c.tables : [];
  }

  // pick is the wanted value when it is one of values, else the first.
  function pick(values, key) {
    const w = wanted.get(key);
    return values.includes(w) ? w : values[0];
  }

  function onCatalog() {
    const tables = tablesOf($("catalog").value);
    const schemas = [...new Set(tables.map((t) => t.schema))];
    fillSelect($("schema"), schemas, pick(schemas, "schema"));
    onSchema();
  }

  function onSchema() {
    const schema = $("schema").value;
    const names = tablesOf($("catalog").value).filter((t) => t.schema === schema).map((t) => t.table);
    fillSelect($("table"), names, pick(names, "table"));
    loadMatrix().catch(fail);
  }

  function badge(access) {
    const label = access === "denied" ? "no access" : access;
    return el("span", { class: "badge " + access.replace(/\s+/g, "-") }, label);
  }

  function decidedBy(d) {
    if (!d.policy) return el("span", { class: "by none" }, "no policy");
    const src = d.source && d.source !== "resource" ? ", " + d.source : "";
    return el("span", { class: "by" }, "by ", el("b", {}, d.policy), " (" + (d.store || "?") + src + ")");
  }

  // columnCell draws one user's access to one column; gate one's refusal
  // of the table wins over what gate two would do.
  function columnCell(a, d) {
    const attrs = Object.assign(principalAttrs(a), { "data-column": d.name });
    if (a.gate_one.access !== "allowed") {
      attrs["data-access"] = "no access";
      return el("td", Object.assign({ class: "cell denied" }, attrs), badge("denied"));
    }
    attrs["data-access"] = d.access;
    attrs["data-mask"] = d.mask_type || "";
    attrs["data-policy"] = d.policy || "";
    attrs["data-store"] = d.store || "";
    const td = el("td", Object.assign({ class: "cell " + d.access }, attrs), badge(d.access));
    if (d.mask_type) td.append(el("span", { class: "mask" }, d.mask_type));
    if (d.policy) td.append(decidedBy(d));
    td.title = [d.expression, d.detail].filter(Boolean).join("\n");
    return td;
  }

  function rowsCell(a) {
    const attrs = Object.assign(principalAttrs(a), { "data-column": "(rows)" });
    if (a.gate_one.access !== "allowed") {
      attrs["data-access"] = "no access";
      return el("td", Object.assign({ class: "cell denied" }, attrs), badge("denied"));
    }
    if (a.row_filters.length === 0) {
      attrs["data-access"] = "all";
      return el("td", Object.assign({ class: "cell raw" }, attrs), el("span", { class: "badge raw" }, "all rows"));
    }
    attrs["data-access"] = a.row_filters.map((f) => f.access).join(",");
    attrs["data-filter"] = a.row_filters.map((f) => f.expression).join(" AND ");
    attrs["data-policy"] = a.row_filters.map((f) => f.policy).join(",");
    const td = el("td", Object.assign({ class: "cell filtered" }, attrs));
    for (const f of a.row_filters) {
      td.append(el("div", {}, badge(f.access), el("code", {}, f.expression), decidedBy(f)));
      if (f.detail) td.title = f.detail;
    }
    return td;
  }

  function gateOneCell(a) {
    const g = a.gate_one;
    const td = el("td", Object.assign({ class: "cell " + (g.access === "allowed" ? "raw" : "denied"), "data-column": "(table)", "data-access": g.access }, principalAttrs(a)),
      badge(g.access === "allowed" ? "allowed" : "denied"));
    if (g.policy) td.append(decidedBy(g));
    if (g.detail) td.append(el("span", { class: "detail" }, g.detail));
    return td;
  }

  function accessTable(columns, accesses, firstHeader, firstCell) {
    const head = el("tr", {}, el("th", {}, firstHeader), ...columns.map((c) => el("th", { scope: "col" }, c)),
      el("th", { scope: "col", class: "meta" }, "Rows"), el("th", { scope: "col", class: "meta" }, "Table (gate one)"));
    const body = accesses.map((a) =>
      el("tr", principalAttrs(a),
        firstCell(a),
        ...a.columns.map((d) => columnCell(a, d)),
        rowsCell(a),
        gateOneCell(a)));
    return el("table", { class: "matrix" }, el("thead", {}, head), el("tbody", {}, ...body));
  }

  // principalAttrs names a row's principal: a user, or a role (what a
  // member holding nothing else sees).
  function principalAttrs(a) {
    return a.role ? { "data-role": a.role } : { "data-user": a.user };
  }

  function roleHeader(a) {
    const via = (a.roles || []).filter((r) => r !== a.role);
    return el("th", { scope: "row" }, el("span", { class: "who" }, a.role),
      el("span", { class: "roles" }, via.length ? "role, in " + via.join(", ") : "role"));
  }

  function userHeader(a) {
    const roles = a.roles && a.roles.length ? a.roles.join(", ") : "no roles";
    return el("th", { scope: "row" }, el("span", { class: "who" }, a.user), el("span", { class: "roles" }, roles));
  }

  async function loadMatrix() {
    const catalog = $("catalog").value, schema = $("schema").value, table = $("table").value;
    const out = $("matrix");
    if (!table) {
      loads.matrix++;
      out.replaceChildren(el("p", {}, "No table to show: gate one lets you see none here."));
      return;
    }
    const n = ++loads.matrix;
    status("Loading " + [catalog, schema, table].join(".") + " …");
    const ans = await api("table", { catalog, schema, table });
    if (n !== loads.matrix) return;
    ans.users.forEach(normalized);
    ans.role_rows.forEach(normalized);
    const name = [ans.table.catalog, ans.table.schema, ans.table.table].join(".");
    out.replaceChildren(
      el("h2", {}, name),
      el("p", { class: "hint" }, ans.users.length + " users, " + ans.role_rows.length + " roles"),
      accessTable(ans.columns, ans.users, "User (roles)", userHeader),
      el("h3", {}, "Roles: what a member holding nothing else sees"),
      accessTable(ans.columns, ans.role_rows, "Role", roleHeader));
    out.setAttribute("data-loaded", name);
    history.replaceState(null, "", "#" + new URLSearchParams({ catalog, schema, table }));
    wanted = new URLSearchParams(); // later picks are the user's
    status("");
  }

  async function loadUser() {
    const user = $("user").value;
    if (!user) return;
    const n = ++loads.user;
    status("Loading " + user + " …");
    const out = $("user-tables");
    const parts = [el("h2", {}, "Tables " + user + " opens")];
    for (const c of state.catalogs) {
      const ans = await api("user", { catalog: c.catalog, user });
      if (n !== loads.user) return;
      ans.tables.forEach(normalized);
      if (ans.tables.length === 0) continue;
      for (const a of ans.tables) {
        const name = [a.catalog, a.schema, a.table].join(".");
        parts.push(el("h3", {}, name), accessTable(a.columns.map((d) => d.name), [a], "User", (x) => el("th", { scope: "row" }, x.user)));
      }
    }
    if (parts.length === 1) parts.push(el("p", {}, user + " opens no table you can see."));
    out.replaceChildren(...parts);
    out.setAttribute("data-loaded", user);
    status("");
  }

  async function loadColumn() {
    const column = $("column").value.trim();
    if (!column) return;
    const n = ++loads.column;
    status("Loading readers of " + column + " …");
    const rows = [];
    for (const c of state.catalogs) {
      const ans = await api("column", { catalog: c.catalog, column });
      if (n !== loads.column) return;
      rows.push(...ans.readers.map((r) => Object.assign(r, { row_filters: r.row_filters || [] })));
    }
    const head = el("tr", {}, ...["Table", "User", "Reads", "Mask", "Decided by", "Rows"].map((h) => el("th", { scope: "col" }, h)));
    const body = rows.map((r) =>
      el("tr", { "data-user": r.user },
        el("td", {}, [r.table.catalog, r.table.schema, r.table.table].join(".")),
        el("td", {}, r.user),
        el("td", { class: "cell " + r.decision.access }, badge(r.decision.access)),
        el("td", {}, r.decision.mask_type || ""),
        el("td", {}, decidedBy(r.decision)),
        el("td", {}, r.row_filters.length ? r.row_filters.map((f) => f.expression).join(" AND ") : "all rows")));
    const out = $("column-readers");
    out.replaceChildren(el("h2", {}, "Who reads " + column),
      rows.length ? el("table", { class: "matrix" }, el("thead", {}, head), el("tbody", {}, ...body)) : el("p", {}, "Nobody reads a column of that name in the tables you can see."));
    out.setAttribute("data-loaded", column);
    status("");
  }

  // exportCSV downloads the current view's answer as CSV; the download
  // is fetched with the token, then handed to the browser.
  async function exportCSV(view) {
    let params, path = view;
    if (view === "table") params = { catalog: $("catalog").value, schema: $("schema").value, table: $("table").value };
    else if (view === "user") params = { catalog: $("catalog").value, user: $("user").value };
    else params = { catalog: $("catalog").value, column: $("column").value.trim() };
    params.format = "csv";
    const text = await api(path, params, true);
    const url = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
    const a = el("a", { href: url, download: "access-" + view + ".csv" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  function showView(view) {
    state.view = view;
    for (const b of document.querySelectorAll(".tabs button")) b.setAttribute("aria-selected", String(b.dataset.view === view));
    for (const v of ["table", "user", "column"]) $("view-" + v).hidden = v !== view;
    if (view === "user") loadUser().catch(fail);
  }

  async function start() {
    if (!token()) {
      showSignIn();
      return;
    }
    $("sign-in").hidden = true;
    status("Loading …");
    const [cats, principals] = await Promise.all([api("catalogs"), api("principals")]);
    state.catalogs = cats.catalogs;
    state.users = principals.users;
    $("signed-in").hidden = false;
    $("report").hidden = false;
    fillSelect($("catalog"), state.catalogs.map((c) => c.catalog), pick(state.catalogs.map((c) => c.catalog), "catalog"));
    fillSelect($("user"), state.users, state.users[0]);
    onCatalog();
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("token-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const t = $("token").value.trim();
      $("token").value = "";
      if (!t) return;
      sessionStorage.setItem(tokenKey, t);
      start().catch(fail);
    });
    $("sign-out").addEventListener("click", () => {
      sessionStorage.removeItem(tokenKey);
      showSignIn();
    });
    $("catalog").addEventListener("change", () => onCatalog());
    $("schema").addEventListener("change", () => onSchema());
    $("table").addEventListener("change", () => loadMatrix().catch(fail));
    $("user").addEventListener("change", () => loadUser().catch(fail));
    $("column-pick").addEventListener("submit", (ev) => {
      ev.preventDefault();
      loadColumn().catch(fail);
    });
    for (const b of document.querySelectorAll(".tabs button")) b.addEventListener("click", () => showView(b.dataset.view));
    for (const b of document.querySelectorAll("button.csv")) b.addEventListener("click", () => exportCSV(b.dataset.view).catch(fail));
    start().catch(fail);
  });
})();
