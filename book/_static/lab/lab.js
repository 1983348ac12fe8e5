/*
 * 실습실 화면: 문장 → 토큰 → 순전파 → 네 가지 그림(토큰, 어텐션, 가린 단어 맞히기, 문맥 유사도).
 *
 * 안전: 주소(?text=)나 글 상자에서 온 글은 언제나 글자로만 넣는다(textContent, setAttribute, input.value).
 * HTML을 해석하는 DOM API는 하나도 쓰지 않는다. tests/test_lab.py 가 이를 검사한다.
 *
 * 시험용 고리: 계산할 때마다 <script type="application/json" id="lab-result"> 의 textContent에 결과를 JSON으로 쓴다.
 */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  var FONT = "'Noto Sans KR', NanumGothic, 'Nanum Gothic', 'Malgun Gothic', 'Apple SD Gothic Neo', sans-serif";
  var DEFAULT_TEXT = "배 타고 배 먹으니 배 부르다.";
  var lab = {};          // 모델, 토크나이저, 현재 상태
  var $ = function (id) { return document.getElementById(id); };

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
  function now() { return performance.now(); }
  function fmt(x, d) { return Number(x).toFixed(d === undefined ? 2 : d); }
  function pct(p) { return p >= 0.1 ? (p * 100).toFixed(0) + " %" : p >= 0.001 ? (p * 100).toFixed(1) + " %" : "<0.1 %"; }

  // --- 색 (테마의 CSS 변수에서 읽음) --------------------------------------------------------

  function cssVar(name, fallback) {
    var v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    return v || fallback;
  }
  /* 테마 색은 그림을 다시 그리기 시작할 때 한 번만 읽는다(읽을 때마다 스타일을 다시 계산하게 되므로). */
  function theme() {
    return lab.colors || (lab.colors = readTheme());
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

  // --- 토큰과 어절 ------------------------------------------------------------------------

  /* 토큰 i가 어떤 종류인지: special([CLS] 등), mask, unk, cont(## 조각), word(단어의 첫 조각). */
  function tokenKind(i) {
    var r = lab.run, id = r.ids[i];
    if (id === lab.tok.maskId) return "mask";
    if (lab.tok.isSpecial(id)) return id === lab.tok.unkId ? "unk" : "special";
    return lab.tok.isContinuation(r.tokens[i]) ? "cont" : "word";
  }

  /* ## 조각을 앞 조각에 붙여 어절(단어)로 묶는다. 특수 토큰은 혼자 한 묶음. */
  function wordGroups() {
    var r = lab.run, groups = [];
    for (var i = 0; i < r.ids.length; i++) {
      var kind = tokenKind(i), prev = groups[groups.length - 1];
      if (kind === "cont" && prev && !prev.special) {
        prev.members.push(i);
        prev.label += r.tokens[i].slice(lab.tok.prefix.length);
      } else {
        groups.push({ members: [i], label: r.tokens[i], special: kind === "special" || kind === "mask" });
      }
    }
    return groups;
  }

  /* 어절 단위 어텐션: 키 조각은 더하고(J가 받은 몫), 질의 조각은 평균한다(I가 준 몫). 행의 합은 그대로 1. */
  function wordAttention(A, n, groups) {
    var G = groups.length, W = new Float32Array(G * G);
    for (var a = 0; a < G; a++) {
      var qs = groups[a].members;
      for (var b = 0; b < G; b++) {
        var s = 0, ks = groups[b].members;
        for (var qi = 0; qi < qs.length; qi++)
          for (var ki = 0; ki < ks.length; ki++) s += A[qs[qi] * n + ks[ki]];
        W[a * G + b] = s / qs.length;
      }
    }
    return W;
  }

  // --- 그림 1: 토큰 -------------------------------------------------------------------------

  function renderTokens() {
    var box = $("lab-token-view"), r = lab.run;
    clear(box);
    if (!r) return;
    var list = el("ol", { class: "lab-token-list", "aria-label": "토큰 목록" });
    var unk = 0;
    r.tokens.forEach(function (token, i) {
      var kind = tokenKind(i), clicked = lab.masked.has(i), original = r.origTokens[i];
      if (kind === "unk") unk++;
      var label = clicked ? "[MASK]" : token;
      var parts = [
        el("span", { class: "lab-token-index", text: i }),
        el("span", { class: "lab-token-text", text: label }),
        el("span", { class: "lab-token-id", text: r.ids[i] })
      ];
      if (clicked) parts.splice(2, 0, el("span", { class: "lab-token-orig", text: original }));
      if (kind === "unk") parts.push(el("span", { class: "lab-token-flag", "aria-hidden": "true", text: "!" }));
      var desc = i + "번 토큰 " + label + ", id " + r.ids[i];
      if (kind === "unk") desc += ". 어휘에 없어 [UNK]가 되었습니다(원래 글: " + r.words[i] + ")";
      if (kind === "cont") desc += ". 앞 조각에 이어지는 ## 조각입니다";
      var cls = "lab-token lab-token-" + (clicked ? "mask" : kind) + (clicked ? " lab-token-clicked" : "");
      var node;
      var maskable = !lab.tok.isSpecial(r.origIds[i]) || r.origIds[i] === lab.tok.unkId;
      if (maskable && !r.error) {
        node = el("button", {
          type: "button", class: cls, "aria-pressed": clicked ? "true" : "false",
          title: (kind === "unk" ? "'" + r.words[i] + "' 은(는) 어휘에 없어 [UNK]가 되었습니다. " : "") +
            (clicked ? "눌러서 원래 토큰 '" + original + "'(으)로 되돌립니다" : "눌러서 [MASK]로 가리고 다시 계산합니다"),
          "aria-label": desc + (clicked ? ". 가려져 있음, 눌러서 되돌리기" : ". 눌러서 [MASK]로 가리기"),
          onclick: function () { toggleMask(i); }
        }, parts);
      } else {
        node = el("span", { class: cls, title: kind === "unk" ? "'" + r.words[i] + "' 은(는) 어휘에 없어 [UNK]가 되었습니다." : null,
                            "aria-label": desc }, parts);
      }
      list.appendChild(el("li", null, node));
    });
    var M = lab.model.maxLength;
    var summary = "토큰 " + r.ids.length + "개 (이 모델은 최대 " + M + "개)";
    if (unk) summary += " · [UNK] " + unk + "개";
    if (lab.masked.size) summary += " · 눌러서 가린 토큰 " + lab.masked.size + "개";
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

  function toggleMask(i) {
    if (lab.masked.has(i)) lab.masked.delete(i); else lab.masked.add(i);
    compute(lab.text);
    var again = document.querySelectorAll("#lab-token-view .lab-token")[i];
    if (again && again.focus) again.focus();
  }

  // --- 그림 2: 어텐션 ----------------------------------------------------------------------

  function currentMatrix(layer, head) {
    var r = lab.run, n = r.ids.length, A = r.out.attentions[layer].subarray(head * n * n, (head + 1) * n * n);
    if (!lab.view.words) return { A: A, n: n, labels: r.tokens.map(function (t, i) { return lab.masked.has(i) ? "[MASK]" : t; }) };
    var groups = wordGroups();
    return { A: wordAttention(A, n, groups), n: groups.length, labels: groups.map(function (g) { return g.label; }) };
  }

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

  /* 그림에 쓸 폭. 그림을 다시 만들 때마다 재면 브라우저가 그때마다 배치를 새로 계산하므로(수 ms), 처음과 창 크기가
     바뀔 때만 글 상자 묶음(#bertlab-lab)의 폭을 재어 둔다. */
  function measureWidth() {
    var root = $("bertlab-lab"), w = root && root.clientWidth ? root.clientWidth : 700;
    lab.width = Math.max(260, Math.min(w, 900));
  }
  function availableWidth() {
    if (!lab.width) measureWidth();
    return lab.width;
  }

  function renderAttention() {
    var box = $("lab-attention-figure"), gridBox = $("lab-attention-grid"), r = lab.run;
    clear(box); clear(gridBox);
    var table = $("lab-attention-table");
    clear(table);
    if (!r || !r.out) return;
    var layer = lab.view.layer, head = lab.view.head;
    var M = currentMatrix(layer, head);
    var width = availableWidth();
    var guessLeft = M.n > 0 ? 70 : 0;
    var cell = Math.max(3, Math.min(44, Math.floor((width - guessLeft - 20) / M.n)));
    var title = (layer + 1) + "층 · 헤드 " + head + (lab.view.words ? " (어절)" : " (토큰 조각)");
    var fig = heatmapSvg(M, { cell: cell, labels: true, title: title, legend: true, values: true });
    fig.setAttribute("aria-label", title + "의 어텐션 가중치 열지도. 행은 질의(가중치를 주는 토큰), 열은 키(받는 토큰).");
    box.appendChild(fig);
    var readout = el("p", { class: "lab-hover", "aria-hidden": "true", text: "\u00a0" });
    box.appendChild(readout);
    hoverReadout(fig, M, readout);
    lab.figures.attention = { node: fig, name: "attention-L" + layer + "-H" + head + (lab.view.words ? "-words" : "") };
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
    var heads = lab.model.heads, th = theme();
    var cols = width < 520 ? 2 : Math.min(heads, 4);
    var cellSmall = Math.max(2, Math.min(18, Math.floor((width / cols - 16) / M.n)));
    var panels = [], pw = 0, ph = 0;
    for (var h = 0; h < heads; h++) {
      var Mh = currentMatrix(layer, h);
      var p = heatmapSvg(Mh, { cell: cellSmall, labels: false, title: "헤드 " + h, legend: false, raster: true });
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
                                   text: (layer + 1) + "층의 모든 헤드" + (lab.view.words ? " (어절)" : "") }));
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
      g.addEventListener("click", function () { setHead(h); });
      grid.appendChild(g);
    });
    gridBox.appendChild(grid);
    lab.figures.grid = { node: grid, name: "attention-L" + layer + "-all-heads" + (lab.view.words ? "-words" : "") };
  }

  function setHead(h) {
    lab.view.head = h;
    $("lab-head").value = String(h);
    renderAttention();
  }

  // --- 그림 3: 가린 단어 맞히기 -------------------------------------------------------------

  function renderFill() {
    var box = $("lab-fill-figure"), r = lab.run;
    clear(box);
    lab.figures.fill = null;
    if (!r || !r.out) return;
    if (!r.fill.length) {
      box.appendChild(el("p", { class: "lab-hint" }, [
        "이 문장에는 [MASK]가 없습니다. 문장에 [MASK]를 써 넣거나, 위의 토큰을 눌러 가려 보세요. ",
        el("button", { type: "button", class: "lab-link-button", text: "예: 배 타고 배 먹으니 [MASK] 부르다.",
                       onclick: function () { setText("배 타고 배 먹으니 [MASK] 부르다."); } })
      ]));
      return;
    }
    var th = theme(), width = availableWidth(), font = 13;
    var labelW = 0;
    r.fill.forEach(function (f) { f.top.forEach(function (t) { labelW = Math.max(labelW, textWidth(shorten(lab.tok.vocab[t.id], 12), font)); }); });
    labelW = Math.ceil(labelW) + 12;
    var barMax = Math.max(80, Math.min(360, width - labelW - 70)), rowH = 22, top0 = 46, blockH = top0 + 5 * rowH + 10;
    var W = labelW + barMax + 64, H = r.fill.length * blockH + 6;
    var root = svg("svg", { xmlns: SVG_NS, width: W, height: H, viewBox: "0 0 " + W + " " + H, "font-family": FONT, role: "img", class: "lab-svg" });
    var spoken = [];
    root.appendChild(svg("title", { text: "가린 자리마다 모델이 고른 상위 5개 토큰과 확률" }));
    root.appendChild(svg("rect", { x: 0, y: 0, width: W, height: H, fill: th.bg }));
    r.fill.forEach(function (f, m) {
      var y = m * blockH + 4, orig = lab.masked.has(f.position) ? " · 원래 토큰: " + r.origTokens[f.position] : "";
      root.appendChild(svg("text", { x: 4, y: y + 16, "font-size": 14, "font-weight": "bold", fill: th.fg,
                                     text: "[MASK] " + (m + 1) + " (토큰 " + f.position + ")" + orig }));
      // 모델은 [MASK]가 단어의 첫머리인지 이어지는 조각인지 모른다: 확률이 두 쪽에 어떻게 나뉘었는지 함께 보인다
      var contNote = "## 조각(앞말에 붙는 조각)에 간 확률 " + pct(f.contMass) + ", 단어 첫 조각에 " + pct(1 - f.contMass);
      root.appendChild(svg("text", { x: 4, y: y + 34, "font-size": 12, fill: th.muted, text: contNote }));
      var parts = [];
      f.top.forEach(function (t, k) {
        var ty = y + top0 + k * rowH, token = lab.tok.vocab[t.id], bw = Math.max(1, t.prob * barMax);
        root.appendChild(svg("text", { x: labelW - 8, y: ty + 15, "text-anchor": "end", "font-size": font, fill: th.fg, text: shorten(token, 12) }));
        root.appendChild(svg("rect", { x: labelW, y: ty + 3, width: barMax, height: rowH - 6, fill: th.grid }));
        root.appendChild(svg("rect", { x: labelW, y: ty + 3, width: bw, height: rowH - 6, fill: k === 0 ? th.accent : th.bar,
                                       "fill-opacity": k === 0 ? 1 : 0.55 }));
        root.appendChild(svg("text", { x: labelW + barMax + 6, y: ty + 15, "font-size": 12, fill: th.muted, text: pct(t.prob) }));
        parts.push(token + " " + pct(t.prob));
      });
      spoken.push("[MASK] " + (m + 1) + ": " + parts.join(", ") + " (" + contNote + ")");
    });
    root.setAttribute("aria-label", spoken.join(". "));
    box.appendChild(root);
    lab.figures.fill = { node: root, name: "fill-mask" };
  }

  // --- 그림 4: 같은 토큰의 문맥 유사도 (5장) --------------------------------------------------

  /* 단어의 첫 조각이 같은 토큰이 두 번 이상 나오면 한 묶음. 문장 부호만으로 된 토큰은 뺀다. */
  function repeatedGroups() {
    var r = lab.run, byId = new Map();
    for (var i = 0; i < r.ids.length; i++) {
      if (tokenKind(i) !== "word") continue;
      if (/^[\p{P}\p{S}]+$/u.test(r.tokens[i])) continue;
      if (!byId.has(r.ids[i])) byId.set(r.ids[i], []);
      byId.get(r.ids[i]).push(i);
    }
    var groups = [];
    byId.forEach(function (pos, id) { if (pos.length >= 2) groups.push({ id: id, token: lab.tok.vocab[id], positions: pos.slice(0, 6) }); });
    groups.sort(function (a, b) { return b.positions.length - a.positions.length || a.positions[0] - b.positions[0]; });
    return groups;
  }

  function similaritySeries(group) {
    var r = lab.run, H = lab.model.H, series = [];
    var P = group.positions;
    for (var a = 0; a < P.length; a++) for (var b = a + 1; b < P.length; b++) {
      var values = r.out.hidden.map(function (h) { return BertLab.cosine(h, P[a] * H, h, P[b] * H, H); });
      series.push({ a: P[a], b: P[b], values: values });
    }
    return series;
  }

  function renderSimilarity() {
    var box = $("lab-sim-figure"), pick = $("lab-sim-pick"), r = lab.run;
    clear(box); clear(pick);
    lab.figures.similarity = null;
    if (!r || !r.out) return;
    var groups = repeatedGroups();
    r.similarity = [];
    if (!groups.length) {
      box.appendChild(el("p", { class: "lab-hint" }, [
        "이 문장에는 두 번 이상 나오는 단어가 없습니다. ",
        el("button", { type: "button", class: "lab-link-button", text: "예: " + DEFAULT_TEXT, onclick: function () { setText(DEFAULT_TEXT); } })
      ]));
      return;
    }
    if (lab.view.simGroup >= groups.length) lab.view.simGroup = 0;
    if (groups.length > 1) {
      var sel = el("select", { id: "lab-sim-select", onchange: function () { lab.view.simGroup = +this.value; renderSimilarity(); } },
        groups.map(function (g, k) { return el("option", { value: k, text: g.token + " (" + g.positions.length + "번)" }); }));
      sel.value = String(lab.view.simGroup);
      pick.appendChild(el("label", { for: "lab-sim-select", text: "단어 " }));
      pick.appendChild(sel);
    }
    var group = groups[lab.view.simGroup], series = similaritySeries(group);
    r.similarity = series;
    var th = theme(), width = availableWidth(), L = lab.model.L;
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
    lab.figures.similarity = { node: root, name: "similarity-" + group.token };
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

  // --- 내보내기 ---------------------------------------------------------------------------

  function svgText(node) { return new XMLSerializer().serializeToString(node); }

  /* 그림을 SVG 또는 PNG Blob으로 (PNG는 2배 크기로 그린다). */
  function figureBlob(key, kind) {
    var fig = lab.figures[key];
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
    var fig = lab.figures[key];
    if (!fig) return;
    figureBlob(key, kind).then(function (blob) {
      var url = URL.createObjectURL(blob), a = el("a", { href: url, download: "bertlab-" + fig.name + "." + kind });
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 2000);
    }).catch(function (err) { status(err.message, true); });
  }

  function exportButtons(container, key, label) {
    clear(container);
    container.appendChild(el("button", { type: "button", class: "lab-small", text: "SVG로 저장", "aria-label": label + " SVG로 저장",
                                         onclick: function () { download(key, "svg"); } }));
    container.appendChild(el("button", { type: "button", class: "lab-small", text: "PNG로 저장", "aria-label": label + " PNG로 저장",
                                         onclick: function () { download(key, "png"); } }));
  }

  // --- 계산과 상태 ------------------------------------------------------------------------

  function status(message, isError) {
    var box = $("lab-status");
    box.textContent = message;
    box.classList.toggle("lab-error", !!isError);
    box.setAttribute("role", isError ? "alert" : "status");
  }

  function writeResult(obj) {
    var node = $("lab-result");
    if (node) node.textContent = JSON.stringify(obj);
  }

  function shareUrl(text) {
    var base = location.href.split("#")[0].split("?")[0];
    var q = "?text=" + encodeURIComponent(text);
    if (lab.masked.size) q += "&mask=" + Array.from(lab.masked).sort(function (a, b) { return a - b; }).join(",");
    return base + q;
  }

  function setText(text) {
    $("lab-text").value = text;
    lab.masked = new Set();
    compute(text);
  }

  /* 문장 하나를 끝까지: 토큰화 → 순전파 → MLM → 그림 → 결과 기록. */
  function compute(text) {
    var t0 = now();
    lab.text = text;
    var enc = lab.tok.encode(text);
    var ids = enc.ids.slice(), tokens = enc.tokens.slice();
    var valid = new Set();
    lab.masked.forEach(function (i) {
      if (i > 0 && i < ids.length - 1 && (!lab.tok.isSpecial(enc.ids[i]) || enc.ids[i] === lab.tok.unkId)) valid.add(i);
    });
    lab.masked = valid;
    valid.forEach(function (i) { ids[i] = lab.tok.maskId; });
    var r = { text: text, ids: ids, tokens: tokens, origIds: enc.ids, origTokens: enc.tokens, words: enc.words, out: null, fill: [], error: null };
    lab.run = r;
    var result = { text: text, input_ids: ids, tokens: ids.map(function (id, i) { return valid.has(i) ? lab.tok.maskToken : tokens[i]; }),
                   masked: Array.from(valid).sort(function (a, b) { return a - b; }), fill: [], fill_probs: [], ms: 0, error: null };
    $("lab-share").value = shareUrl(text);
    setTimeout(function () {                            // 주소 막대 고치기는 그림을 그린 뒤에
      try { history.replaceState(null, "", shareUrl(text)); } catch (err) { /* file://에서는 막힐 수 있다 */ }
    }, 0);
    if (enc.ids.length <= 2) {
      r.error = "empty";
      result.error = "empty";
      result.message = "문장을 입력하세요. 글 상자가 비어 있거나, 모델이 읽을 글자가 없습니다.";
      status(result.message, true);
    } else if (ids.length > lab.model.maxLength) {
      r.error = "too-long";
      result.error = "too-long";
      result.message = lab.model.tooLongMessage(ids.length) + " 문장을 줄여 주세요(자르지 않고 그대로 알려 드립니다).";
      status(result.message, true);
    } else {
      var f0 = now();
      r.out = lab.model.forward(ids);
      var masks = [];
      ids.forEach(function (id, i) { if (id === lab.tok.maskId) masks.push(i); });
      r.fill = lab.model.fillMask(r.out.hidden[r.out.hidden.length - 1], masks, 5, lab.tok.continuationMask());
      result.ms = now() - f0;
      result.fill = r.fill.map(function (f) { return f.top.map(function (t) { return lab.tok.vocab[t.id]; }); });
      result.fill_probs = r.fill.map(function (f) { return f.top.map(function (t) { return t.prob; }); });
      result.fill_cont = r.fill.map(function (f) { return f.contMass; });
    }
    render();
    result.similarity = (r.similarity || []).map(function (s) { return { a: s.a, b: s.b, cosine: s.values }; });
    result.total_ms = now() - t0;
    result.render_ms = lab.timings || null;
    if (!r.error) status("토큰 " + ids.length + "개 · 계산 " + fmt(result.ms, 0) + " ms · 그림까지 " + fmt(result.total_ms, 0) + " ms");
    if (lab.readyMs === undefined) lab.readyMs = now();
    result.ready_ms = lab.readyMs;
    result.load_ms = lab.loadMs;
    writeResult(result);
    return result;
  }

  function render() {
    lab.timings = null;
    var t0 = now();
    renderTokens();
    var tokensMs = now() - t0;
    var show = !!(lab.run && lab.run.out);
    ["lab-attention-panel", "lab-fill-panel", "lab-sim-panel"].forEach(function (id) { var n = $(id); if (n) n.hidden = !show; });
    if (!show) {
      ["lab-attention-figure", "lab-attention-grid", "lab-attention-table", "lab-fill-figure", "lab-sim-figure", "lab-sim-pick"].forEach(function (id) { clear($(id)); });
      lab.figures = {};
      return;
    }
    var t = now(), timings = lab.timings = { tokens: tokensMs };
    renderAttention(); timings.attention = now() - t; t = now();
    renderFill(); timings.fill = now() - t; t = now();
    renderSimilarity(); timings.similarity = now() - t;
  }

  // --- 처음 한 번: 조작부 만들기 ----------------------------------------------------------

  function buildControls() {
    var L = lab.model.L, heads = lab.model.heads;
    var layerSel = $("lab-layer"), headSel = $("lab-head");
    for (var l = 0; l < L; l++) layerSel.appendChild(el("option", { value: l, text: (l + 1) + "층" }));
    for (var h = 0; h < heads; h++) headSel.appendChild(el("option", { value: h, text: "헤드 " + h }));
    layerSel.addEventListener("change", function () { lab.view.layer = +layerSel.value; renderAttention(); });
    headSel.addEventListener("change", function () { lab.view.head = +headSel.value; renderAttention(); });
    Array.prototype.forEach.call(document.querySelectorAll("input[name=lab-unit]"), function (radio) {
      radio.addEventListener("change", function () { lab.view.words = radio.value === "words" && radio.checked; renderAttention(); });
    });
    exportButtons($("lab-attention-export"), "attention", "어텐션 열지도");
    exportButtons($("lab-grid-export"), "grid", "모든 헤드 그림");
    exportButtons($("lab-fill-export"), "fill", "가린 단어 맞히기 그림");
    exportButtons($("lab-sim-export"), "similarity", "문맥 유사도 그림");
    $("lab-form").addEventListener("submit", function (ev) {
      ev.preventDefault();
      lab.masked = new Set();
      compute($("lab-text").value);
    });
    $("lab-text").addEventListener("keydown", function (ev) {   // Ctrl/⌘ + Enter로 실행
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); lab.masked = new Set(); compute($("lab-text").value); }
    });
    $("lab-copy").addEventListener("click", function () {
      var input = $("lab-share");
      var done = function () { status("링크를 복사했습니다."); };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(done, function () { input.select(); });
      else { input.focus(); input.select(); try { if (document.execCommand("copy")) done(); } catch (err) { /* 직접 복사 */ } }
    });
    var info = lab.model.info.quantization, c = lab.model.config;
    $("lab-model-info").textContent = "미니 BERT: 층 " + c.num_hidden_layers + "개 · 헤드 " + c.num_attention_heads + "개 · 은닉 " +
      c.hidden_size + " · 어휘 " + c.vocab_size.toLocaleString("ko-KR") + "개 · 최대 " + c.max_position_embeddings + "토큰 · 가중치 " +
      info.bits_per_weight.toFixed(1) + "비트/개(k = " + fmt(info.step_divisor, 0) + ") · 불러오기 " + fmt(lab.loadMs, 0) + " ms";
    // 테마(밝게/어둡게)가 바뀌면 색을 다시 칠한다
    new MutationObserver(function () { lab.colors = null; if (lab.run) render(); })
      .observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    var timer = null, lastW = window.innerWidth;
    window.addEventListener("resize", function () {
      if (Math.abs(window.innerWidth - lastW) < 30) return;
      lastW = window.innerWidth;
      clearTimeout(timer);
      timer = setTimeout(function () { measureWidth(); if (lab.run) render(); }, 150);
    });
  }

  function init() {
    var root = $("bertlab-lab");
    if (!root) return;
    try {
      if (!window.BertLab || !window.BERTLAB_LAB_TOKENIZER || !window.BERTLAB_LAB_WEIGHTS)
        throw new Error("실습실 파일(_static/lab/*.js)을 불러오지 못했습니다. 웹사이트를 다시 빌드했는지 확인하세요.");
      var t0 = now();
      lab.tok = new BertLab.BertTokenizer(window.BERTLAB_LAB_TOKENIZER);
      lab.model = new BertLab.BertModel(BertLab.decodeWeights(window.BERTLAB_LAB_WEIGHTS));
      window.BERTLAB_LAB_WEIGHTS.data = null;           // 7 MB짜리 문자열은 이제 필요 없다
      lab.loadMs = now() - t0;
      // 짧은 입력으로 한 번 돌려 두면 자바스크립트 엔진이 계산 루프를 미리 최적화해 첫 문장도 빠르다
      lab.model.forward([lab.tok.clsId, lab.tok.maskId, lab.tok.maskId, lab.tok.maskId, lab.tok.sepId]);
    } catch (err) {
      status("실습실을 시작하지 못했습니다: " + err.message, true);
      writeResult({ error: "load", message: err.message });
      return;
    }
    lab.view = { layer: 0, head: 0, words: false, simGroup: 0 };
    lab.figures = {};
    lab.masked = new Set();
    buildControls();
    var params = new URLSearchParams(location.search);
    var text = params.has("text") ? params.get("text") : DEFAULT_TEXT;
    if (params.has("mask")) {
      params.get("mask").split(",").forEach(function (s) { var i = parseInt(s, 10); if (i >= 0) lab.masked.add(i); });
    }
    $("lab-text").value = text;
    root.classList.add("lab-ready");
    compute(text);
  }

  window.BertLab = window.BertLab || {};
  window.BertLab.lab = { state: lab, compute: function (t) { lab.masked = new Set(); $("lab-text").value = t; return compute(t); },
                         toggleMask: toggleMask, figureBlob: figureBlob };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
