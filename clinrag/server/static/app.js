/* clinrag page: asks the API, shows the graph's steps as its stream events arrive, then draws the result with
 * render.js. The first question of a page session creates a server-side thread; it and every follow-up stream into
 * that thread (one graph run per question). All data is rendered as text (see render.js).
 * Access token: a server started with CLINRAG_API_TOKEN wants it on every API call. Open the page as /?token=...
 * (kept in this tab's sessionStorage and taken out of the address bar), or type it in the box shown after a 401. */
(function () {
  "use strict";
  var R = window.ClinragRender, el = R.el;
  var $ = function (id) { return document.getElementById(id); };

  // The graph's steps, in order, and the stream event that finishes each one (hypotheses emit no event of their own:
  // they are done when retrieval reports).
  var STEPS = [
    ["scope", "Scope guard", "clinrag.scope"], ["hypotheses", "Hypotheses", null],
    ["retrieve", "Retrieval", "clinrag.evidence"], ["contradictions", "Contradiction check", "clinrag.contradictions"],
    ["support", "Support gate", "clinrag.support"], ["answer", "Answer", "result"]];
  var STATE_TEXT = {pending: "waiting", active: "running", done: "done", skipped: "skipped", stopped: "abstained"};

  var session = {
    threadId: null,  // the server thread of this page session (made by the first question)
    result: null, support: null, corpus: null, t0: 0, timing: {}, downloadUrl: null,
    drawn: null,  // what the map shows ({result, docs}), redrawn when the window is resized
  };
  window.__clinragTiming = session.timing;  // submit -> map drawn / result shown, in ms (read by the tests)

  // ---- access token ---------------------------------------------------------------------------------------------
  var TOKEN_KEY = "clinrag-token";
  (function takeTokenFromUrl() {
    var url = new URL(window.location.href), token = url.searchParams.get("token");
    if (token == null) return;
    try { sessionStorage.setItem(TOKEN_KEY, token); } catch (e) { /* storage off: the box asks again */ }
    url.searchParams.delete("token");  // out of the address bar and the history
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  })();
  function headers(extra) {
    var h = Object.assign({}, extra), token = null;
    try { token = sessionStorage.getItem(TOKEN_KEY); } catch (e) { /* storage off */ }
    if (token) h.Authorization = "Bearer " + token;
    return h;
  }
  $("token-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    try { sessionStorage.setItem(TOKEN_KEY, $("token").value.trim()); } catch (e) { /* storage off */ }
    $("token").value = "";
    $("token-form").hidden = true;
    $("error").hidden = true;
    session.corpus = null;  // fetched again with the token
  });

  // ---- API ----------------------------------------------------------------------------------------------------
  async function failure(res) {
    var msg = res.status + " " + res.statusText;
    try { var body = await res.json(); if (body && body.error) msg = body.error.message || body.error.code; } catch (e) { /* not JSON */ }
    if (res.status === 401) { $("token-form").hidden = false; msg = "this server needs its access token (enter it below)"; }
    return new Error(msg);
  }
  async function post(path, body) {
    var res = await fetch(path, {method: "POST", headers: headers({"Content-Type": "application/json"}), body: JSON.stringify(body || {})});
    if (!res.ok) throw await failure(res);
    return res.json();
  }
  // The corpus list (for the map's lanes), fetched once; without it the map shows the evidence documents alone.
  function corpus() {
    if (!session.corpus) {
      session.corpus = fetch("/api/corpus", {headers: headers()}).then(function (r) { return r.ok ? r.json() : []; })
        .then(function (body) { return Array.isArray(body) ? body : (body && body.documents) || []; })
        .catch(function () { return []; });
    }
    return session.corpus;
  }
  // Server-sent events over a POST response body (EventSource cannot POST): calls onEvent(name, data) per event.
  async function readStream(res, onEvent) {
    var reader = res.body.getReader(), decoder = new TextDecoder(), buffer = "";
    var dispatch = function (block) {
      var name = "message", data = [];
      block.split(/\r?\n/).forEach(function (line) {
        if (line.indexOf("event:") === 0) name = line.slice(6).trim();
        else if (line.indexOf("data:") === 0) data.push(line.slice(5).replace(/^ /, ""));
      });
      if (data.length) onEvent(name, JSON.parse(data.join("\n")));
      else if (name === "end") onEvent(name, null);
    };
    for (;;) {
      var chunk = await reader.read();
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, {stream: true});
      var parts = buffer.split(/\r?\n\r?\n/);
      buffer = parts.pop();
      parts.forEach(dispatch);
    }
    if (buffer.trim()) dispatch(buffer);
  }

  // ---- steps --------------------------------------------------------------------------------------------------
  function resetSteps() {
    $("steps").replaceChildren.apply($("steps"), STEPS.map(function (s) {
      return el("li", {id: "step-" + s[0], class: "step pending"}, el("span", {class: "step-name"}, s[1]),
        el("span", {class: "step-state"}, STATE_TEXT.pending), el("span", {class: "step-detail"}));
    }));
    $("progress").hidden = false;
    setStep("scope", "active");
  }
  function setStep(id, state, detail) {
    var li = $("step-" + id);
    li.className = "step " + state;
    li.querySelector(".step-state").textContent = STATE_TEXT[state];
    if (detail != null) li.querySelector(".step-detail").textContent = detail;
    var next = li.nextElementSibling;  // the following step is now the one running
    if ((state === "done") && next && next.classList.contains("pending")) setStep(next.id.slice(5), "active");
  }
  function skipRest(fromId) {
    var ids = STEPS.map(function (s) { return s[0]; });
    ids.slice(ids.indexOf(fromId) + 1).forEach(function (id) { setStep(id, "skipped", ""); });
  }
  var orgs = function (items) { return Array.from(new Set(items.map(function (i) { return i.org; }))).join(", "); };

  // One stream event: mark its step, and draw what is already known (the map appears once evidence is in).
  function onEvent(name, data) {
    if (name === "clinrag.follow_up") {
      $("asked").textContent = "Read as: " + data.resolved;
    } else if (name === "clinrag.scope") {
      if (data.in_scope) setStep("scope", "done", "in scope");
      else { setStep("scope", "stopped", "out of scope (" + (data.category || "not covered") + ")"); skipRest("scope"); }
    } else if (name === "clinrag.evidence") {
      setStep("hypotheses", "done", "");
      setStep("retrieve", "done", data.items.length + " passages from " + orgs(data.items));
      showEarlyMap(data.items);
    } else if (name === "clinrag.contradictions") {
      setStep("contradictions", "done", (data.disagreements || []).length + " typed disagreements, " +
        (data.flagged || []).length + " flagged sentence pairs");
    } else if (name === "clinrag.support") {
      session.support = data;
      var ok = data.decision === "answer";
      setStep("support", ok ? "done" : "stopped", "support " + data.support.toFixed(2) + (ok ? " ≥ " : " < ") +
        "threshold " + Number(data.threshold).toFixed(2));
      if (!ok) skipRest("support");
    }
  }

  // ---- results ------------------------------------------------------------------------------------------------
  function mark(name) {
    if (session.timing[name] == null) session.timing[name] = Math.round(performance.now() - session.t0);
  }
  // Draw the map from the stream's compact evidence entries before the result arrives.
  async function showEarlyMap(items) {
    var docs = await corpus();
    if (session.result) return;  // the full result already drew it
    $("results").hidden = false;
    var partial = {evidence: items.map(function (i) { return Object.assign({source_type: "guideline"}, i); })};
    var byId = new Map(docs.map(function (d) { return [d.doc_id, d]; }));
    partial.evidence.forEach(function (e) { if (byId.has(e.doc_id)) e.source_type = byId.get(e.doc_id).source_type; });
    session.drawn = {result: partial, docs: docs, width: $("map").clientWidth};
    if (R.renderMap($("map"), partial, docs)) mark("map_ms");
  }
  // Steps the stream did not report (e.g. hypotheses, the answer) are settled from the result itself.
  function settleSteps(result) {
    var ids = STEPS.map(function (s) { return s[0]; });
    var stop = result.decision === "abstain" ? (result.abstain_reason === "out_of_scope" ? "scope" : "support") : null;
    ids.forEach(function (id) {
      var open = /pending|active/.test($("step-" + id).className);
      if (open && id === stop) { setStep(id, "stopped", String(result.abstain_reason).replace(/_/g, " ")); skipRest(id); }
      else if (open && id !== "answer") setStep(id, "done");
    });
    if (stop !== "scope") {
      $("step-hypotheses").querySelector(".step-detail").textContent = result.hypotheses
        ? "target and mimic written" : "none (no chat model): query-only retrieval";
    }
    setStep("answer", stop ? "stopped" : "done", stop ? "abstained: " + String(result.abstain_reason).replace(/_/g, " ")
      : "answered with " + result.evidence.length + " passages");
  }
  async function show(result) {
    var docs = await corpus();
    session.result = result;
    $("results").hidden = false;
    settleSteps(result);
    $("asked").textContent = result.follow_up && result.follow_up.resolved !== result.follow_up.asked
      ? "Follow-up \u201c" + result.follow_up.asked + "\u201d read as: " + result.follow_up.resolved
      : "Question: " + result.question;
    session.drawn = {result: result, docs: docs, width: $("map").clientWidth};
    if (R.renderResult(result, docs, session.support)) mark("map_ms");
    mark("result_ms");
    if (session.downloadUrl) URL.revokeObjectURL(session.downloadUrl);
    session.downloadUrl = URL.createObjectURL(new Blob([JSON.stringify(result, null, 2)], {type: "application/json"}));
    $("download").href = session.downloadUrl;
    $("turns").appendChild(el("li", {}, result.question, " ", el("span", {class: "badge " + (result.decision === "answer" ? "cur" : "old")}, result.decision)));
    document.title = "clinrag: " + result.question;
  }
  function fail(err) {
    $("error").textContent = "Something went wrong: " + (err && err.message ? err.message : String(err));
    $("error").hidden = false;
    document.querySelectorAll(".step.active").forEach(function (li) { setStep(li.id.slice(5), "skipped"); });
  }
  function begin(button) {
    $("error").hidden = true;
    session.result = null; session.support = null;
    for (var k in session.timing) delete session.timing[k];
    session.t0 = performance.now();
    button.disabled = true;
    $("results").setAttribute("aria-busy", "true");
    resetSteps();
  }
  function finish(button) {
    button.disabled = false;
    $("results").removeAttribute("aria-busy");
  }

  // One question on the page session's thread (made by the first question), the graph's steps streamed as it runs;
  // the server resolves a follow-up such as "and what about ACS?" against the thread's earlier questions.
  async function askOnThread(question) {
    corpus();
    if (!session.threadId) session.threadId = (await post("/api/threads")).thread_id;
    var res = await fetch("/api/threads/" + encodeURIComponent(session.threadId) + "/ask/stream", {method: "POST",
      headers: headers({"Content-Type": "application/json", Accept: "text/event-stream"}),
      body: JSON.stringify({question: question})});
    if (!res.ok) throw await failure(res);
    var result = null;
    await readStream(res, function (name, data) {
      if (name === "result") result = data;
      else if (name === "error") throw new Error((data && data.error && data.error.message) || "the run failed");
      else if (name !== "end") onEvent(name, data);
    });
    if (!result) throw new Error("the stream ended without a result");
    await show(result);
  }
  function ask(question) { $("asked").textContent = "Question: " + question; return askOnThread(question); }
  function followUp(question) { $("asked").textContent = "Follow-up: " + question; return askOnThread(question); }

  // Redraw the map at the new width when the window is resized (debounced; only when the map's width changed).
  var resizeTimer = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(function () {
      var drawn = session.drawn, width = $("map").clientWidth;
      if (!drawn || $("results").hidden || width === drawn.width) return;
      drawn.width = width;
      R.renderMapPanel($("map"), drawn.result, drawn.docs);
    }, 150);
  });

  function wire(formId, inputId, buttonId, run) {
    $(formId).addEventListener("submit", function (ev) {
      ev.preventDefault();
      var q = $(inputId).value.trim();
      if (!q || $(buttonId).disabled) return;
      begin($(buttonId));
      run(q).catch(fail).finally(function () {
        finish($(buttonId));
        if (formId === "follow-form") $(inputId).value = "";
      });
    });
  }
  wire("ask-form", "question", "ask-button", ask);
  wire("follow-form", "follow", "follow-button", followUp);
  $("download").addEventListener("click", function (ev) { if (!session.result) ev.preventDefault(); });
})();
