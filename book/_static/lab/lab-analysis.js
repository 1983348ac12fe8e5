/*
 * 실습실의 계산: 화면이 보여 주는 숫자를 모두 여기서 만든다. DOM을 쓰지 않으므로 node에서도 돌고,
 * tests/test_lab.py 가 tests/lab_runner.js 로 이 함수들의 답을 파이썬(transformers + numpy)의 계산과 견준다.
 *
 *   analyze           문장 → 토큰(눌러서 가린 자리 반영) → 순전파 → 가린 단어 맞히기, 토큰 종류, 어절 묶음, 되풀이 단어
 *   tokenKinds        토큰마다 special / mask / unk / cont(## 조각) / word(단어 첫 조각)
 *   wordGroups        ## 조각을 앞 조각에 붙여 어절로 묶기
 *   wordAttention     어절 단위 어텐션(키 조각은 더하고 질의 조각은 평균)
 *   attentionMatrix   층·헤드·단위(토큰/어절)에 맞는 열지도 행렬과 이름표 (attentionPanel: 한 층의 모든 헤드)
 *   repeatedWords     두 번 이상 나오는 단어 첫 조각(5장의 '배')
 *   similaritySeries  그 토큰들 사이의 코사인 유사도를 hidden_states마다 (similarityPanel: 고른 단어의 것)
 *   fillMask          [MASK]마다 상위 k개 토큰과 확률, 그 자리의 확률 가운데 ## 조각에 간 몫
 *   fillWord          어절 채우기: bertlab.models.fill_word 와 같은 빔 탐색과 점수
 *
 * 모델(bert-model.js)과 토크나이저(bert-tokenizer.js)는 인자로 받는다.
 */
(function (root) {
  "use strict";

  var PUNCT_OR_SYMBOL_ONLY = /^[\p{P}\p{S}]+$/u;
  var LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;         // 파이썬 str.isalnum()의 글자(문자 L*, 숫자 N*)
  var EMPTY_MESSAGE = "문장을 입력하세요. 글 상자가 비어 있거나, 모델이 읽을 글자가 없습니다.";

  // --- 토큰과 어절 ------------------------------------------------------------------------

  /* 토큰 i의 종류: special([CLS] 등), mask, unk, cont(## 조각), word(단어의 첫 조각).
     ids는 가린 뒤의 id, tokens는 가리기 전의 토큰 글자(눌러서 가린 자리도 원래 글자). */
  function tokenKinds(ids, tokens, tokenizer) {
    return ids.map(function (id, i) {
      if (id === tokenizer.maskId) return "mask";
      if (tokenizer.isSpecial(id)) return id === tokenizer.unkId ? "unk" : "special";
      return tokenizer.isContinuation(tokens[i]) ? "cont" : "word";
    });
  }

  /* ## 조각을 앞 조각에 붙여 어절(단어)로 묶는다. 특수 토큰과 [MASK]는 혼자 한 묶음.
     [{members: 토큰 번호들, label: 합친 글자, special}] */
  function wordGroups(tokens, kinds, prefix) {
    var groups = [];
    for (var i = 0; i < tokens.length; i++) {
      var previous = groups[groups.length - 1];
      if (kinds[i] === "cont" && previous && !previous.special) {
        previous.members.push(i);
        previous.label += tokens[i].slice(prefix.length);
      } else {
        groups.push({ members: [i], label: tokens[i], special: kinds[i] === "special" || kinds[i] === "mask" });
      }
    }
    return groups;
  }

  /* 어절 단위 어텐션: 어절 J가 받은 몫은 J의 키 조각들을 더하고, 어절 I가 준 몫은 I의 질의 조각들에 대해 평균한다.
     attention: n×n (행 = 질의), 돌려주는 것: G×G. 행의 합은 그대로 1. */
  function wordAttention(attention, n, groups) {
    var count = groups.length, out = new Float32Array(count * count);
    for (var a = 0; a < count; a++) {
      var queries = groups[a].members;
      for (var b = 0; b < count; b++) {
        var sum = 0, keys = groups[b].members;
        for (var qi = 0; qi < queries.length; qi++)
          for (var ki = 0; ki < keys.length; ki++) sum += attention[queries[qi] * n + keys[ki]];
        out[a * count + b] = sum / queries.length;
      }
    }
    return out;
  }

  /* 열지도 하나의 자료: {A: 행렬(행 = 질의), n: 한 변의 칸 수, labels}. unit: "tokens" 또는 "words". */
  function attentionMatrix(run, layer, head, unit) {
    var n = run.ids.length, weights = run.out.attentions[layer].subarray(head * n * n, (head + 1) * n * n);
    if (unit !== "words") return { A: weights, n: n, labels: run.labels };
    return { A: wordAttention(weights, n, run.groups), n: run.groups.length,
             labels: run.groups.map(function (g) { return g.label; }) };
  }

  /* 어텐션 그림 전체의 자료: 큰 열지도(main)와 그 층의 모든 헤드(heads). */
  function attentionPanel(run, layer, head, unit, numHeads) {
    var heads = [];
    for (var h = 0; h < numHeads; h++) heads.push(h === head ? null : attentionMatrix(run, layer, h, unit));
    var main = attentionMatrix(run, layer, head, unit);
    heads[head] = main;
    return { layer: layer, head: head, unit: unit, main: main, heads: heads };
  }

  // --- 같은 단어, 다른 문맥 (5장) ------------------------------------------------------------

  /* 단어의 첫 조각이 같은 토큰이 두 번 이상 나오면 한 묶음(앞의 여섯 자리까지). 문장 부호·기호만으로 된 토큰은 뺀다.
     많이 나온 것부터, 같으면 먼저 나온 것부터. [{id, token, positions}] */
  function repeatedWords(ids, tokens, kinds, vocab) {
    var byId = new Map();
    for (var i = 0; i < ids.length; i++) {
      if (kinds[i] !== "word" || PUNCT_OR_SYMBOL_ONLY.test(tokens[i])) continue;
      if (!byId.has(ids[i])) byId.set(ids[i], []);
      byId.get(ids[i]).push(i);
    }
    var groups = [];
    byId.forEach(function (positions, id) {
      if (positions.length >= 2) groups.push({ id: id, token: vocab[id], positions: positions.slice(0, 6) });
    });
    groups.sort(function (a, b) { return b.positions.length - a.positions.length || a.positions[0] - b.positions[0]; });
    return groups;
  }

  /* 두 벡터의 코사인 유사도: a[aStart..], b[bStart..]의 size칸. */
  function cosine(a, aStart, b, bStart, size) {
    var dot = 0, normA = 0, normB = 0;
    for (var i = 0; i < size; i++) {
      dot += a[aStart + i] * b[bStart + i]; normA += a[aStart + i] * a[aStart + i]; normB += b[bStart + i] * b[bStart + i];
    }
    return dot / (Math.sqrt(normA) * Math.sqrt(normB) || 1);
  }

  /* positions의 두 토큰씩(a < b) hidden_states마다 코사인 유사도. [{a, b, values: [numLayers+1개]}] */
  function similaritySeries(hidden, hiddenSize, positions) {
    var series = [];
    for (var x = 0; x < positions.length; x++) {
      for (var y = x + 1; y < positions.length; y++) {
        var a = positions[x], b = positions[y];
        series.push({ a: a, b: b, values: hidden.map(function (h) { return cosine(h, a * hiddenSize, h, b * hiddenSize, hiddenSize); }) });
      }
    }
    return series;
  }

  /* 유사도 그림의 자료: 되풀이 단어 목록, 고른 단어의 번호(범위 밖이면 0), 그 단어의 유사도 계열. */
  function similarityPanel(run, groupIndex, hiddenSize) {
    var groups = run.repeated, index = groupIndex >= 0 && groupIndex < groups.length ? groupIndex : 0;
    var series = groups.length ? similaritySeries(run.out.hidden, hiddenSize, groups[index].positions) : [];
    return { groups: groups, index: index, series: series };
  }

  // --- 가린 단어 맞히기 ----------------------------------------------------------------------

  /* 위치마다 상위 k개 {id, logit, prob}(확률은 어휘 전체에 대한 소프트맥스)와
     continuationShare: 그 자리의 확률 가운데 ## 조각(continuation의 1인 id)에 간 몫. */
  function fillMask(model, lastHidden, positions, k, continuation) {
    k = k || 5;
    return positions.map(function (position) {
      var logits = model.mlmLogits(lastHidden, position), max = -Infinity, i;
      for (i = 0; i < logits.length; i++) if (logits[i] > max) max = logits[i];
      var total = 0, continuationTotal = 0;
      for (i = 0; i < logits.length; i++) {
        var e = Math.exp(logits[i] - max);
        total += e;
        if (continuation && continuation[i]) continuationTotal += e;
      }
      var top = topIndices(logits, k);
      var result = {
        position: position,
        top: top.map(function (id) { return { id: id, logit: logits[id], prob: Math.exp(logits[id] - max) / total }; })
      };
      if (continuation) result.continuationShare = continuationTotal / total;
      return result;
    });
  }

  /* 값이 큰 차례로 k개의 번호. 값이 같으면 번호가 작은 것이 먼저(작은 삽입 정렬). */
  function topIndices(values, k) {
    var top = [];
    for (var i = 0; i < values.length; i++) {
      if (top.length < k || values[i] > values[top[top.length - 1]]) {
        var at = top.length;
        while (at > 0 && values[top[at - 1]] < values[i]) at--;
        top.splice(at, 0, i);
        if (top.length > k) top.pop();
      }
    }
    return top;
  }

  // --- 문장 하나 분석 ------------------------------------------------------------------------

  /* 눌러서 가린 자리(clicked: 토큰 번호들) 가운데 가릴 수 있는 것만: [CLS]·[SEP]과 특수 토큰은 빼고 [UNK]는 된다. */
  function validClickedMasks(encoding, clicked, tokenizer) {
    var n = encoding.ids.length;
    return Array.from(clicked || []).filter(function (i, at, all) {
      return all.indexOf(i) === at && i > 0 && i < n - 1 &&
        (!tokenizer.isSpecial(encoding.ids[i]) || encoding.ids[i] === tokenizer.unkId);
    }).sort(function (a, b) { return a - b; });
  }

  /*
   * 문장 하나를 끝까지: 토큰화 → 눌러서 가린 자리 반영 → 순전파 → 가린 단어 맞히기, 그리고 그림에 쓸 토큰 종류·어절 묶음·되풀이 단어.
   * 돌려주는 run: {text, encoding, ids, tokens(가리기 전), labels(가린 자리는 [MASK]), masked, kinds, groups, repeated,
   *               out(순전파: hidden, attentions), fill, error("empty" | "too-long" | null), message, ms(순전파 + MLM)}.
   */
  function analyze(model, tokenizer, text, clicked) {
    var encoding = tokenizer.encode(text);
    var masked = validClickedMasks(encoding, clicked, tokenizer), ids = encoding.ids.slice();
    masked.forEach(function (i) { ids[i] = tokenizer.maskId; });
    var kinds = tokenKinds(ids, encoding.tokens, tokenizer);
    var run = {
      text: text, encoding: encoding, ids: ids, tokens: encoding.tokens, masked: masked, kinds: kinds,
      labels: encoding.tokens.map(function (t, i) { return masked.indexOf(i) >= 0 ? tokenizer.maskToken : t; }),
      groups: wordGroups(encoding.tokens, kinds, tokenizer.prefix), repeated: [], out: null, fill: [], error: null, message: null, ms: 0
    };
    if (encoding.ids.length <= 2) {
      run.error = "empty";
      run.message = EMPTY_MESSAGE;
    } else if (ids.length > model.maxLength) {
      run.error = "too-long";
      run.message = model.tooLongMessage(ids.length) + " 문장을 줄여 주세요(자르지 않고 그대로 알려 드립니다).";
    } else {
      var clock = typeof performance !== "undefined" ? performance : Date, start = clock.now();
      run.out = model.forward(ids);
      var positions = [];
      ids.forEach(function (id, i) { if (id === tokenizer.maskId) positions.push(i); });
      run.fill = fillMask(model, run.out.hidden[run.out.hidden.length - 1], positions, 5, tokenizer.continuationMask());
      run.ms = clock.now() - start;                       // 순전파 + MLM
      run.repeated = repeatedWords(ids, encoding.tokens, kinds, tokenizer.vocab);
    }
    return run;
  }

  // --- 어절 채우기 (bertlab.models.fill_word 와 같은 계산) -------------------------------------

  /* 단어 첫머리 조각과 ## 조각의 id(작은 것부터): 글자나 숫자가 든 일반 토큰만(특수 토큰, [unused…], 문장 부호 제외).
     bertlab.models._piece_sets 와 같은 규칙이고, tests/test_lab.py 가 두 목록이 같은지 확인한다. */
  function wordPieceSets(tokenizer) {
    if (tokenizer._wordPieceSets) return tokenizer._wordPieceSets;
    var first = [], continuation = [], prefix = tokenizer.prefix;
    tokenizer.vocab.forEach(function (token, id) {
      if (tokenizer.isSpecial(id) || token.startsWith("[unused")) return;
      var isContinuation = token.startsWith(prefix), body = isContinuation ? token.slice(prefix.length) : token;
      if (!body || !LETTER_OR_NUMBER.test(body)) return;
      (isContinuation ? continuation : first).push(id);
    });
    tokenizer._wordPieceSets = { first: Int32Array.from(first), continuation: Int32Array.from(continuation) };
    return tokenizer._wordPieceSets;
  }

  function wordError(message, code) {
    var err = new Error(message);
    err.code = code;
    return err;
  }

  /* 어절 채우기를 할 수 없는 문장이면 그 까닭(한국어, 파이썬 fill_word의 ValueError와 같은 조건과 말), 아니면 null. */
  function wordBlankProblem(text, maskToken) {
    if (typeof text !== "string" || !text.trim()) return { code: "empty", message: "문장이 비어 있습니다: 어절 하나를 " + maskToken + "로 가린 문장을 주세요." };
    var count = text.split(maskToken).length - 1;
    if (count !== 1) {
      var what = count === 0 ? "없습니다" : count + "개 있습니다";
      return { code: count === 0 ? "no-mask" : "many-masks",
               message: "어절 채우기는 " + maskToken + "가 정확히 하나인 문장을 받습니다(" + maskToken + "가 " + what + "). 어절 하나를 " +
                        maskToken + "로 가려 주세요." };
    }
    var parts = text.split(maskToken);
    // 파이썬 re의 '$'는 끝의 줄바꿈 하나 앞에서도 맞으므로 \n?$
    if (/[가-힣A-Za-z0-9]\n?$/.test(parts[0]) || /^[가-힣A-Za-z0-9]/.test(parts[1])) {
      return { code: "glued",
               message: maskToken + "가 어절 하나를 통째로 가려야 합니다: '" + maskToken + "를'처럼 조사나 글자를 붙이지 말고 '" + maskToken +
                        "' 앞뒤를 띄우세요 (붙여 쓰면 뒤 글자가 단어 첫머리 조각으로 잘려 모델이 모르는 입력이 됩니다)." };
    }
    return null;
  }

  /* 로그 소프트맥스: logits[i] - max - log Σ exp(logits - max). */
  function logSoftmax(logits) {
    var max = -Infinity, i, total = 0;
    for (i = 0; i < logits.length; i++) if (logits[i] > max) max = logits[i];
    for (i = 0; i < logits.length; i++) total += Math.exp(logits[i] - max);
    var shift = max + Math.log(total), out = new Float64Array(logits.length);
    for (i = 0; i < logits.length; i++) out[i] = logits[i] - shift;
    return out;
  }

  /*
   * [MASK] 하나가 어절 하나를 통째로 가린 문장에서, 그 자리에 들어갈 어절 상위 k개: [{word, score, pieces: [토큰…]}].
   *
   * bertlab.models.fill_word(model, tokenizer, text, k)와 같은 계산이다.
   *   - 조각 수 n = 1…maxPieces(3)마다 빈칸을 [MASK] n개(띄어 씀)로 바꾸고, 왼쪽 [MASK]부터 한 조각씩 빔 탐색으로 채운다.
   *     첫 조각은 단어 첫머리 조각에서, 나머지는 ## 조각에서 고른다(wordPieceSets).
   *   - 단계마다 빔(beam = 8개)의 후보를 하나씩 모델에 넣고(앞 조각은 채우고, 그 자리와 뒤 자리는 [MASK]), 그 자리의 로그 확률이
   *     큰 beam개를 남긴다(앞 조각까지의 합 + 이 조각의 로그 확률로 고른다: 파이썬 fill_word의 topk와 같음). 동점이면 (빔 순서, 조각 id 순서)가 앞선 것(파이썬 topk의 평평한 번호 순서).
   *   - 점수: PLL-word-l2r, 조각마다 로그 확률의 합(score: "mean"이면 조각 수로 나눈 값).
   *   - 같은 어절이 두 가지로 잘려 나오면 점수가 높은 쪽을 쓴다(처음 나온 자리는 그대로). 점수가 높은 순서,
   *     같으면 처음 나온 순서(파이썬 sorted의 안정 정렬)로 k개.
   * options: {maxPieces: 3, beam: 8, score: "sum", stats: 빈 객체를 주면 stats.forwards에 모델을 돌린 횟수}.
   * 문장에 [MASK]가 없거나 둘 이상이면, 조사가 붙어 있으면, 비어 있거나 너무 길면 한국어 메시지의 Error(err.code)를 던진다.
   */
  function fillWord(model, tokenizer, text, k, options) {
    k = k || 5;
    options = options || {};
    var maxPieces = options.maxPieces || 3, beamWidth = options.beam || 8, scoring = options.score || "sum";
    var stats = options.stats || {};                      // stats.forwards: 모델을 돌린 횟수
    stats.forwards = 0;
    var mask = tokenizer.maskToken, problem = wordBlankProblem(text, mask);
    if (problem) throw wordError(problem.message, problem.code);
    var parts = text.split(mask), sets = wordPieceSets(tokenizer), vocab = tokenizer.vocab, prefix = tokenizer.prefix;
    var best = new Map();                                  // 어절 → {word, score, pieces}, 처음 넣은 순서를 지킨다
    for (var n = 1; n <= maxPieces; n++) {
      var blanks = [];
      for (var b = 0; b < n; b++) blanks.push(mask);
      var ids = tokenizer.encode(parts[0] + blanks.join(" ") + parts[1]).ids;
      if (ids.length > model.maxLength) throw wordError(model.tooLongMessage(ids.length), "too-long");
      var slots = [];
      ids.forEach(function (id, i) { if (id === tokenizer.maskId) slots.push(i); });
      var beams = [{ pieces: [], total: 0 }];
      for (var step = 0; step < slots.length; step++) {
        var allowed = step === 0 ? sets.first : sets.continuation, candidates = [];   // {value, beam, id}, 큰 것부터 beamWidth개
        for (var beamIndex = 0; beamIndex < beams.length; beamIndex++) {
          var input = ids.slice();
          beams[beamIndex].pieces.forEach(function (id, s) { input[slots[s]] = id; });
          var logp = logSoftmax(model.mlmLogits(model.lastHiddenAt(input, slots[step]), 0));
          stats.forwards++;
          for (var a = 0; a < allowed.length; a++) {
            var value = beams[beamIndex].total + logp[allowed[a]];   // 지금까지의 합 + 이 조각의 로그 확률
            if (candidates.length === beamWidth && !(value > candidates[beamWidth - 1].value)) continue;
            var at = candidates.length;                    // 같은 값이면 먼저 본 것(평평한 번호가 작은 것)이 앞
            while (at > 0 && candidates[at - 1].value < value) at--;
            candidates.splice(at, 0, { value: value, beam: beamIndex, id: allowed[a] });
            if (candidates.length > beamWidth) candidates.pop();
          }
        }
        beams = candidates.map(function (c) {
          return { pieces: beams[c.beam].pieces.concat([c.id]), total: c.value };
        });
      }
      beams.forEach(function (beam) {
        var pieces = beam.pieces.map(function (id) { return vocab[id]; });
        var word = pieces.map(function (p, i) { return i && p.startsWith(prefix) ? p.slice(prefix.length) : p; }).join("");
        var score = scoring === "mean" ? beam.total / n : beam.total;
        var seen = best.get(word);
        if (!seen || score > seen.score) best.set(word, { word: word, score: score, pieces: pieces });   // Map은 있던 열쇠의 자리를 지킨다
      });
    }
    return Array.from(best.values()).sort(function (x, y) { return y.score - x.score; }).slice(0, k);
  }

  var api = {
    tokenKinds: tokenKinds, wordGroups: wordGroups, wordAttention: wordAttention, attentionMatrix: attentionMatrix,
    attentionPanel: attentionPanel, repeatedWords: repeatedWords, cosine: cosine, similaritySeries: similaritySeries,
    similarityPanel: similarityPanel, fillMask: fillMask, topIndices: topIndices,
    validClickedMasks: validClickedMasks, analyze: analyze, wordPieceSets: wordPieceSets, wordBlankProblem: wordBlankProblem,
    logSoftmax: logSoftmax, fillWord: fillWord, EMPTY_MESSAGE: EMPTY_MESSAGE
  };
  root.BertLab = root.BertLab || {};
  root.BertLab.analysis = api;
  if (typeof module === "object" && module.exports) module.exports = api;
})(typeof window !== "undefined" ? window : globalThis);
