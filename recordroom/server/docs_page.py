"""The ``/docs`` page: the HTTP API read from ``/openapi.json``, with nothing from the internet.

FastAPI's own documentation pages load their scripts and styles from a CDN, so at a game night
with no internet they are blank. This page is one self-contained HTML file: a small script reads
the OpenAPI document of this server and lists every route with its summary, its parameters, its
body and its answers.
"""

from __future__ import annotations

DOCS_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Record Room API</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem;
       color: #1d1d1f; background: #fafafa; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
details { background: #fff; border: 1px solid #ddd; border-radius: 6px; margin: 0.4rem 0;
          padding: 0.4rem 0.7rem; }
summary { cursor: pointer; font-family: ui-monospace, monospace; }
.method { display: inline-block; min-width: 4.2rem; font-weight: bold; }
.get { color: #0a6b2d; } .post { color: #8a4b00; } .delete { color: #a0141e; }
pre { background: #f3f3f3; padding: 0.5rem; overflow-x: auto; font-size: 13px; }
.muted { color: #666; }
</style>
</head>
<body>
<h1>Record Room API</h1>
<p class="muted">Read from <a href="openapi.json">openapi.json</a>. The WebSocket protocol,
the error codes and the limits are described in the project's docs/protocol.md.</p>
<div id="routes">Loading…</div>
<script>
"use strict";
function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}
function refName(schema) {
  if (!schema) return "";
  if (schema.$ref) return schema.$ref.split("/").pop();
  if (schema.anyOf) return schema.anyOf.map(refName).join(" | ");
  return schema.type || "";
}
fetch("openapi.json").then((r) => r.json()).then((doc) => {
  const routes = document.getElementById("routes");
  routes.textContent = "";
  const schemas = (doc.components || {}).schemas || {};
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const box = el("details");
      const head = el("summary");
      head.append(el("span", "method " + method, method.toUpperCase()), path + "  ");
      head.append(el("span", "muted", op.summary || ""));
      box.append(head);
      if (op.description) box.append(el("p", "", op.description));
      for (const p of op.parameters || []) {
        box.append(el("div", "", p.in + " " + p.name + ": " + refName(p.schema) +
          (p.required ? " (required)" : "")));
      }
      const body = ((op.requestBody || {}).content || {})["application/json"];
      if (body) {
        const name = refName(body.schema);
        box.append(el("div", "", "body: " + name));
        if (schemas[name]) box.append(el("pre", "", JSON.stringify(schemas[name], null, 2)));
      }
      for (const [status, answer] of Object.entries(op.responses || {})) {
        const content = ((answer.content || {})["application/json"] || {}).schema;
        box.append(el("div", "muted", status + " " + (answer.description || "") +
          (content ? " → " + refName(content) : "")));
      }
      routes.append(box);
    }
  }
}).catch((error) => {
  document.getElementById("routes").textContent = "Could not read openapi.json: " + error;
});
</script>
</body>
</html>
"""
