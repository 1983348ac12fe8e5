/*
 * 실습실의 그림: render*(state, results, env) 함수들은 받은 것을 그리기만 한다. 계산은 lab-analysis.js,
 * 읽는 사람이 고른 것은 lab-state.js, 둘을 잇고 사건을 받는 것은 lab.js.
 *
 *   state    lab-state.js의 상태(문장, 가린 자리, 층, 헤드, 단위, 고른 단어)
 *   results  lab.js가 만든 결과: {run (analysis.analyze), attention (analysis.attentionPanel),
 *            similarity (analysis.similarityPanel), words (어절 채우기: {status, candidates, message})}
 *   env      {tokenizer, model, defaultText, actions: {toggleMask(i), setText(text), setHead(h), setSimGroup(k)}}
 *            그림 안의 단추가 누르면 부르는 것은 actions뿐이다.
 *
 * 안전: 주소(?text=)나 글 상자에서 온 글은 언제나 글자로만 넣는다(textContent, setAttribute). HTML을 해석하는 DOM API는
 * 하나도 쓰지 않는다. tests/test_lab.py 가 이를 검사한다.
 */
(function (root) {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  var FONT = "'Noto Sans KR', NanumGothic, 'Nanum Gothic', 'Malgun Gothic', 'Apple SD Gothic Neo', sans-serif";
  var $ = function (id) { return document.getElementById(id); };
  var cache = { colors: null, width: 0 };   // 테마 색과 그림 폭: 다시 잴 때까지 쓴다
  var figures = {};                        // 내보낼 수 있는 그림: 열쇠 → {node, name}

  // --- DOM 도우미 (글자는 언제나 textContent로) -------------------------------------------

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }
  function svg(tag, attrs, children) {
    var node = document.createElementNS(SVG_NS, tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }
  function setAttrs(node, attrs) {
    if (!attrs) return;
    Object.keys(attrs).forEach(function (k) {
      var v = attrs[k];
      if (v === null || v === undefined || v === false) return;
      if (k === "text") node.textContent = String(v);
      else if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : String(v));
    });
  }
  function append(node, children) {
    if (children === null || children === undefined) return;
    (Array.isArray(children) ? children : [children]).forEach(function (c) {
      if (c === null || c === undefined || c === false) return;
      node.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    });
  }
  function clear(node) { while (node && node.firstChild) node.removeChild(node.firstChild); }

  function fmt(x, d) { return Number(x).toFixed(d === undefined ? 2 : d); }
  function pct(p) { return p >= 0.1 ? (p * 100).toFixed(0) + " %" : p >= 0.001 ? (p * 100).toFixed(1) + " %" : "<0.1 %"; }

  // --- 색 (테마의 CSS 변수에서 읽음) --------------------------------------------------------

  function cssVar(name, fallback) {
    var v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    return v || fallback;
  }
  /* 테마 색은 한 번만 읽어 둔다(읽을 때마다 스타일을 다시 계산하게 되므로). 테마가 바뀌면 resetTheme. */
  function theme() {
    return cache.colors || (cache.colors = readTheme());
  }
  function readTheme() {
    return {
      fg: cssVar("--lab-fg", "#1f2328"), bg: cssVar("--lab-bg", "#ffffff"), muted: cssVar("--lab-muted", "#59636e"),
      border: cssVar("--lab-border", "#d0d7de"), accent: cssVar("--lab-accent", "#0b5cad"),
      heat: [cssVar("--lab-heat-0", "#f7fbff"), cssVar("--lab-heat-1", "#6baed6"), cssVar("--lab-heat-2", "#08306b")],
      bar: cssVar("--lab-bar", "#0b5cad"), grid: cssVar("--lab-grid", "#e5e7eb"),
      series: cssVar("--lab-series", "#0b5cad,#d1495b,#2a9d8f,#b8860b,#7b2cbf,#e76f51").split(",").map(function (s) { return s.trim(); })
    };
  }
  function hexRgb(h) {
    h = h.replace("#", "");
    if (h.length === 3) h = h.replace(/./g, function (c) { return c + c; });
    var n = parseInt(h, 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }
  function mix(a, b, t) {
    var x = hexRgb(a), y = hexRgb(b);
    return "rgb(" + [0, 1, 2].map(function (i) { return Math.round(x[i] + (y[i] - x[i]) * t); }).join(",") + ")";
  }
  function heatColor(stops, t) {
    t = Math.max(0, Math.min(1, t));
    return t < 0.5 ? mix(stops[0], stops[1], t * 2) : mix(stops[1], stops[2], t * 2 - 1);
  }
  function resetTheme() { cache.colors = null; }
  function luminance(rgb) {
    var m = /rgb\((\d+),(\d+),(\d+)\)/.exec(rgb), c = m ? [+m[1], +m[2], +m[3]] : hexRgb(rgb);
    return (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255;
  }

  // --- 글자 폭 어림 (SVG 배치용) -----------------------------------------------------------

  function textWidth(s, size) {
    var w = 0;
    for (var ch of s) w += ch.codePointAt(0) > 0x2e80 ? size * 1.0 : size * 0.6;
    return w;
  }
  function shorten(s, max) {
    var chars = Array.from(s);
    return chars.length > max ? chars.slice(0, max - 1).join("") + "…" : s;
  }


  /* 그림에 쓸 폭. 그림을 다시 만들 때마다 재면 브라우저가 그때마다 배치를 새로 계산하므로(수 ms), 처음과 창 크기가
     바뀔 때만(measureWidth) 글 상자 묶음(#bertlab-lab)의 폭을 재어 둔다. */
  function measureWidth() {
    var box = $("bertlab-lab"), w = box && box.clientWidth ? box.clientWidth : 700;
    cache.width = Math.max(260, Math.min(w, 900));
  }
  function availableWidth() {
    if (!cache.width) measureWidth();
    return cache.width;
  }

  // --- 상태 줄 ------------------------------------------------------------------------------

  function setStatus(message, isError) {
    var box = $("lab-status");
    box.textContent = message;
    box.classList.toggle("lab-error", !!isError);
    box.setAttribute("role", isError ? "alert" : "status");
  }

  // --- 열지도 ------------------------------------------------------------------------------

  /* 질의(행) × 키(열) 열지도. opts: cell, labels(보일지), title, values(칸에 숫자) */
  function heatmapSvg(M, opts) {
    var th = theme(), n = M.n, cell = opts.cell, font = Math.max(8, Math.min(13, cell * 0.8));
    var showLabels = opts.labels && cell >= 7;
    var labels = M.labels.map(function (s) { return shorten(s, 10); });
    var left = showLabels ? Math.ceil(Math.max.apply(null, labels.map(function (s) { return textWidth(s, font); })) + 10) : 4;
    var topLab = showLabels ? Math.ceil(Math.max.apply(null, labels.map(function (s) { return textWidth(s, font); })) * 0.72 + 12) : 4;
    var titleH = opts.title ? 24 : 0, legendH = opts.legend ? 34 : 0;
    var W = left + n * cell + 12, H = titleH + topLab + n * cell + legendH + 8;
    var max = 0;
    for (var k = 0; k < n * n; k++) if (M.A[k] > max) max = M.A[k];
    max = max || 1;
    var root = svg("svg", { xmlns: SVG_NS, width: W, height: H, viewBox: "0 0 " + W + " " + H, "font-family": FONT,
                            role: "img", class: "lab-svg" });
    root.appendChild(svg("title", { text: (opts.title || "어텐션") + " (행: 질의, 열: 키)" }));
    root.appendChild(svg("rect", { x: 0, y: 0, width: W, height: H, fill: th.bg }));
    if (opts.title) root.appendChild(svg("text", { x: 4, y: 16, "font-size": 14, "font-weight": "bold", fill: th.fg, text: opts.title }));
    var y0 = titleH + topLab, x0 = left;
    root.setAttribute("data-x0", x0); root.setAttribute("data-y0", y0); root.setAttribute("data-cell", cell);
    var cells = svg("g", { class: "lab-cells" });
    if (opts.raster) cells.appendChild(rasterCells(M, max, th, x0, y0, cell));
    for (var i = 0; i < n && !opts.raster; i++) {
      for (var j = 0; j < n; j++) {
        var v = M.A[i * n + j], color = heatColor(th.heat, v / max);
        cells.appendChild(svg("rect", { x: x0 + j * cell, y: y0 + i * cell, width: cell, height: cell, fill: color }));
        if (opts.values && cell >= 30 && n <= 16) {
          cells.appendChild(svg("text", { x: x0 + j * cell + cell / 2, y: y0 + i * cell + cell / 2 + font * 0.35,
            "text-anchor": "middle", "font-size": Math.min(font, cell * 0.36), fill: luminance(color) > 0.5 ? "#111111" : "#ffffff",
            "pointer-events": "none", text: v >= 0.995 ? "1" : fmt(v, 2).replace(/^0/, "") }));
        }
      }
    }
    root.appendChild(cells);
    root.appendChild(svg("rect", { x: x0, y: y0, width: n * cell, height: n * cell, fill: "none", stroke: th.border }));
    if (showLabels) {
      for (var q = 0; q < n; q++) {
        root.appendChild(svg("text", { x: x0 - 5, y: y0 + q * cell + cell / 2 + font * 0.35, "text-anchor": "end",
                                       "font-size": font, fill: th.fg, text: labels[q] }));
        var cx = x0 + q * cell + cell / 2, cy = y0 - 5;
        root.appendChild(svg("text", { x: cx, y: cy, "font-size": font, fill: th.fg, transform: "rotate(-45 " + cx + " " + cy + ")",
                                       text: labels[q] }));
      }
    }
    if (opts.legend) {
      var ly = y0 + n * cell + 12, lw = Math.min(160, Math.max(90, n * cell)), steps = 24;
      for (var s = 0; s < steps; s++)
        root.appendChild(svg("rect", { x: x0 + s * lw / steps, y: ly, width: lw / steps + 0.5, height: 8, fill: heatColor(th.heat, s / (steps - 1)) }));
      root.appendChild(svg("text", { x: x0, y: ly + 21, "font-size": 11, fill: th.muted, text: "0" }));
      root.appendChild(svg("text", { x: x0 + lw, y: ly + 21, "font-size": 11, fill: th.muted, "text-anchor": "end", text: fmt(max, 2) }));
      root.appendChild(svg("text", { x: x0 + lw + 8, y: ly + 8, "font-size": 11, fill: th.muted, text: "행(질의)마다 합이 1" }));
    }
    return root;
  }

  /* 작은 그림(모든 헤드)은 칸마다 사각형을 만드는 대신 n×n 픽셀 그림 하나로: 요소 수가 줄어 빨리 그린다. */
  function rasterCells(M, max, th, x0, y0, cell) {
    var n = M.n, canvas = document.createElement("canvas");
    canvas.width = n; canvas.height = n;
    var ctx = canvas.getContext("2d"), img = ctx.createImageData(n, n), cache = {};
    for (var k = 0; k < n * n; k++) {
      var key = Math.round(255 * M.A[k] / max);
      var rgb = cache[key] || (cache[key] = /rgb\((\d+),(\d+),(\d+)\)/.exec(heatColor(th.heat, key / 255)).slice(1).map(Number));
      img.data[4 * k] = rgb[0]; img.data[4 * k + 1] = rgb[1]; img.data[4 * k + 2] = rgb[2]; img.data[4 * k + 3] = 255;
    }
    ctx.putImageData(img, 0, 0);
    var url = canvas.toDataURL("image/png");
    var image = svg("image", { x: x0, y: y0, width: n * cell, height: n * cell, preserveAspectRatio: "none",
                               "image-rendering": "optimizeSpeed", style: "image-rendering: pixelated", href: url });
    image.setAttributeNS("http://www.w3.org/1999/xlink", "xlink:href", url);
    return image;
  }

  /* 큰 열지도 위에서 마우스가 가리키는 칸의 값을 그림 아래 한 줄에 보인다(칸마다 title을 다는 것보다 가볍다). */
  function hoverReadout(fig, M, line) {
    fig.addEventListener("mousemove", function (ev) {
      var box = fig.getBoundingClientRect(), vb = fig.viewBox.baseVal, sx = vb.width / box.width;
      var x = (ev.clientX - box.left) * sx, y = (ev.clientY - box.top) * sx;
      var x0 = +fig.getAttribute("data-x0"), y0 = +fig.getAttribute("data-y0"), cell = +fig.getAttribute("data-cell");
      var j = Math.floor((x - x0) / cell), i = Math.floor((y - y0) / cell);
      line.textContent = i >= 0 && j >= 0 && i < M.n && j < M.n
        ? "질의 " + M.labels[i] + " → 키 " + M.labels[j] + ": " + fmt(M.A[i * M.n + j], 3) : "\u00a0";
    });
    fig.addEventListener("mouseleave", function () { line.textContent = "\u00a0"; });
  }

  // --- 그림 1: 토큰 -------------------------------------------------------------------------

  function renderTokens(state, results, env) {
    var box = $("lab-token-view"), run = results.run, tokenizer = env.tokenizer;
    clear(box);
    if (!run) return;
    var list = el("ol", { class: "lab-token-list", "aria-label": "토큰 목록" });
    var unk = 0;
    run.tokens.forEach(function (token, i) {
      var kind = run.kinds[i], clicked = run.masked.indexOf(i) >= 0, word = run.encoding.words[i];
      if (kind === "unk") unk++;
      var label = run.labels[i];
      var parts = [
        el("span", { class: "lab-token-index", text: i }),
        el("span", { class: "lab-token-text", text: label }),
        el("span", { class: "lab-token-id", text: run.ids[i] })
      ];
      if (clicked) parts.splice(2, 0, el("span", { class: "lab-token-orig", text: token }));
      if (kind === "unk") parts.push(el("span", { class: "lab-token-flag", "aria-hidden": "true", text: "!" }));
      var desc = i + "번 토큰 " + label + ", id " + run.ids[i];
      if (kind === "unk") desc += ". 어휘에 없어 [UNK]가 되었습니다(원래 글: " + word + ")";
      if (kind === "cont") desc += ". 앞 조각에 이어지는 ## 조각입니다";
      var cls = "lab-token lab-token-" + (clicked ? "mask" : kind) + (clicked ? " lab-token-clicked" : "");
      var originalId = run.encoding.ids[i], node;
      var maskable = !tokenizer.isSpecial(originalId) || originalId === tokenizer.unkId;
      if (maskable && !run.error) {
        node = el("button", {
          type: "button", class: cls, "aria-pressed": clicked ? "true" : "false",
          title: (kind === "unk" ? "'" + word + "' 은(는) 어휘에 없어 [UNK]가 되었습니다. " : "") +
            (clicked ? "눌러서 원래 토큰 '" + token + "'(으)로 되돌립니다" : "눌러서 [MASK]로 가리고 다시 계산합니다"),
          "aria-label": desc + (clicked ? ". 가려져 있음, 눌러서 되돌리기" : ". 눌러서 [MASK]로 가리기"),
          onclick: function () { env.actions.toggleMask(i); }
        }, parts);
      } else {
        node = el("span", { class: cls, title: kind === "unk" ? "'" + word + "' 은(는) 어휘에 없어 [UNK]가 되었습니다." : null,
                            "aria-label": desc }, parts);
      }
      list.appendChild(el("li", null, node));
    });
    var summary = "토큰 " + run.ids.length + "개 (이 모델은 최대 " + env.model.maxLength + "개)";
    if (unk) summary += " · [UNK] " + unk + "개";
    if (run.masked.length) summary += " · 눌러서 가린 토큰 " + run.masked.length + "개";
    box.appendChild(el("p", { class: "lab-summary", text: summary }));
    box.appendChild(list);
    box.appendChild(el("p", { class: "lab-legend" }, [
      legendChip("special", "[CLS]·[SEP] 특수 토큰"), legendChip("word", "단어의 첫 조각"),
      legendChip("cont", "## 이어지는 조각"), legendChip("unk", "[UNK] 어휘에 없음"), legendChip("mask", "[MASK]")
    ]));
  }
  function legendChip(kind, text) {
    return el("span", { class: "lab-legend-item" }, [el("span", { class: "lab-swatch lab-token-" + kind, "aria-hidden": "true" }), text]);
  }

  // --- 그림 2: 어텐션 ----------------------------------------------------------------------

  function renderAttention(state, results, env) {
    var box = $("lab-attention-figure"), gridBox = $("lab-attention-grid"), table = $("lab-attention-table");
    clear(box); clear(gridBox); clear(table);
    var panel = results.attention;
    if (!panel) return;
    var layer = panel.layer, head = panel.head, words = panel.unit === "words", M = panel.main;
    var width = availableWidth();
    var guessLeft = M.n > 0 ? 70 : 0;
    var cell = Math.max(3, Math.min(44, Math.floor((width - guessLeft - 20) / M.n)));
    var title = (layer + 1) + "층 · 헤드 " + head + (words ? " (어절)" : " (토큰 조각)");
    var fig = heatmapSvg(M, { cell: cell, labels: true, title: title, legend: true, values: true });
    fig.setAttribute("aria-label", title + "의 어텐션 가중치 열지도. 행은 질의(가중치를 주는 토큰), 열은 키(받는 토큰).");
    box.appendChild(fig);
    var readout = el("p", { class: "lab-hover", "aria-hidden": "true", text: "\u00a0" });
    box.appendChild(readout);
    hoverReadout(fig, M, readout);
    figures.attention = { node: fig, name: "attention-L" + layer + "-H" + head + (words ? "-words" : "") };
    // 숫자 표 (펼칠 때 만든다: 긴 문장에서도 가볍게)
    var details = $("lab-attention-details");
    var build = function () {
      clear(table);
      if (!details.open) return;
      var thead = el("tr", null, [el("th", { scope: "col", text: "질의 \\ 키" })].concat(M.labels.map(function (l) { return el("th", { scope: "col", text: l }); })));
      table.appendChild(el("thead", null, thead));
      var body = el("tbody");
      for (var i = 0; i < M.n; i++) {
        var tr = el("tr", null, el("th", { scope: "row", text: M.labels[i] }));
        for (var j = 0; j < M.n; j++) tr.appendChild(el("td", { text: fmt(M.A[i * M.n + j], 3) }));
        body.appendChild(tr);
      }
      table.appendChild(body);
    };
    details.ontoggle = build;
    build();
    // 한 층의 모든 헤드
    var heads = panel.heads.length, th = theme();
    var cols = width < 520 ? 2 : Math.min(heads, 4);
    var cellSmall = Math.max(2, Math.min(18, Math.floor((width / cols - 16) / M.n)));
    var panels = [], pw = 0, ph = 0;
    for (var h = 0; h < heads; h++) {
      var p = heatmapSvg(panel.heads[h], { cell: cellSmall, labels: false, title: "헤드 " + h, legend: false, raster: true });
      panels.push(p);
      pw = Math.max(pw, +p.getAttribute("width")); ph = Math.max(ph, +p.getAttribute("height"));
    }
    var rows = Math.ceil(heads / cols), GW = cols * (pw + 8) + 8, GH = rows * (ph + 8) + 30;
    var grid = svg("svg", { xmlns: SVG_NS, width: GW, height: GH, viewBox: "0 0 " + GW + " " + GH, "font-family": FONT, role: "img",
                            class: "lab-svg lab-grid-svg" });
    grid.setAttribute("aria-label", (layer + 1) + "층의 헤드 " + heads + "개의 어텐션 열지도. 누르면 그 헤드를 크게 봅니다.");
    grid.appendChild(svg("title", { text: (layer + 1) + "층의 모든 헤드" }));
    grid.appendChild(svg("rect", { x: 0, y: 0, width: GW, height: GH, fill: th.bg }));
    grid.appendChild(svg("text", { x: 8, y: 18, "font-size": 14, "font-weight": "bold", fill: th.fg,
                                   text: (layer + 1) + "층의 모든 헤드" + (words ? " (어절)" : "") }));
    panels.forEach(function (p, h) {
      var gx = 8 + (h % cols) * (pw + 8), gy = 28 + Math.floor(h / cols) * (ph + 8);
      var g = svg("g", { transform: "translate(" + gx + " " + gy + ")", class: "lab-grid-panel" + (h === head ? " lab-grid-current" : ""),
                         "data-head": h });
      while (p.firstChild) {
        var c = p.firstChild;
        p.removeChild(c);
        if (c.nodeName !== "title") g.appendChild(c);
      }
      if (h === head) g.appendChild(svg("rect", { x: 1, y: 1, width: +p.getAttribute("width") - 2, height: +p.getAttribute("height") - 2,
                                                   fill: "none", stroke: th.accent, "stroke-width": 2 }));
      g.addEventListener("click", function () { env.actions.setHead(h); });
      grid.appendChild(g);
    });
    gridBox.appendChild(grid);
    figures.grid = { node: grid, name: "attention-L" + layer + "-all-heads" + (words ? "-words" : "") };
  }

  // --- 그림 3: 가린 단어 맞히기와 어절 채우기 ------------------------------------------------

  /* 막대 한 줄: 이름표, 회색 바탕 막대, 확률 막대, 오른쪽 글. */
  function barRow(parent, x, y, labelW, barMax, rowH, label, value, note, strong, th, font) {
    parent.appendChild(svg("text", { x: x + labelW - 8, y: y + 15, "text-anchor": "end", "font-size": font, fill: th.fg, text: label }));
    parent.appendChild(svg("rect", { x: x + labelW, y: y + 3, width: barMax, height: rowH - 6, fill: th.grid }));
    parent.appendChild(svg("rect", { x: x + labelW, y: y + 3, width: Math.max(1, value * barMax), height: rowH - 6,
                                     fill: strong ? th.accent : th.bar, "fill-opacity": strong ? 1 : 0.55 }));
    parent.appendChild(svg("text", { x: x + labelW + barMax + 6, y: y + 15, "font-size": 12, fill: th.muted, text: note }));
  }

  function renderFill(state, results, env) {
    var box = $("lab-fill-figure"), run = results.run, vocab = env.tokenizer.vocab, words = results.words || { status: "off" };
    clear(box);
    figures.fill = null;
    if (!run || !run.out) return;
    if (!run.fill.length) {
      box.appendChild(el("p", { class: "lab-hint" }, [
        "이 문장에는 [MASK]가 없습니다. 문장에 [MASK]를 써 넣거나, 위의 토큰을 눌러 가려 보세요. 어절 하나를 [MASK]로 가리면 어절 채우기의 후보도 나옵니다. ",
        el("button", { type: "button", class: "lab-link-button", text: "예: 배 타고 배 먹으니 [MASK] 부르다.",
                       onclick: function () { env.actions.setText("배 타고 배 먹으니 [MASK] 부르다."); } })
      ]));
      return;
    }
    var th = theme(), width = availableWidth(), font = 13, rowH = 22, noteW = 64, wordNoteW = 0;
    var showWords = words.status === "done" && words.candidates.length > 0;
    // 설명 줄: 나란히 놓을 때는 두 줄로 나눈다
    var contNotes = run.fill.map(function (f) {
      return ["## 조각(앞말에 붙는 조각)에 간 확률 " + pct(f.continuationShare) + ",", "단어 첫 조각에 " + pct(1 - f.continuationShare)];
    });
    var wordTitle = "어절 채우기 (조각 1~3개)", wordNote = ["점수 = 조각마다 로그 확률의 합,", "막대 = e^점수"];
    var widest = function (lines) { return Math.ceil(Math.max.apply(null, lines.map(function (l) { return textWidth(l, 12); }))) + 8; };
    var labelW = 0, wordLabelW = 0;
    run.fill.forEach(function (f) { f.top.forEach(function (t) { labelW = Math.max(labelW, textWidth(shorten(vocab[t.id], 12), font)); }); });
    labelW = Math.ceil(labelW) + 12;
    var wordNotes = showWords ? words.candidates.map(function (c) {
      return fmt(c.score, 2) + (c.pieces.length > 1 ? " · " + c.pieces.join(" + ") : "");
    }) : [];
    if (showWords) {
      words.candidates.forEach(function (c) { wordLabelW = Math.max(wordLabelW, textWidth(shorten(c.word, 12), font)); });
      wordLabelW = Math.ceil(wordLabelW) + 12;
      wordNoteW = Math.max(64, widest(wordNotes) + 4);
    }
    var sizes = function (barMax, twoLines) {
      var join = function (lines) { return twoLines ? lines : [lines.join(" ")]; };
      return { barMax: barMax, twoLines: twoLines,
               blockW: Math.max(labelW + barMax + noteW, Math.max.apply(null, contNotes.map(function (n) { return widest(join(n)); }))),
               wordW: showWords ? Math.max(wordLabelW + barMax + wordNoteW, widest(join(wordNote))) : 0 };
    };
    // 어절 채우기는 한 토큰 예측의 오른쪽에(줄이 맞게), 폭이 모자라면 아래에
    var size = sizes(110, true), side = showWords && size.blockW + 16 + size.wordW <= width;
    if (!side) size = sizes(Math.max(80, Math.min(360, width - labelW - Math.max(70, wordNoteW))), false);
    var lines = function (pair) { return size.twoLines ? pair : [pair.join(" ")]; };
    var barMax = size.barMax, top0 = side ? 60 : 46, blockH = top0 + 5 * rowH + 10;
    var wordX = side ? size.blockW + 16 : 0, wordY = side ? 0 : run.fill.length * blockH + 6;
    var W = side ? wordX + size.wordW : Math.max(size.blockW, size.wordW);
    var H = showWords && !side ? wordY + blockH + 6 : run.fill.length * blockH + 6;
    var root = svg("svg", { xmlns: SVG_NS, width: W, height: H, viewBox: "0 0 " + W + " " + H, "font-family": FONT, role: "img", class: "lab-svg" });
    var noteLines = function (parent, y, pair) {
      lines(pair).forEach(function (line, i) {
        parent.appendChild(svg("text", { x: 4, y: y + 34 + 14 * i, "font-size": 12, fill: th.muted, text: line }));
      });
    };
    var spoken = [];
    root.appendChild(svg("title", { text: "가린 자리마다 모델이 고른 상위 5개 토큰과 확률" + (showWords ? ", 그리고 어절 채우기의 상위 5개 어절" : "") }));
    root.appendChild(svg("rect", { x: 0, y: 0, width: W, height: H, fill: th.bg }));
    run.fill.forEach(function (f, m) {
      var y = m * blockH + 4, orig = run.masked.indexOf(f.position) >= 0 ? " · 원래 토큰: " + run.tokens[f.position] : "";
      root.appendChild(svg("text", { x: 4, y: y + 16, "font-size": 14, "font-weight": "bold", fill: th.fg,
                                     text: "[MASK] " + (m + 1) + " (토큰 " + f.position + ")" + orig }));
      // 모델은 [MASK]가 단어의 첫머리인지 이어지는 조각인지 모른다: 확률이 두 쪽에 어떻게 나뉘었는지 함께 보인다
      noteLines(root, y, contNotes[m]);
      var parts = [];
      f.top.forEach(function (t, k) {
        var token = vocab[t.id];
        barRow(root, 0, y + top0 + k * rowH, labelW, barMax, rowH, shorten(token, 12), t.prob, pct(t.prob), k === 0, th, font);
        parts.push(token + " " + pct(t.prob));
      });
      spoken.push("[MASK] " + (m + 1) + ": " + parts.join(", ") + " (" + contNotes[m].join(" ") + ")");
    });
    if (showWords) {   // [MASK] 하나가 가린 어절을 조각 1~3개로 채운 후보 (한 조각짜리 어절의 막대는 왼쪽의 확률과 같은 눈금)
      var g = svg("g", { class: "lab-fill-words", transform: "translate(" + wordX + " " + (wordY + 4) + ")" });
      g.appendChild(svg("text", { x: 4, y: 16, "font-size": 14, "font-weight": "bold", fill: th.fg, text: wordTitle }));
      noteLines(g, 0, wordNote);
      var wordParts = [];
      words.candidates.forEach(function (c, k) {
        barRow(g, 0, top0 + k * rowH, wordLabelW, barMax, rowH, shorten(c.word, 12), Math.exp(c.score), wordNotes[k], k === 0, th, font);
        wordParts.push(c.word + " 점수 " + fmt(c.score, 2) + " (조각 " + c.pieces.join(" + ") + ")");
      });
      root.appendChild(g);
      spoken.push("어절 채우기: " + wordParts.join(", "));
    }
    root.setAttribute("aria-label", spoken.join(". "));
    box.appendChild(root);
    if (words.status === "pending") box.appendChild(el("p", { class: "lab-hint lab-words-note", text: "어절 채우기의 후보를 계산하는 중입니다…" }));
    else if (words.status === "error" || words.status === "off") {
      if (words.message) {
        var text = /^어절 채우기/.test(words.message) ? words.message : "어절 채우기: " + words.message;
        box.appendChild(el("p", { class: "lab-hint lab-words-note", text: text }));
      }
    } else if (words.status === "done" && words.ms !== undefined) {
      box.appendChild(el("p", { class: "lab-hint lab-words-note", text: "어절 채우기: 모델을 " + words.forwards + "번 돌려 " + fmt(words.ms, 0) + " ms" }));
    }
    figures.fill = { node: root, name: "fill-mask" };
  }

  // --- 그림 4: 같은 토큰의 문맥 유사도 (5장) --------------------------------------------------

  function renderSimilarity(state, results, env) {
    var box = $("lab-sim-figure"), pick = $("lab-sim-pick"), panel = results.similarity;
    clear(box); clear(pick);
    figures.similarity = null;
    if (!panel) return;
    var groups = panel.groups;
    if (!groups.length) {
      box.appendChild(el("p", { class: "lab-hint" }, [
        "이 문장에는 두 번 이상 나오는 단어가 없습니다. ",
        el("button", { type: "button", class: "lab-link-button", text: "예: " + env.defaultText,
                       onclick: function () { env.actions.setText(env.defaultText); } })
      ]));
      return;
    }
    if (groups.length > 1) {
      var sel = el("select", { id: "lab-sim-select", onchange: function () { env.actions.setSimGroup(+this.value); } },
        groups.map(function (g, k) { return el("option", { value: k, text: g.token + " (" + g.positions.length + "번)" }); }));
      sel.value = String(panel.index);
      pick.appendChild(el("label", { for: "lab-sim-select", text: "단어 " }));
      pick.appendChild(sel);
    }
    var group = groups[panel.index], series = panel.series;
    var th = theme(), width = availableWidth(), L = env.model.numLayers;
    var W = Math.max(300, Math.min(640, width)), shown = Math.min(series.length, 9);
    var cols = W < 460 ? 2 : 3, rowsL = Math.ceil(shown / cols), ml = 48, mr = 16, mt = 34, mb = 44 + rowsL * 18;
    var H = 250 + mb, k;
    var lo = 1;
    series.forEach(function (se) { se.values.forEach(function (v) { lo = Math.min(lo, v); }); });
    lo = Math.min(0.5, Math.floor(lo * 10) / 10);
    var px = function (l) { return ml + (W - ml - mr) * (L ? l / L : 0.5); };
    var py = function (v) { return mt + (H - mt - mb) * (1 - (v - lo) / (1 - lo)); };
    var root = svg("svg", { xmlns: SVG_NS, width: W, height: H, viewBox: "0 0 " + W + " " + H, "font-family": FONT, role: "img", class: "lab-svg" });
    var title = "'" + group.token + "' " + group.positions.length + "번 사이의 코사인 유사도";
    root.appendChild(svg("title", { text: title }));
    root.appendChild(svg("rect", { x: 0, y: 0, width: W, height: H, fill: th.bg }));
    root.appendChild(svg("text", { x: 6, y: 18, "font-size": 14, "font-weight": "bold", fill: th.fg, text: title }));
    for (var t = 0; t <= 5; t++) {
      var v = lo + (1 - lo) * t / 5, yy = py(v);
      root.appendChild(svg("line", { x1: ml, x2: W - mr, y1: yy, y2: yy, stroke: th.grid }));
      root.appendChild(svg("text", { x: ml - 6, y: yy + 4, "text-anchor": "end", "font-size": 11, fill: th.muted, text: fmt(v, 2) }));
    }
    for (var l = 0; l <= L; l++) {
      root.appendChild(svg("text", { x: px(l), y: H - mb + 16, "text-anchor": "middle", "font-size": 11, fill: th.muted, text: l }));
    }
    root.appendChild(svg("text", { x: (ml + W - mr) / 2, y: H - mb + 32, "text-anchor": "middle", "font-size": 12, fill: th.fg,
                                   text: "hidden_states 번호 (0 = 임베딩 출력, ℓ = ℓ층의 출력)" }));
    var spoken = [];
    series.forEach(function (se, k2) {
      var color = th.series[k2 % th.series.length];
      var d = se.values.map(function (v, l2) { return (l2 ? "L" : "M") + px(l2).toFixed(1) + " " + py(v).toFixed(1); }).join(" ");
      root.appendChild(svg("path", { d: d, fill: "none", stroke: color, "stroke-width": 2.5 }));
      se.values.forEach(function (v, l2) {
        var dot = svg("circle", { cx: px(l2), cy: py(v), r: 3.5, fill: color });
        dot.appendChild(svg("title", { text: "토큰 " + se.a + "–" + se.b + ", hidden_states[" + l2 + "]: " + fmt(v, 3) }));
        root.appendChild(dot);
      });
      var lx = ml + (k2 % cols) * ((W - ml - mr) / cols), ly = H - mb + 54 + Math.floor(k2 / cols) * 18;
      if (k2 < shown) {
        root.appendChild(svg("line", { x1: lx, x2: lx + 18, y1: ly - 4, y2: ly - 4, stroke: color, "stroke-width": 3 }));
        root.appendChild(svg("text", { x: lx + 22, y: ly, "font-size": 12, fill: th.fg,
                                       text: group.token + " " + se.a + " ↔ " + se.b }));
      }
      spoken.push("토큰 " + se.a + "–" + se.b + ": " + se.values.map(function (v) { return fmt(v, 2); }).join(", "));
    });
    root.setAttribute("aria-label", title + ". " + spoken.join(". "));
    box.appendChild(root);
    figures.similarity = { node: root, name: "similarity-" + group.token };
    // 숫자 표
    var tbl = el("table", { class: "lab-table" });
    var head = el("tr", null, [el("th", { scope: "col", text: "쌍 \\ hidden_states" })]);
    for (k = 0; k <= L; k++) head.appendChild(el("th", { scope: "col", text: k }));
    tbl.appendChild(el("thead", null, head));
    var body = el("tbody");
    series.forEach(function (se) {
      var tr = el("tr", null, el("th", { scope: "row", text: group.token + " " + se.a + " ↔ " + se.b }));
      se.values.forEach(function (v) { tr.appendChild(el("td", { text: fmt(v, 3) })); });
      body.appendChild(tr);
    });
    tbl.appendChild(body);
    box.appendChild(el("div", { class: "lab-table-wrap" }, tbl));
  }

  // --- 모두 그리기 ---------------------------------------------------------------------------

  /* 네 그림을 차례로. 그림마다 걸린 시간(ms)을 돌려준다(결과 JSON의 render_ms). */
  function renderAll(state, results, env) {
    var now = function () { return performance.now(); }, t = now();
    renderTokens(state, results, env);
    var timings = { tokens: now() - t };
    var show = !!(results.run && results.run.out);
    ["lab-attention-panel", "lab-fill-panel", "lab-sim-panel"].forEach(function (id) { var n = $(id); if (n) n.hidden = !show; });
    if (!show) {
      ["lab-attention-figure", "lab-attention-grid", "lab-attention-table", "lab-fill-figure", "lab-sim-figure", "lab-sim-pick"]
        .forEach(function (id) { clear($(id)); });
      Object.keys(figures).forEach(function (key) { delete figures[key]; });
      return null;
    }
    t = now(); renderAttention(state, results, env); timings.attention = now() - t;
    t = now(); renderFill(state, results, env); timings.fill = now() - t;
    t = now(); renderSimilarity(state, results, env); timings.similarity = now() - t;
    return timings;
  }

  // --- 내보내기 ---------------------------------------------------------------------------

  function svgText(node) { return new XMLSerializer().serializeToString(node); }

  /* 그림을 SVG 또는 PNG Blob으로 (PNG는 2배 크기로 그린다). */
  function figureBlob(key, kind) {
    var fig = figures[key];
    if (!fig) return Promise.reject(new Error("그림이 없습니다: " + key));
    var text = svgText(fig.node);
    if (kind === "svg") return Promise.resolve(new Blob([text], { type: "image/svg+xml;charset=utf-8" }));
    return new Promise(function (resolve, reject) {
      var img = new Image(), scale = 2;
      img.onload = function () {
        var canvas = document.createElement("canvas");
        canvas.width = Math.ceil(+fig.node.getAttribute("width") * scale);
        canvas.height = Math.ceil(+fig.node.getAttribute("height") * scale);
        var ctx = canvas.getContext("2d");
        ctx.scale(scale, scale);
        ctx.drawImage(img, 0, 0);
        try {
          canvas.toBlob(function (b) { b ? resolve(b) : reject(new Error("PNG를 만들지 못했습니다.")); }, "image/png");
        } catch (err) { reject(err); }
      };
      img.onerror = function () { reject(new Error("그림을 PNG로 바꾸지 못했습니다.")); };
      img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(text);
    });
  }

  function download(key, kind) {
    var fig = figures[key];
    if (!fig) return;
    figureBlob(key, kind).then(function (blob) {
      var url = URL.createObjectURL(blob), a = el("a", { href: url, download: "bertlab-" + fig.name + "." + kind });
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 2000);
    }).catch(function (err) { setStatus(err.message, true); });
  }

  function exportButtons(container, key, label) {
    clear(container);
    container.appendChild(el("button", { type: "button", class: "lab-small", text: "SVG로 저장", "aria-label": label + " SVG로 저장",
                                         onclick: function () { download(key, "svg"); } }));
    container.appendChild(el("button", { type: "button", class: "lab-small", text: "PNG로 저장", "aria-label": label + " PNG로 저장",
                                         onclick: function () { download(key, "png"); } }));
  }

  root.BertLab = root.BertLab || {};
  root.BertLab.views = {
    el: el, clear: clear, fmt: fmt, setStatus: setStatus, resetTheme: resetTheme, measureWidth: measureWidth,
    renderTokens: renderTokens, renderAttention: renderAttention, renderFill: renderFill, renderSimilarity: renderSimilarity,
    renderAll: renderAll, exportButtons: exportButtons, figureBlob: figureBlob
  };
})(typeof window !== "undefined" ? window : globalThis);
