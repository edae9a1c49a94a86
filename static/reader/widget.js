/* The embeddable extraction box: <script src=".../static/reader/widget.js" defer></script> plus
   <div data-extract-widget></div> on any page. A classic script (not a module) so that it loads from
   another site without CORS; it calls POST /api/extract on the site it was loaded from. */
(function () {
  "use strict";
  var script = document.currentScript;
  var origin = new URL(script ? script.src : location.href);
  var counter = 0;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") node.textContent = attrs[name];
      else node.setAttribute(name, attrs[name]);
    });
    (children || []).forEach(function (child) { node.append(child); });
    return node;
  }

  function paragraphs(text) {
    return text.split(/\n\n+/).filter(Boolean).map(function (p) { return el("p", { text: p }); });
  }

  function articleView(result) {
    if (result.error) {
      return el("section", { class: "xw-result xw-failed" }, [
        el("h2", { text: result.method }), el("p", { class: "xw-error", text: result.error.message })]);
    }
    var stats = result.method + " · " + result.elapsed_ms + " ms to extract" +
      (result.fetch_ms ? " · " + Math.round(result.fetch_ms) + " ms to fetch" : "") +
      " · " + result.text.length + " characters";
    return el("section", { class: "xw-result", "data-method": result.method }, [
      el("h2", { class: "xw-title", text: result.title || "(no title)" }),
      el("p", { class: "xw-stats", text: stats }),
      // A box that scrolls on its own: focusable, so that it scrolls from the keyboard in every browser.
      el("div", { class: "xw-text", tabindex: "0", role: "region", "aria-label": "Text found by " + result.method },
         paragraphs(result.text)),
    ]);
  }

  function build(host) {
    var id = "xw" + (++counter);
    var api = host.dataset.api ? new URL(host.dataset.api, location.href) : new URL("/api/extract", origin);
    var root = host.attachShadow ? host.attachShadow({ mode: "open" }) : host;
    root.append(el("link", { rel: "stylesheet", href: new URL("widget.css", origin).href }));
    var url = el("input", { id: id + "-url", type: "url", name: "url", placeholder: "https://example.org/news/story" });
    var html = el("textarea", { id: id + "-html", name: "html", rows: "6" });
    var method = el("select", { id: id + "-method", name: "method" });
    var compare = el("input", { id: id + "-compare", type: "checkbox", name: "compare" });
    var button = el("button", { type: "submit", text: "Extract" });
    var status = el("p", { class: "xw-status", role: "status", "aria-live": "polite" });
    var error = el("p", { class: "xw-error", role: "alert", hidden: "" });
    var results = el("div", { class: "xw-results" });
    // novalidate: the browser's own check of a type=url field blocks the request with a bubble that vanishes and
    // leaves the last answer's error on screen; the server's answer says what is wrong with the address in words.
    var form = el("form", { class: "xw-form", "aria-label": "Extract an article", novalidate: "" }, [
      el("p", {}, [el("label", { for: id + "-url", text: "Page address" }), url]),
      el("details", {}, [el("summary", { text: "…or paste the page's HTML" }),
        el("label", { for: id + "-html", text: "HTML" }), html]),
      el("p", { class: "xw-row" }, [
        el("label", { for: id + "-method", text: "Method" }), method,
        el("label", { class: "xw-check" }, [compare, " compare all methods"]), button]),
    ]);
    root.append(el("div", { class: "xw" }, [form, status, error, results]));

    fetch(api).then(function (r) { return r.json(); }).then(function (info) {
      info.methods.forEach(function (name) {
        var option = el("option", { value: name, text: name });
        if (name === info.default) option.selected = true;
        method.append(option);
      });
    }).catch(function () { method.append(el("option", { value: "", text: "default" })); });

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (button.getAttribute("aria-disabled") === "true") return;  // an extraction is under way
      var payload = { method: method.value || undefined, compare: compare.checked };
      if (html.value.trim()) { payload.html = html.value; payload.url = url.value || undefined; }
      else payload.url = url.value.trim();
      error.hidden = true;
      results.replaceChildren();
      status.textContent = "Extracting…";
      // aria-disabled, not disabled: a disabled button drops the keyboard's focus to the page's body.
      button.setAttribute("aria-disabled", "true");
      var started = performance.now();
      fetch(api, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(payload) })
        .then(function (response) {
          return response.json().catch(function () { return {}; }).then(function (data) {
            if (!response.ok) throw new Error((data.error && data.error.message) || "The server answered " + response.status);
            return data;
          });
        })
        .then(function (data) {
          var list = data.results || [data];
          results.classList.toggle("xw-compare", list.length > 1);
          list.forEach(function (result) { results.append(articleView(result)); });
          status.textContent = "Done in " + Math.round(performance.now() - started) + " ms.";
        })
        .catch(function (problem) {
          status.textContent = "";
          error.textContent = problem.message;
          error.hidden = false;
        })
        .finally(function () { button.removeAttribute("aria-disabled"); });
    });
  }

  function start() {
    document.querySelectorAll("[data-extract-widget]").forEach(function (host) {
      if (!host.dataset.ready) { host.dataset.ready = "1"; build(host); }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
