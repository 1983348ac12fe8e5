/*
 * 실습실의 조종: 상태(lab-state.js)를 바꾸는 사건을 받아, 계산(lab-analysis.js)을 부르고, 그림(lab-views.js)을 다시 그린다.
 *
 *   문장이 바뀌면(실행, Ctrl+Enter, 토큰 누르기)  analyze → 결과 → 모든 그림 → 결과 JSON → (빈칸이 하나면) 어절 채우기
 *   층·헤드·단위가 바뀌면                        attentionPanel → 어텐션 그림만
 *   유사도의 단어가 바뀌면                        similarityPanel → 유사도 그림만
 *
 * 어절 채우기는 모델을 스무 번 넘게 돌리므로(1초 안팎) 다른 그림을 먼저 보인 뒤에 계산하고, 끝나면 가린 단어 그림과 결과 JSON을
 * 고친다. 그 사이 문장이 바뀌면 그 계산은 버린다.
 *
 * 시험용 고리: 계산할 때마다 <script type="application/json" id="lab-result"> 의 textContent에 결과를 JSON으로 쓰고,
 * window.BertLab.lab 에 compute, settled(어절 채우기까지 끝난 결과의 Promise), toggleMask, figureBlob, model, state를 둔다.
 */
(function () {
  "use strict";

  var DEFAULT_TEXT = "배 타고 배 먹으니 배 부르다.";
  var analysis = window.BertLab && window.BertLab.analysis, State = window.BertLab && window.BertLab.state;
  var views = window.BertLab && window.BertLab.views;
  var $ = function (id) { return document.getElementById(id); };
  var now = function () { return performance.now(); };

  var state = null;        // 읽는 사람이 고른 것 (lab-state.js)
  var results = {};        // 지금 문장의 계산 결과: {run, attention, similarity, words}
  var record = null;       // 결과 JSON (#lab-result)
  var env = null;          // 그림이 쓰는 모델·토크나이저와, 그림 속 단추가 부르는 동작
  var timing = { loadMs: 0, readyMs: undefined };
  var wordJob = 0;         // 어절 채우기 계산의 번호: 문장이 바뀌면 늘어나 앞 계산을 버리게 한다
  var wordsDone = Promise.resolve(null);

  // --- 결과 만들기 ----------------------------------------------------------------------------

  function attentionPanel(run) {
    return run.out ? analysis.attentionPanel(run, state.layer, state.head, state.unit, env.model.numHeads) : null;
  }
  function similarityPanel(run) {
    if (!run.out) return null;
    var panel = analysis.similarityPanel(run, state.simGroup, env.model.hiddenSize);
    state.simGroup = panel.index;
    return panel;
  }

  /* 어절 채우기를 할지: 계산할 수 있으면 pending, 아니면 off(까닭은 message)나 error. */
  function planWords(run) {
    if (!run.out) return { status: "off", candidates: [] };
    if (run.masked.length) {
      return { status: "off", candidates: [], code: "clicked",
               message: "토큰을 눌러 가린 자리는 조각 하나만 채웁니다. 어절 후보를 보려면 문장에 [MASK]를 직접 써 넣으세요." };
    }
    var problem = analysis.wordBlankProblem(run.text, env.tokenizer.maskToken);
    if (problem) return { status: problem.code === "no-mask" ? "off" : "error", candidates: [], code: problem.code, message: problem.message };
    return { status: "pending", candidates: [] };
  }

  function recordOf(run) {
    var out = {
      text: run.text, input_ids: run.ids, tokens: run.labels, masked: run.masked.slice(),
      fill: run.fill.map(function (f) { return f.top.map(function (t) { return env.tokenizer.vocab[t.id]; }); }),
      fill_probs: run.fill.map(function (f) { return f.top.map(function (t) { return t.prob; }); }),
      ms: run.ms, error: run.error
    };
    if (run.error) out.message = run.message;
    else out.fill_cont = run.fill.map(function (f) { return f.continuationShare; });
    return out;
  }

  function wordsRecord(words) {
    record.fill_word_status = words.status;
    record.fill_word = words.candidates.map(function (c) { return [c.word, c.score, c.pieces]; });
    record.fill_word_error = words.code || null;
    record.fill_word_message = words.message || null;
    if (words.ms !== undefined) record.fill_word_ms = words.ms;
  }

  function writeResult() {
    var node = $("lab-result");
    if (node) node.textContent = JSON.stringify(record);
  }

  // --- 사건 -----------------------------------------------------------------------------------

  /* 지금 상태의 문장을 끝까지: 분석 → 그림 → 결과 기록 → (필요하면) 어절 채우기 예약. */
  function compute() {
    var t0 = now();
    var run = analysis.analyze(env.model, env.tokenizer, state.text, state.masked);
    State.keepMasks(state, run.masked);
    results = { run: run, attention: attentionPanel(run), similarity: similarityPanel(run), words: planWords(run) };
    $("lab-share").value = shareUrl();
    setTimeout(function () {                            // 주소 막대 고치기는 그림을 그린 뒤에
      try { history.replaceState(null, "", shareUrl()); } catch (err) { /* file://에서는 막힐 수 있다 */ }
    }, 0);
    if (run.error) views.setStatus(run.message, true);
    var renderMs = views.renderAll(state, results, env);
    record = recordOf(run);
    record.similarity = results.similarity ? results.similarity.series.map(function (s) { return { a: s.a, b: s.b, cosine: s.values }; }) : [];
    record.total_ms = now() - t0;
    record.render_ms = renderMs;
    wordsRecord(results.words);
    if (!run.error) views.setStatus("토큰 " + run.ids.length + "개 · 계산 " + views.fmt(run.ms, 0) + " ms · 그림까지 " + views.fmt(record.total_ms, 0) + " ms");
    if (timing.readyMs === undefined) timing.readyMs = now();
    record.ready_ms = timing.readyMs;
    record.load_ms = timing.loadMs;
    writeResult();
    scheduleWords();
    return record;
  }

  /* 어절 채우기: 화면을 한 번 그린 뒤(requestAnimationFrame 다음의 setTimeout)에 계산한다. */
  function scheduleWords() {
    var job = ++wordJob, words = results.words, snapshot = results;
    if (words.status !== "pending") { wordsDone = Promise.resolve(record); return; }
    wordsDone = new Promise(function (resolve) {
      var go = function () {
        if (job !== wordJob) return resolve(null);       // 그사이 문장이 바뀌었다
        var t0 = now(), stats = {};
        try {
          words.candidates = analysis.fillWord(env.model, env.tokenizer, snapshot.run.text, 5, { stats: stats });
          words.status = "done";
        } catch (err) {
          words.status = "error"; words.code = err.code || "error"; words.message = err.message;
        }
        words.ms = now() - t0;
        words.forwards = stats.forwards;
        views.renderFill(state, snapshot, env);
        wordsRecord(words);
        writeResult();
        resolve(record);
      };
      requestAnimationFrame(function () { setTimeout(go, 0); });
    });
  }

  function shareUrl() {
    return location.href.split("#")[0].split("?")[0] + State.toQuery(state);
  }

  function setText(text) {
    $("lab-text").value = text;
    State.setText(state, text);
    return compute();
  }

  function toggleMask(i) {
    State.toggleMask(state, i);
    compute();
    var again = document.querySelectorAll("#lab-token-view .lab-token")[i];
    if (again && again.focus) again.focus();
  }

  function redrawAttention() {
    results.attention = attentionPanel(results.run);
    views.renderAttention(state, results, env);
  }

  function setHead(h) {
    State.setView(state, { head: h });
    $("lab-head").value = String(h);
    redrawAttention();
  }

  function setSimGroup(k) {
    State.setView(state, { simGroup: k });
    results.similarity = similarityPanel(results.run);
    views.renderSimilarity(state, results, env);
  }

  // --- 처음 한 번: 조작부 만들기 ----------------------------------------------------------

  function buildControls() {
    var el = views.el, model = env.model;
    var layerSel = $("lab-layer"), headSel = $("lab-head");
    for (var l = 0; l < model.numLayers; l++) layerSel.appendChild(el("option", { value: l, text: (l + 1) + "층" }));
    for (var h = 0; h < model.numHeads; h++) headSel.appendChild(el("option", { value: h, text: "헤드 " + h }));
    layerSel.addEventListener("change", function () { State.setView(state, { layer: +layerSel.value }); redrawAttention(); });
    headSel.addEventListener("change", function () { State.setView(state, { head: +headSel.value }); redrawAttention(); });
    Array.prototype.forEach.call(document.querySelectorAll("input[name=lab-unit]"), function (radio) {
      radio.addEventListener("change", function () {
        State.setView(state, { unit: radio.value === "words" && radio.checked ? "words" : "tokens" });
        redrawAttention();
      });
    });
    views.exportButtons($("lab-attention-export"), "attention", "어텐션 열지도");
    views.exportButtons($("lab-grid-export"), "grid", "모든 헤드 그림");
    views.exportButtons($("lab-fill-export"), "fill", "가린 단어 맞히기 그림");
    views.exportButtons($("lab-sim-export"), "similarity", "문맥 유사도 그림");
    $("lab-form").addEventListener("submit", function (ev) {
      ev.preventDefault();
      setText($("lab-text").value);
    });
    $("lab-text").addEventListener("keydown", function (ev) {   // Ctrl/⌘ + Enter로 실행
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); setText($("lab-text").value); }
    });
    $("lab-copy").addEventListener("click", function () {
      var input = $("lab-share");
      var done = function () { views.setStatus("링크를 복사했습니다."); };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(done, function () { input.select(); });
      else { input.focus(); input.select(); try { if (document.execCommand("copy")) done(); } catch (err) { /* 직접 복사 */ } }
    });
    var info = model.info.quantization, c = model.config;
    $("lab-model-info").textContent = "미니 BERT: 층 " + c.num_hidden_layers + "개 · 헤드 " + c.num_attention_heads + "개 · 은닉 " +
      c.hidden_size + " · 어휘 " + c.vocab_size.toLocaleString("ko-KR") + "개 · 최대 " + c.max_position_embeddings + "토큰 · 가중치 " +
      info.bits_per_weight.toFixed(1) + "비트/개(k = " + views.fmt(info.step_divisor, 0) + ") · 불러오기 " + views.fmt(timing.loadMs, 0) + " ms";
    // 테마(밝게/어둡게)가 바뀌면 색을 다시 칠한다
    new MutationObserver(function () { views.resetTheme(); if (results.run) views.renderAll(state, results, env); })
      .observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    var timer = null, lastW = window.innerWidth;
    window.addEventListener("resize", function () {
      if (Math.abs(window.innerWidth - lastW) < 30) return;
      lastW = window.innerWidth;
      clearTimeout(timer);
      timer = setTimeout(function () { views.measureWidth(); if (results.run) views.renderAll(state, results, env); }, 150);
    });
  }

  function init() {
    var root = $("bertlab-lab");
    if (!root) return;
    try {
      if (!window.BertLab || !analysis || !State || !views || !window.BERTLAB_LAB_TOKENIZER || !window.BERTLAB_LAB_WEIGHTS)
        throw new Error("실습실 파일(_static/lab/*.js)을 불러오지 못했습니다. 웹사이트를 다시 빌드했는지 확인하세요.");
      var t0 = now();
      var tokenizer = new BertLab.BertTokenizer(window.BERTLAB_LAB_TOKENIZER);
      var model = new BertLab.BertModel(BertLab.decodeWeights(window.BERTLAB_LAB_WEIGHTS));
      window.BERTLAB_LAB_WEIGHTS.data = null;           // 7 MB짜리 문자열은 이제 필요 없다
      timing.loadMs = now() - t0;
      // 짧은 입력으로 한 번 돌려 두면 자바스크립트 엔진이 계산 루프를 미리 최적화해 첫 문장도 빠르다
      model.forward([tokenizer.clsId, tokenizer.maskId, tokenizer.maskId, tokenizer.maskId, tokenizer.sepId]);
      env = { model: model, tokenizer: tokenizer, defaultText: DEFAULT_TEXT,
              actions: { toggleMask: toggleMask, setText: setText, setHead: setHead, setSimGroup: setSimGroup } };
    } catch (err) {
      var box = $("lab-status");
      box.textContent = "실습실을 시작하지 못했습니다: " + err.message;
      box.classList.add("lab-error");
      box.setAttribute("role", "alert");
      record = { error: "load", message: err.message };
      writeResult();
      return;
    }
    state = State.fromQuery(location.search, DEFAULT_TEXT);
    buildControls();
    $("lab-text").value = state.text;
    root.classList.add("lab-ready");
    window.BertLab.lab.model = env.model;
    window.BertLab.lab.tokenizer = env.tokenizer;
    window.BertLab.lab.state = state;
    compute();
  }

  window.BertLab = window.BertLab || {};
  window.BertLab.lab = {
    compute: function (text) { return setText(text); },
    settled: function () { return wordsDone; },
    toggleMask: function (i) { toggleMask(i); },
    figureBlob: function (key, kind) { return views.figureBlob(key, kind); }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
