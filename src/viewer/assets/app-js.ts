/**
 * The viewer's script: plain ES2019, no framework, no build. Every piece of document
 * text reaches the page through `textContent` (never `innerHTML`), so a document cannot
 * inject markup. Kept as a string so it ships inside `dist/`.
 */
export const APP_JS = String.raw`(function () {
  "use strict";
  var form = document.getElementById("search-form");
  var input = document.getElementById("q");
  var list = document.getElementById("results");
  var source = document.getElementById("source");
  var status = document.getElementById("status");
  var results = [];
  var selected = -1;
  var seq = 0;
  var view = 0;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function pagesLabel(p) {
    if (!p || !p.length) return "";
    return p.length === 1 ? "p. " + p[0] : "pp. " + p[0] + "\u2013" + p[p.length - 1];
  }

  function rectOf(c) {
    var xs = [], ys = [];
    for (var i = 0; i + 1 < c.length; i += 2) { xs.push(c[i]); ys.push(c[i + 1]); }
    return { x0: Math.min.apply(null, xs), y0: Math.min.apply(null, ys), x1: Math.max.apply(null, xs), y1: Math.max.apply(null, ys) };
  }

  function setState(s) { source.dataset.state = s; }

  function search(q) {
    var my = ++seq;
    status.textContent = "Searching\u2026";
    setState("searching");
    fetch("/api/search?q=" + encodeURIComponent(q), { headers: { accept: "application/json" } })
      .then(function (r) {
        return r.json().then(function (b) {
          if (!r.ok) throw new Error((b && b.error && b.error.message) || "HTTP " + r.status);
          return b;
        });
      })
      .then(function (body) {
        if (my !== seq) return;
        results = body.results || [];
        selected = -1;
        renderList();
        status.textContent = results.length + (results.length === 1 ? " result" : " results");
        if (results.length) select(0, false);
        else { source.replaceChildren(el("p", "note", "No results.")); setState("ready"); }
      })
      .catch(function (e) {
        if (my !== seq) return;
        status.textContent = "Search failed: " + e.message;
        setState("error");
      });
  }

  function renderList() {
    list.replaceChildren();
    results.forEach(function (r, i) {
      var li = el("li");
      li.id = "result-" + i;
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      li.appendChild(el("div", "r-file", "[" + (i + 1) + "] " + (r.filename || r.sourceId)));
      li.appendChild(el("div", "r-meta", [pagesLabel(r.pages), (r.headingPath || []).join(" \u203a ")].filter(Boolean).join(" \u00b7 ")));
      li.appendChild(el("div", "r-quote", r.quote.text || r.text.slice(0, 200)));
      li.addEventListener("click", function () { select(i, true); });
      list.appendChild(li);
    });
  }

  function select(i, scroll) {
    if (i < 0 || i >= results.length) return;
    selected = i;
    for (var j = 0; j < list.children.length; j++) list.children[j].setAttribute("aria-selected", j === i ? "true" : "false");
    list.setAttribute("aria-activedescendant", "result-" + i);
    list.children[i].scrollIntoView({ block: "nearest" });
    showSource(results[i], scroll);
  }

  function box(c, cls, approximate) {
    var r = rectOf(c);
    var d = el("div", "hl " + cls + (approximate ? " hl-approx" : ""));
    d.style.left = r.x0 * 100 + "%";
    d.style.top = r.y0 * 100 + "%";
    d.style.width = (r.x1 - r.x0) * 100 + "%";
    d.style.height = (r.y1 - r.y0) * 100 + "%";
    return d;
  }

  function textFallback(r) {
    var div = el("div", "text-fallback");
    var q = r.quote;
    if (q && q.end > q.start) {
      div.appendChild(document.createTextNode(r.text.slice(0, q.start)));
      div.appendChild(el("mark", "hl-quote", r.text.slice(q.start, q.end)));
      div.appendChild(document.createTextNode(r.text.slice(q.end)));
    } else {
      div.textContent = r.text;
    }
    return div;
  }

  function showSource(r, scroll) {
    var my = ++view;
    source.replaceChildren();
    setState("loading");
    var name = r.filename || r.sourceId;
    var pages = r.pages || [];
    var pending = pages.length;
    var fallbackShown = false;
    var firstQuote = null;
    function done() {
      if (my !== view) return;
      if (--pending > 0) return;
      if (scroll && firstQuote && firstQuote.isConnected) firstQuote.scrollIntoView({ block: "center" });
      setState("ready");
    }
    if (!pages.length) { source.appendChild(textFallback(r)); setState("ready"); return; }
    pages.forEach(function (page) {
      var label = el("p", "page-label", name + " \u2014 page " + page);
      var fig = el("div", "page");
      fig.dataset.page = String(page);
      var url = r.pageImages && r.pageImages[String(page)];
      var overlay = el("div", "overlay");
      (r.regions || []).forEach(function (g) { if (g.page === page) overlay.appendChild(box(g.coordinates, "hl-region", false)); });
      (r.quote.regions || []).forEach(function (g) {
        if (g.page !== page) return;
        var b = box(g.coordinates, "hl-quote", g.approximate);
        if (!firstQuote) firstQuote = b;
        overlay.appendChild(b);
      });
      source.appendChild(label);
      source.appendChild(fig);
      function noImage() {
        if (my !== view) return;
        fig.replaceWith(el("p", "note", "No page image for page " + page + " of " + name + "; showing the text."));
        if (!fallbackShown) { fallbackShown = true; source.appendChild(textFallback(r)); }
        done();
      }
      if (!url) { noImage(); return; }
      var img = new Image();
      img.alt = name + ", page " + page;
      img.addEventListener("load", function () { fig.appendChild(overlay); done(); });
      img.addEventListener("error", noImage);
      img.src = url;
      fig.appendChild(img);
    });
  }

  function move(delta) {
    if (!results.length) return;
    var i = selected < 0 ? 0 : Math.min(results.length - 1, Math.max(0, selected + delta));
    select(i, true);
  }

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var q = input.value.trim();
    if (q) search(q);
  });
  input.addEventListener("keydown", function (e) {
    if (e.key === "ArrowDown") { e.preventDefault(); move(1); }
    else if (e.key === "ArrowUp") { e.preventDefault(); move(-1); }
  });
  list.addEventListener("keydown", function (e) {
    if (e.key === "ArrowDown") { e.preventDefault(); move(1); }
    else if (e.key === "ArrowUp") { e.preventDefault(); move(-1); }
    else if (e.key === "Enter" && selected >= 0) { e.preventDefault(); select(selected, true); source.focus(); }
  });
  var initial = new URLSearchParams(location.search).get("q");
  if (initial) { input.value = initial; search(initial); }
})();
`;
