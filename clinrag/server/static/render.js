/* clinrag evidence map: draws one AskResult (and the corpus documents of its topics) into the page.
 * Shared by the live page (app.js) and the self-contained export (clinrag/html_export.py).
 * SECURITY: every piece of data goes into the DOM as text (text nodes, textContent, setAttribute on
 * non-script attributes); nothing from a question, a result or the corpus is ever parsed as HTML. */
(function () {
  "use strict";
  var SVG_NS = "http://www.w3.org/2000/svg";
  var FACETS = {start_age: "Start age", stop_age: "Stop age", interval: "Interval (months)", action: "Recommendation",
    threshold: "Threshold", target: "Target", eligibility: "Eligibility"};
  var NLI_SHOWN = 0.5;      // NLI sentence pairs are listed from this contradiction probability up
  var PX_PER_YEAR = 72;     // horizontal scale of the map
  var LABEL_W = 112;        // left column holding the organization names
  var CITE = /\[([A-Za-z0-9._:\/-]+)\]/g;  // a citation [doc_id] in answer text

  // el("p", {class: "x"}, "text", child, ...): strings always become text nodes, never markup.
  function build(ns, tag, attrs, kids) {
    var node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (attrs[k] == null) return;
      if (k === "style") node.style.cssText = attrs[k];  // CSSOM, allowed by the page's style-src policy
      else node.setAttribute(k, String(attrs[k]));
    });
    kids.forEach(function (kid) {
      if (kid == null || kid === false) return;
      node.appendChild(typeof kid === "object" ? kid : document.createTextNode(String(kid)));
    });
    return node;
  }
  function el(tag, attrs) { return build(null, tag, attrs, [].slice.call(arguments, 2)); }
  function svg(tag, attrs) { return build(SVG_NS, tag, attrs, [].slice.call(arguments, 2)); }
  function fill(target, node) { target.replaceChildren(); if (node) target.appendChild(node); }

  var num = function (x, d) { return x == null ? "–" : Number(x).toFixed(d == null ? 2 : d); };
  var yearOf = function (iso) { return iso ? Number(String(iso).slice(0, 4)) : null; };
  // a date as a fractional year (2015-10-20 -> 2015.80), for its position on the time axis
  function when(iso) {
    var t = Date.parse(String(iso).slice(0, 10) + "T00:00:00Z");
    if (isNaN(t)) return yearOf(iso);
    var y = new Date(t).getUTCFullYear();
    return y + (t - Date.UTC(y, 0, 1)) / (Date.UTC(y + 1, 0, 1) - Date.UTC(y, 0, 1));
  }
  var pretty = function (value) { return String(value).replace(/_/g, " "); };

  // Cards get positional ids (doc ids may hold ':' or '/'); the first card of a document is its link target.
  function cardIds(result) {
    var ids = new Map();
    (result.evidence || []).forEach(function (e, i) { if (!ids.has(e.doc_id)) ids.set(e.doc_id, "card-" + i); });
    return ids;
  }
  // follow a link to a document's evidence card: scroll there and move keyboard focus onto it
  function goToCard(ev, docId, ids) {
    var card = document.getElementById(ids.get(docId));
    if (!card) return;
    ev.preventDefault();
    card.scrollIntoView({block: "center"});
    card.focus({preventScroll: true});
  }
  function cardLink(docId, ids, text) {
    var a = el("a", {href: "#" + ids.get(docId), class: "cite"}, text || "[" + docId + "]");
    a.addEventListener("click", function (ev) { goToCard(ev, docId, ids); });
    return a;
  }

  // The documents drawn on the map: every corpus document on the topic(s) of the evidence, plus any evidence
  // document the corpus list lacks (drawn from the evidence entry itself).
  function mapDocs(result, corpus) {
    var byId = new Map((corpus || []).map(function (d) { return [d.doc_id, d]; }));
    var topics = new Set();
    result.evidence.forEach(function (e) { var d = byId.get(e.doc_id); if (d && d.topic) topics.add(d.topic); });
    var docs = (corpus || []).filter(function (d) { return topics.has(d.topic); });
    result.evidence.forEach(function (e) {
      if (!docs.some(function (d) { return d.doc_id === e.doc_id; })) docs.push(e);
    });
    return docs.filter(function (d) { return d.issued || d.year; });
  }

  function axis(g, x0, x1, yTop, yBottom, minY, maxY, x) {
    for (var y = minY; y <= maxY; y++) {
      g.appendChild(svg("line", {x1: x(y), x2: x(y), y1: yTop, y2: yBottom, class: "grid"}));
      g.appendChild(svg("text", {x: x(y), y: yTop - 8, class: "tick", "text-anchor": "middle"}, String(y)));
    }
  }

  // One lane per organization on a time axis; each document a mark at its issue date; a version joined to the one
  // that replaced it; superseded versions grey and labelled; the documents used as evidence ringed and linked.
  function laneMap(result, corpus, ids, avail) {
    var docs = mapDocs(result, corpus);
    var used = new Set(result.evidence.map(function (e) { return e.doc_id; }));
    var orgs = [];
    docs.slice().sort(function (a, b) { return when(a.issued || a.year) - when(b.issued || b.year); })
      .forEach(function (d) { if (orgs.indexOf(d.org) < 0) orgs.push(d.org); });
    var ts = docs.map(function (d) { return when(d.issued || String(d.year)); });
    var minY = Math.floor(Math.min.apply(null, ts)), maxY = Math.floor(Math.max.apply(null, ts)) + 1;
    var px = Math.min(240, Math.max(PX_PER_YEAR, (avail - LABEL_W - 174) / (maxY - minY)));  // fill; scroll if narrow
    var width = LABEL_W + 24 + (maxY - minY) * px + 150;
    var x = function (t) { return LABEL_W + 24 + (t - minY) * px; };
    // labels of marks closer than this stack on extra rows of their lane
    var lanes = orgs.map(function (org) {
      var marks = docs.filter(function (d) { return d.org === org; })
        .map(function (d) { return {doc: d, x: x(when(d.issued || String(d.year))), level: 0}; })
        .sort(function (a, b) { return a.x - b.x; });
      marks.forEach(function (m, i) {
        var clash = marks.slice(0, i).filter(function (p) { return m.x - p.x < 150; });
        while (clash.some(function (p) { return p.level === m.level; })) m.level++;
      });
      return {org: org, marks: marks, levels: 1 + Math.max.apply(null, marks.map(function (m) { return m.level; }))};
    });
    var top = 34, y = top, pos = new Map();
    lanes.forEach(function (lane) {
      lane.y = y; lane.h = 34 + 30 * lane.levels; y += lane.h;
      lane.marks.forEach(function (m) { pos.set(m.doc.doc_id, {x: m.x, y: lane.y + 22 + 15 * lane.levels}); });
    });
    var root = svg("svg", {width: width, height: y + 6, viewBox: "0 0 " + width + " " + (y + 6), class: "evmap",
      role: "group", "aria-label": "Evidence map: " + docs.length + " documents from " + orgs.length +
        " organizations, " + minY + " to " + maxY + "; ringed documents are the evidence used."});
    lanes.forEach(function (lane, i) {
      root.appendChild(svg("rect", {x: 0, y: lane.y, width: width, height: lane.h, class: i % 2 ? "lane" : "lane alt"}));
      root.appendChild(svg("text", {x: 10, y: lane.y + lane.h / 2 + 5, class: "org"}, lane.org));
    });
    axis(root, LABEL_W, width, top, y, minY, maxY, x);
    docs.forEach(function (d) {  // "replaced by" links, drawn under the marks
      var a = pos.get(d.doc_id), b = pos.get(d.superseded_by);
      if (a && b) root.appendChild(svg("line", {x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "version"}));
    });
    lanes.forEach(function (lane) {
      lane.marks.forEach(function (m) {
        var d = m.doc, p = pos.get(d.doc_id), isUsed = used.has(d.doc_id), old = d.status === "superseded";
        var anchor = p.x > width - 120 ? "end" : "middle";
        var label = d.org + ", " + (d.title || d.doc_id) + ", issued " + (d.issued || d.year) + ", " +
          (old ? "superseded by " + d.superseded_by : "current") + (isUsed ? ", used as evidence" : "");
        var g = svg("g", {class: "mark" + (old ? " superseded" : " current") + (isUsed ? " used" : ""),
          "data-doc": d.doc_id}, svg("title", {}, label));
        g.appendChild(svg("circle", {cx: p.x, cy: p.y, r: isUsed ? 9 : 6}));
        g.appendChild(svg("text", {x: p.x, y: p.y - 15 - 15 * m.level, "text-anchor": anchor, class: "doc"}, d.doc_id));
        if (old) {
          g.appendChild(svg("text", {x: p.x, y: p.y + 22 + 15 * m.level, "text-anchor": anchor, class: "sup"},
            "superseded by " + d.superseded_by));
        }
        var node = g;
        if (isUsed && ids.has(d.doc_id)) {  // evidence marks are links (and tab stops) to their cards
          node = svg("a", {href: "#" + ids.get(d.doc_id), "aria-label": label}, g);
          node.addEventListener("click", function (ev) { goToCard(ev, d.doc_id, ids); });
        }
        root.appendChild(node);
      });
    });
    return root;
  }

  // Abstract corpora: each abstract at its publication year (x) and support score (y); the circle grows and warms
  // with its contradiction salience (mean contradiction probability against the other abstracts).
  function abstractMap(result, ids, avail) {
    var ev = result.evidence.filter(function (e) { return e.issued || e.year; });
    var ys = ev.map(function (e) { return yearOf(e.issued) || e.year; });
    var minY = Math.min.apply(null, ys) - 1, maxY = Math.max.apply(null, ys) + 1;
    var px = Math.min(240, Math.max(PX_PER_YEAR, (avail - LABEL_W - 80) / (maxY - minY)));
    var width = LABEL_W + (maxY - minY) * px + 80, top = 34, h = 240;
    var x = function (t) { return LABEL_W + (t - minY) * px; };
    var y = function (s) { return top + h - s * h; };
    var root = svg("svg", {width: width, height: top + h + 30, viewBox: "0 0 " + width + " " + (top + h + 30),
      class: "evmap abstracts", role: "group", "aria-label": "Abstracts by publication year (across) and support " +
        "score (up); larger, redder circles have higher contradiction salience."});
    axis(root, LABEL_W, width, top, top + h, minY, maxY, x);
    [0, 0.25, 0.5, 0.75, 1].forEach(function (s) {
      root.appendChild(svg("line", {x1: LABEL_W - 6, x2: width, y1: y(s), y2: y(s), class: "grid"}));
      root.appendChild(svg("text", {x: LABEL_W - 10, y: y(s) + 4, "text-anchor": "end", class: "tick"}, num(s)));
    });
    root.appendChild(svg("text", {x: 10, y: top + h / 2, class: "org"}, "support"));
    var placed = [];  // label positions so far: a label that would overlap one goes below its circle instead
    ev.forEach(function (e, i) {
      var s = Math.max(0, Math.min(1, e.support_score || 0)), c = e.contradiction_salience || 0;
      var cx = x((yearOf(e.issued) || e.year) + 0.5) + ((i % 3) - 1) * 10, cy = y(s);
      var ly = cy - 12 - 12 * c;
      if (placed.some(function (p) { return Math.abs(p[0] - cx) < 110 && Math.abs(p[1] - ly) < 14; })) ly = cy + 22 + 12 * c;
      placed.push([cx, ly]);
      var label = e.doc_id + ": " + e.title + " (" + e.org + ", " + (e.issued || e.year) + "), support " + num(s) +
        ", contradiction salience " + num(c);
      var g = svg("g", {class: "mark abstract used" + (c >= NLI_SHOWN ? " salient" : ""), "data-doc": e.doc_id},
        svg("title", {}, label),
        svg("circle", {cx: cx, cy: cy, r: 6 + 12 * c, "fill-opacity": 0.35 + 0.6 * c}),
        svg("text", {x: cx, y: ly, "text-anchor": "middle", class: "doc"}, e.doc_id));
      var a = svg("a", {href: "#" + ids.get(e.doc_id), "aria-label": label}, g);
      a.addEventListener("click", function (ev) { goToCard(ev, e.doc_id, ids); });
      root.appendChild(a);
    });
    return root;
  }

  function legend(abstracts) {
    var item = function (cls, text) { return el("li", {}, el("span", {class: "key " + cls, "aria-hidden": "true"}), text); };
    return abstracts
      ? el("ul", {class: "legend"}, item("k-used", "abstract used as evidence (position: year, support score)"),
        item("k-salient", "larger and redder: higher contradiction salience"))
      : el("ul", {class: "legend"}, item("k-current", "current"), item("k-superseded", "superseded (grey)"),
        item("k-used", "used as evidence (ringed; opens its card)"), item("k-line", "replaced by a newer version"));
  }

  function renderMap(target, result, corpus) {
    var ids = cardIds(result);
    if (!result.evidence || !result.evidence.length) {
      fill(target, el("p", {class: "empty"}, "No documents were retrieved for this question, so there is no map."));
      return false;
    }
    var abstracts = result.evidence.every(function (e) { return e.source_type === "abstract"; });
    var avail = (target.clientWidth || 900) - 4;
    var scroll = el("div", {class: "map-scroll", tabindex: "0", role: "region", "aria-label": "Evidence map, scrolls sideways"},
      abstracts ? abstractMap(result, ids, avail) : laneMap(result, corpus, ids, avail));
    target.replaceChildren(scroll, legend(abstracts));
    return true;
  }

  // One table cell: each document's value with its strength, year and status.
  function valueCell(values, ids) {
    var td = el("td");
    values.forEach(function (v) {
      td.appendChild(el("div", {class: "val" + (v.status === "superseded" ? " superseded" : ""), title: v.sentence || null},
        el("strong", {}, pretty(v.value)), v.strength ? el("span", {class: "strength"}, v.strength) : null,
        el("span", {class: "yr"}, String(yearOf(v.issued) || "")), v.status === "superseded" ? " superseded " : " ",
        ids.has(v.doc_id) ? cardLink(v.doc_id, ids) : el("span", {class: "cite"}, "[" + v.doc_id + "]")));
    });
    return td;
  }

  // rows = facet + intervention (rows with the same facet and intervention are merged), columns from colOf(value)
  function table(items, colOf, caption, ids) {
    var rows = new Map(), cols = [];
    items.forEach(function (d) {
      var key = d.facet + "\u0000" + d.intervention + (d.kind === "change" ? "\u0000" + d.values[0].org : "");
      if (!rows.has(key)) rows.set(key, {d: d, cells: new Map(), seen: new Set()});
      var row = rows.get(key);
      d.values.slice().sort(function (a, b) { return String(a.issued).localeCompare(String(b.issued)); })
        .forEach(function (v) {
          var col = colOf(v), dup = v.doc_id + "\u0000" + v.value;
          if (cols.indexOf(col) < 0) cols.push(col);
          if (row.seen.has(dup)) return;
          row.seen.add(dup);
          if (!row.cells.has(col)) row.cells.set(col, []);
          row.cells.get(col).push(v);
        });
    });
    var head = el("tr", {}, el("th", {scope: "col"}, "What"));
    cols.forEach(function (c) { head.appendChild(el("th", {scope: "col"}, c)); });
    var body = el("tbody");
    rows.forEach(function (row) {
      var tr = el("tr", {}, el("th", {scope: "row"}, FACETS[row.d.facet] || pretty(row.d.facet),
        el("span", {class: "iv"}, row.d.intervention)));
      cols.forEach(function (c) {
        var td = row.cells.has(c) ? valueCell(row.cells.get(c), ids) : el("td", {class: "none"}, "–");
        td.setAttribute("data-label", c);  // the column's name, shown beside the value on narrow screens
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    return el("div", {class: "table-scroll"}, el("table", {}, el("caption", {}, caption), el("thead", {}, head), body));
  }

  function renderDiffer(target, result) {
    var ids = cardIds(result), out = [];
    var dis = (result.disagreements || []).filter(function (d) { return d.kind === "disagreement"; });
    var chg = (result.disagreements || []).filter(function (d) { return d.kind === "change"; });
    if (dis.length) {
      out.push(table(dis, function (v) { return v.org; }, "Between organizations: each cell is a document's " +
        "value, its stated strength and the year it was issued", ids));
    }
    if (chg.length) {
      out.push(table(chg, function (v) { return v.org + " " + (yearOf(v.issued) || ""); },
        "Changes between versions of one organization, oldest first", ids));
    }
    if (!dis.length && !chg.length) {
      out.push(el("p", {class: "empty"}, "No typed disagreement between the recommendation frames of this evidence."));
    }
    var pairs = (result.contradictions || []).filter(function (c) { return c.score >= NLI_SHOWN; });
    var list = el("ul", {class: "pairs"});
    pairs.forEach(function (c) {
      var what = c.basis === "stance" ? "opposite stance toward the question " : "contradiction probability ";
      list.appendChild(el("li", {}, el("p", {class: "pair-head"}, what + num(c.score) + ": ",
        ids.has(c.doc_a) ? cardLink(c.doc_a, ids) : "[" + c.doc_a + "]", " vs ",
        ids.has(c.doc_b) ? cardLink(c.doc_b, ids) : "[" + c.doc_b + "]"),
        el("blockquote", {}, c.sentence_a), el("blockquote", {}, c.sentence_b)));
    });
    out.push(el("h3", {}, "Sentence pairs flagged by the NLI check (score ≥ " + NLI_SHOWN + ")"));
    out.push(pairs.length ? list : el("p", {class: "empty"}, "None: no sentence pair reached " + NLI_SHOWN + "."));
    target.replaceChildren.apply(target, out);
  }

  // Answer text line by line; "- " lines become a list; [doc_id] citations become links to the evidence cards.
  function renderAnswer(target, result) {
    var ids = cardIds(result), out = [], list = null;
    String(result.answer || "").split("\n").forEach(function (line) {
      if (!line.trim()) return;
      var item = /^\s*-\s+/.test(line), node = el(item ? "li" : "p"), last = 0, m;
      line = line.replace(/^\s*-\s+/, "");
      CITE.lastIndex = 0;
      while ((m = CITE.exec(line))) {
        node.appendChild(document.createTextNode(line.slice(last, m.index)));
        node.appendChild(ids.has(m[1]) ? cardLink(m[1], ids) : document.createTextNode(m[0]));
        last = m.index + m[0].length;
      }
      node.appendChild(document.createTextNode(line.slice(last)));
      if (/^Not medical advice/.test(line)) node.className = "advice";
      if (item) { if (!list) { list = el("ul"); out.push(list); } list.appendChild(node); } else { list = null; out.push(node); }
    });
    if (!out.length) out.push(el("p", {class: "empty"}, "No answer text came back."));
    target.replaceChildren.apply(target, out);
  }

  function renderCards(target, result) {
    var ids = cardIds(result);
    target.replaceChildren.apply(target, (result.evidence || []).map(function (e, i) {
      var old = e.status === "superseded";
      var score = function (name, v) {
        return el("li", {}, name + " ", el("strong", {}, num(v)),
          el("span", {class: "bar", "aria-hidden": "true"}, el("span", {style: "width:" + Math.round(100 * Math.max(0, Math.min(1, v || 0))) + "%"})));
      };
      return el("article", {class: "card" + (old ? " superseded" : ""), id: ids.get(e.doc_id) === "card-" + i ? "card-" + i : null,
        tabindex: "-1", "aria-labelledby": "card-t-" + i},
        el("p", {class: "card-org"}, e.org, " · ", e.issued || String(e.year || "undated"), " · ",
          el("span", {class: "badge " + (old ? "old" : "cur")}, old ? "superseded by " + e.superseded_by : "current"),
          e.source_type !== "guideline" ? " · " + e.source_type : null),
        el("h3", {id: "card-t-" + i}, e.title),
        el("blockquote", {}, e.text),
        el("p", {class: "card-cite"}, "[" + e.doc_id + "]", " · retrieval score " + num(e.score, 4)),
        el("ul", {class: "scores"}, score("support", e.support_score), score("contradiction salience", e.contradiction_salience)));
    }));
  }

  // support score vs threshold, from the stream's clinrag.support event or, failing that, from the reason text
  function supportOf(result, support) {
    if (support && support.threshold != null) return support;
    var m = /support score ([\d.]+) is below the threshold ([\d.]+)/.exec(result.reason || "");
    return m ? {support: Number(m[1]), threshold: Number(m[2])} : null;
  }

  // An abstention is shown as such: what was not answered, why, and (out of scope) the message for the person.
  function renderBanner(target, result, support) {
    if (result.decision !== "abstain") { target.replaceChildren(); return; }
    var outOfScope = result.abstain_reason === "out_of_scope";
    var lines = String(result.answer || "").split("\n").filter(function (l) {
      return l.trim() && !/^clinrag abstains:/.test(l) && !/^Not medical advice/.test(l);
    });
    var box = el("div", {class: "banner " + (outOfScope ? "scope" : "support"), role: "alert"},
      el("h2", {}, outOfScope ? "Not answered: outside this corpus's scope"
        : "Not answered: the corpus does not support an answer"));
    lines.forEach(function (l) {
      box.appendChild(el("p", {class: /emergency/i.test(l) ? "urgent" : null}, l));
    });
    var s = supportOf(result, support);
    if (!outOfScope && s) {
      box.appendChild(el("p", {class: "gauge-text"}, "Best support score " + num(s.support) + " is below the threshold " +
        num(s.threshold) + "."));
      box.appendChild(el("div", {class: "gauge", "aria-hidden": "true"},
        el("span", {class: "fillbar", style: "width:" + Math.round(100 * s.support) + "%"}),
        el("span", {class: "mark-t", style: "left:" + Math.round(100 * s.threshold) + "%"})));
    }
    if (result.reason) box.appendChild(el("details", {}, el("summary", {}, "Why"), el("p", {}, result.reason)));
    fill(target, box);
  }

  // Everything for one result; returns true when an evidence map was drawn.
  var UNUSED_NOTE = "Retrieved but not used for an answer: no passage supports the question well enough.";
  // The map panel: the map at the target's width, with the note of an abstention (also used to redraw on resize).
  function renderMapPanel(target, result, corpus) {
    var drawn = renderMap(target, result, corpus);
    if (result.decision === "abstain" && drawn) target.prepend(el("p", {class: "note"}, UNUSED_NOTE));
    return drawn;
  }

  function renderResult(result, corpus, support) {
    var $ = function (id) { return document.getElementById(id); };
    renderBanner($("banner"), result, support);
    var drawn = renderMapPanel($("map"), result, corpus);
    renderDiffer($("differ"), result);
    renderAnswer($("answer"), result);
    renderCards($("cards"), result);
    if (result.decision === "abstain" && drawn) {  // retrieved, shown for transparency, but not an answer
      $("cards").prepend(el("p", {class: "note"}, UNUSED_NOTE));
    }
    return drawn;
  }

  window.ClinragRender = {el: el, renderResult: renderResult, renderMap: renderMap, renderMapPanel: renderMapPanel,
    renderBanner: renderBanner, FACETS: FACETS};
})();
