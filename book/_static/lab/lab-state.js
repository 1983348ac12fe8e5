/*
 * 실습실의 상태: 읽는 사람이 고른 것만 담는다. 계산 결과는 담지 않는다(lab-analysis.js가 상태에서 만든다).
 *
 *   text      글 상자의 문장
 *   masked    눌러서 [MASK]로 가린 토큰 번호들(작은 것부터)
 *   layer     어텐션 그림의 층(0부터; 화면에는 1부터)
 *   head      헤드(0부터)
 *   unit      "tokens"(토큰 조각) 또는 "words"(어절, ## 합침)
 *   simGroup  '같은 단어, 다른 문맥'에서 고른 단어(되풀이 단어 목록의 번호)
 *
 * 주소(?text=…&mask=…)와 오가는 함수도 여기에 있다. DOM을 쓰지 않으므로 node에서도 돈다.
 */
(function (root) {
  "use strict";

  function create(text) {
    return { text: text === undefined ? "" : String(text), masked: [], layer: 0, head: 0, unit: "tokens", simGroup: 0 };
  }

  /* 새 문장: 눌러서 가린 자리는 지운다(다른 문장의 토큰 번호이므로). 그림의 층·헤드·단위는 그대로. */
  function setText(state, text) {
    state.text = String(text);
    state.masked = [];
    return state;
  }

  /* 토큰 i를 가리거나 되돌린다. */
  function toggleMask(state, i) {
    var at = state.masked.indexOf(i);
    if (at >= 0) state.masked.splice(at, 1);
    else state.masked.push(i);
    state.masked.sort(function (a, b) { return a - b; });
    return state;
  }

  /* 분석이 가릴 수 없다고 버린 자리를 상태에서도 뺀다(주소에 남지 않게). */
  function keepMasks(state, valid) {
    state.masked = valid.slice().sort(function (a, b) { return a - b; });
    return state;
  }

  /* 층·헤드·단위·단어 고르기. 값이 범위 밖이면 0으로. */
  function setView(state, changes, limits) {
    Object.keys(changes).forEach(function (key) { state[key] = changes[key]; });
    if (limits) {
      if (!(state.layer >= 0 && state.layer < limits.numLayers)) state.layer = 0;
      if (!(state.head >= 0 && state.head < limits.numHeads)) state.head = 0;
    }
    if (state.unit !== "words") state.unit = "tokens";
    return state;
  }

  /* 주소의 물음표 뒤(?text=…&mask=1,4)에서 상태를 만든다. text가 없으면 defaultText. */
  function fromQuery(search, defaultText) {
    var params = new URLSearchParams(search || "");
    var state = create(params.has("text") ? params.get("text") : defaultText);
    if (params.has("mask")) {
      params.get("mask").split(",").forEach(function (part) {
        var i = parseInt(part, 10);
        if (i >= 0 && state.masked.indexOf(i) < 0) state.masked.push(i);
      });
      state.masked.sort(function (a, b) { return a - b; });
    }
    return state;
  }

  /* 상태를 주소의 물음표 뒤로: 문장과 눌러서 가린 자리만(나눈 사람과 같은 문장, 같은 [MASK]를 보게). */
  function toQuery(state) {
    var query = "?text=" + encodeURIComponent(state.text);
    if (state.masked.length) query += "&mask=" + state.masked.join(",");
    return query;
  }

  var api = { create: create, setText: setText, toggleMask: toggleMask, keepMasks: keepMasks, setView: setView,
              fromQuery: fromQuery, toQuery: toQuery };
  root.BertLab = root.BertLab || {};
  root.BertLab.state = api;
  if (typeof module === "object" && module.exports) module.exports = api;
})(typeof window !== "undefined" ? window : globalThis);
