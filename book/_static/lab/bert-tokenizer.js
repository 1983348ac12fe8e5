/*
 * 실습실의 BERT 토크나이저 (1장 토큰화를 브라우저에서).
 *
 * 파이썬의 transformers 토크나이저(Rust tokenizers)와 같은 순서로 처리합니다.
 *   1. 특수 토큰 찾기: 정규화하기 전의 원문에서 [MASK], [CLS] 같은 특수 토큰을 왼쪽부터, 긴 것 먼저 찾아 떼어 둡니다.
 *   2. BertNormalizer: 제어 문자 지우기, 공백류를 ' '로, 한자 앞뒤에 ' ' 넣기 (lowercase, strip_accents 없음).
 *   3. BertPreTokenizer: 공백에서 자르고 문장 부호는 한 글자씩 떼어 냅니다.
 *   4. WordPiece: 단어마다 어휘에 있는 가장 긴 앞부분부터, 이어지는 조각은 '##'을 붙여 찾습니다.
 *      찾지 못하는 곳이 있거나 100글자를 넘는 단어는 통째로 [UNK]가 됩니다.
 *   5. [CLS] 문장 [SEP]
 * 글자 분류표(2, 3단계)는 빌드할 때 파이썬 tokenizers에서 만든 것(tokenizer-vocab.js)을 씁니다.
 * 글자는 UTF-16 단위가 아니라 코드 포인트 단위로 셉니다(파이썬, Rust와 같게).
 */
(function (root) {
  "use strict";

  function inRanges(ranges, c) {
    var lo = 0, hi = ranges.length - 1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (c < ranges[mid][0]) hi = mid - 1;
      else if (c > ranges[mid][1]) lo = mid + 1;
      else return true;
    }
    return false;
  }

  function BertTokenizer(spec) {
    if (!spec || !spec.vocab) throw new Error("토크나이저 파일(tokenizer-vocab.js)을 읽지 못했습니다.");
    this.vocab = spec.vocab;
    this.ids = new Map();
    for (var i = 0; i < spec.vocab.length; i++) this.ids.set(spec.vocab[i], i);
    this.prefix = spec.continuing_subword_prefix;
    this.maxChars = spec.max_input_chars_per_word;
    this.chars = spec.chars;
    this.unkToken = spec.unk_token;
    this.unkId = this.ids.get(spec.unk_token);
    this.clsId = this.ids.get(spec.cls_token);
    this.sepId = this.ids.get(spec.sep_token);
    this.maskId = this.ids.get(spec.mask_token);
    this.maskToken = spec.mask_token;
    // 긴 것부터: 같은 자리에서 시작하는 후보가 여럿이면 가장 긴 것을 고른다(leftmost-longest).
    this.specials = spec.special_tokens.slice().sort(function (a, b) { return b.content.length - a.content.length; });
    this.specialIds = new Set(spec.special_tokens.map(function (t) { return t.id; }));
  }

  /* 1단계: 원문을 [{text, id}] 조각으로. 특수 토큰이면 id가 있고, 아니면 id는 null. */
  BertTokenizer.prototype.splitSpecial = function (text) {
    var parts = [], start = 0, i = 0;
    while (i < text.length) {
      var hit = null;
      for (var s = 0; s < this.specials.length; s++) {
        var sp = this.specials[s];
        if (text.startsWith(sp.content, i)) { hit = sp; break; }
      }
      if (hit) {
        if (i > start) parts.push({ text: text.slice(start, i), id: null });
        parts.push({ text: hit.content, id: hit.id });
        i += hit.content.length;
        start = i;
      } else {
        i += 1;
      }
    }
    if (start < text.length) parts.push({ text: text.slice(start), id: null });
    return parts;
  };

  /* 2단계: BertNormalizer (clean_text, handle_chinese_chars). */
  BertTokenizer.prototype.normalize = function (text) {
    var out = [], ch = this.chars;
    for (var it = text[Symbol.iterator](), step = it.next(); !step.done; step = it.next()) {
      var c = step.value.codePointAt(0);
      if (c >= 0xd800 && c <= 0xdfff) continue;           // 짝 없는 서로게이트(범주 Cs)는 지운다
      if (inRanges(ch.remove, c)) continue;
      if (inRanges(ch.space, c)) { out.push(" "); continue; }
      if (inRanges(ch.chinese, c)) { out.push(" ", step.value, " "); continue; }
      out.push(step.value);
    }
    return out.join("");
  };

  /* 3단계: BertPreTokenizer. 단어마다 코드 포인트 배열을 돌려준다. */
  BertTokenizer.prototype.preTokenize = function (text) {
    var words = [], cur = [], ch = this.chars;
    for (var it = text[Symbol.iterator](), step = it.next(); !step.done; step = it.next()) {
      var c = step.value.codePointAt(0);
      if (inRanges(ch.whitespace, c)) {
        if (cur.length) { words.push(cur); cur = []; }
      } else if (inRanges(ch.punct, c)) {
        if (cur.length) { words.push(cur); cur = []; }
        words.push([step.value]);
      } else {
        cur.push(step.value);
      }
    }
    if (cur.length) words.push(cur);
    return words;
  };

  /* 4단계: WordPiece (탐욕적 최장 일치). chars: 코드 포인트(문자열) 배열. */
  BertTokenizer.prototype.wordPiece = function (chars) {
    if (chars.length > this.maxChars) return [this.unkToken];
    var pieces = [], start = 0;
    while (start < chars.length) {
      var end = chars.length, found = null;
      while (start < end) {
        var sub = chars.slice(start, end).join("");
        if (start > 0) sub = this.prefix + sub;
        if (this.ids.has(sub)) { found = sub; break; }
        end -= 1;
      }
      if (found === null) return [this.unkToken];
      pieces.push(found);
      start = end;
    }
    return pieces;
  };

  /*
   * 문장 하나를 인코딩한다: {ids, tokens, words}.
   * words[i]는 토큰 i를 만든 원래 단어(사전 토큰화 뒤)이고, 특수 토큰이면 그 토큰 자체다.
   */
  BertTokenizer.prototype.encode = function (text) {
    var ids = [this.clsId], tokens = [this.vocab[this.clsId]], words = [""];
    var parts = this.splitSpecial(String(text));
    for (var p = 0; p < parts.length; p++) {
      var part = parts[p];
      if (part.id !== null) {
        ids.push(part.id); tokens.push(part.text); words.push(part.text);
        continue;
      }
      var pre = this.preTokenize(this.normalize(part.text));
      for (var w = 0; w < pre.length; w++) {
        var pieces = this.wordPiece(pre[w]), word = pre[w].join("");
        for (var k = 0; k < pieces.length; k++) {
          ids.push(this.ids.get(pieces[k])); tokens.push(pieces[k]); words.push(word);
        }
      }
    }
    ids.push(this.sepId); tokens.push(this.vocab[this.sepId]); words.push("");
    return { ids: ids, tokens: tokens, words: words };
  };

  BertTokenizer.prototype.isSpecial = function (id) { return this.specialIds.has(id); };
  BertTokenizer.prototype.isContinuation = function (token) {
    return token.length > this.prefix.length && token.startsWith(this.prefix);
  };
  /* 어휘 크기의 0/1 표: id가 ## 조각(앞 조각에 이어지는 조각)이면 1. 한 번 만들어 둔다. */
  BertTokenizer.prototype.continuationMask = function () {
    if (!this._cont) {
      this._cont = new Uint8Array(this.vocab.length);
      for (var i = 0; i < this.vocab.length; i++) this._cont[i] = this.isContinuation(this.vocab[i]) ? 1 : 0;
    }
    return this._cont;
  };

  var api = { BertTokenizer: BertTokenizer };
  root.BertLab = root.BertLab || {};
  root.BertLab.BertTokenizer = BertTokenizer;
  if (typeof module === "object" && module.exports) module.exports = api;
})(typeof window !== "undefined" ? window : globalThis);
