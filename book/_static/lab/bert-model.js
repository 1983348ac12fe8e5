/*
 * 실습실의 BERT 순전파: 3장에서 손으로 한 계산을 그대로 자바스크립트(Float32Array)로 옮긴 것.
 *
 *   임베딩:   x = LayerNorm(단어 + 위치 + 세그먼트 임베딩)                     (2장)
 *   층마다:   Q, K, V = xW_Qᵀ + b_Q, ...                                          (3장 1단계)
 *             헤드로 나누기, 점수 = QKᵀ / √d_k, [PAD] 마스크, 소프트맥스            (2~5단계)
 *             문맥 = 가중치 · V, 헤드 합치기, 출력 투영, 잔차 + LayerNorm           (6~7단계)
 *             GELU 피드포워드, 잔차 + LayerNorm                                     (8단계)
 *   MLM 헤드: 변환 dense + GELU + LayerNorm, 단어 임베딩과 묶인 디코더 + 편향       (7장)
 *
 * 가중치 파일(model-weights.js)의 형식은 book/_ext/lab_assets.py 가 정합니다. 이 파일의 decodeWeights가 되돌립니다.
 */
(function (root) {
  "use strict";

  // --- 가중치 되돌리기 ------------------------------------------------------------------

  /* 문자열 한 글자(U+2100+v)에 든 15비트를 이어 붙여 바이트로. */
  function charsToBytes(text, nBytes, base) {
    var out = new Uint8Array(nBytes), acc = 0, nacc = 0, j = 0;
    for (var i = 0; i < text.length && j < nBytes; i++) {
      acc = (acc << 15) | (text.charCodeAt(i) - base);
      nacc += 15;
      while (nacc >= 8 && j < nBytes) {
        nacc -= 8;
        out[j++] = (acc >>> nacc) & 255;
      }
      acc &= (1 << nacc) - 1;
    }
    if (j !== nBytes) throw new Error("가중치 파일이 잘렸습니다.");
    return out;
  }

  var HALF = null;
  function halfTable() {   // fp16 비트 패턴 65536개 → float32 (정확한 변환)
    if (HALF) return HALF;
    HALF = new Float32Array(65536);
    for (var h = 0; h < 65536; h++) {
      var s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
      HALF[h] = e === 0 ? s * m * Math.pow(2, -24)
        : e === 31 ? (m ? NaN : s * Infinity)
        : s * (1 + m / 1024) * Math.pow(2, e - 15);
    }
    return HALF;
  }

  /* 정규 허프만 부호 표: 길이 배열(심볼 순)에서 빠른 표(FAST 비트)와 길이별 개수·심볼 목록을 만든다. */
  var FAST = 11;
  function buildHuffman(lengths, minSymbol) {
    var maxLen = 0, i;
    for (i = 0; i < lengths.length; i++) if (lengths[i] > maxLen) maxLen = lengths[i];
    var count = new Int32Array(maxLen + 1), order = [];
    for (i = 0; i < lengths.length; i++) if (lengths[i]) count[lengths[i]]++;
    var offs = new Int32Array(maxLen + 2);
    for (i = 1; i <= maxLen; i++) offs[i + 1] = offs[i] + count[i];
    var symbols = new Int32Array(offs[maxLen + 1]);
    for (i = 0; i < lengths.length; i++) if (lengths[i]) symbols[offs[lengths[i]]++] = i + minSymbol;
    // 빠른 표: 길이 ≤ FAST인 부호는 앞 FAST비트로 바로 찾는다. 값 = 심볼 << 5 | 길이 (0이면 느린 길)
    var fastSym = new Int32Array(1 << FAST), fastLen = new Uint8Array(1 << FAST);
    var code = 0, idx = 0;
    for (var len = 1; len <= maxLen; len++) {
      for (var c = 0; c < count[len]; c++, idx++, code++) {
        if (len <= FAST) {
          var first = code << (FAST - len), n = 1 << (FAST - len);
          for (var f = 0; f < n; f++) { fastSym[first + f] = symbols[idx]; fastLen[first + f] = len; }
        }
      }
      code <<= 1;
    }
    return { count: count, symbols: symbols, maxLen: maxLen, fastSym: fastSym, fastLen: fastLen };
  }

  /* 허프만 비트열(MSB부터)에서 정수 n개를 읽어 행마다 간격을 곱해 float32로. */
  function decodeQuantized(bytes, offset, rows, cols, scales, huff, out) {
    var pos = offset, buf = 0, nbits = 0, fastMask = (1 << FAST) - 1;
    var count = huff.count, symbols = huff.symbols, maxLen = huff.maxLen;
    var fastSym = huff.fastSym, fastLen = huff.fastLen;
    var k = 0;
    for (var r = 0; r < rows; r++) {
      var s = scales[r];
      for (var c = 0; c < cols; c++, k++) {
        while (nbits <= 24) { buf = ((buf << 8) | (pos < bytes.length ? bytes[pos] : 0)) >>> 0; pos++; nbits += 8; }
        var peek = (buf >>> (nbits - FAST)) & fastMask, len = fastLen[peek], sym;
        if (len) {
          sym = fastSym[peek];
        } else {                                   // 긴 부호: 한 비트씩 (정규 부호의 'puff' 방식)
          var code = 0, first = 0, index = 0;
          for (len = 1; len <= maxLen; len++) {
            code |= (buf >>> (nbits - len)) & 1;
            var cnt = count[len];
            if (code - first < cnt) { sym = symbols[index + code - first]; break; }
            index += cnt; first = (first + cnt) << 1; code <<= 1;
          }
          if (len > maxLen) throw new Error("가중치 파일의 허프만 부호가 잘못되었습니다.");
        }
        nbits -= len;
        buf &= nbits ? (0xffffffff >>> (32 - nbits)) : 0;
        out[k] = sym * s;
      }
    }
  }

  /* window.BERTLAB_LAB_WEIGHTS → {config, tensors: 이름 → Float32Array, shapes, info}. */
  function decodeWeights(file) {
    if (!file || file.format !== "bertlab-lab-weights/1" || typeof file.data !== "string")
      throw new Error("가중치 파일(model-weights.js)을 읽지 못했습니다.");
    var q = file.quantization;
    var bytes = charsToBytes(file.data, file.bytes, q.char_base);
    var view = new DataView(bytes.buffer);
    var huff = null;
    if (file.huffman) {
      var h = file.huffman;
      huff = buildHuffman(bytes.subarray(h.offset, h.offset + h.count), h.min);
    }
    var tensors = {}, shapes = {}, half = null;
    file.tensors.forEach(function (t) {
      var n = t.shape.reduce(function (a, b) { return a * b; }, 1), arr = new Float32Array(n), i;
      if (t.kind === "f16") {
        half = half || halfTable();
        for (i = 0; i < n; i++) arr[i] = half[view.getUint16(t.offset + 2 * i, true)];
      } else if (t.kind === "f32") {
        for (i = 0; i < n; i++) arr[i] = view.getFloat32(t.offset + 4 * i, true);
      } else if (t.kind === "q") {
        var rows = t.shape[0], cols = n / rows, scales = new Float32Array(rows);
        for (i = 0; i < rows; i++) scales[i] = view.getFloat32(t.scales + 4 * i, true);
        decodeQuantized(bytes, t.offset, rows, cols, scales, huff, arr);
      } else {
        throw new Error("알 수 없는 텐서 형식: " + t.kind);
      }
      tensors[t.name] = arr;
      shapes[t.name] = t.shape;
    });
    return { config: file.config, tensors: tensors, shapes: shapes, info: { quantization: q, source: file.source } };
  }

  // --- 계산 조각 ------------------------------------------------------------------------

  /*
   * out[t, o] = b[o] + Σ_i x[t, i] W[o, i]  (W는 PyTorch처럼 [출력, 입력]).
   * 토큰 넷 × 출력 둘을 한꺼번에 계산해 가중치와 입력을 한 번 읽을 때 여러 번 쓴다(이 방식이 단순한 3중 루프보다 2배쯤 빠르다).
   */
  function linear(x, n, inD, W, b, outD, out) {
    var t = 0, o, i;
    for (; t + 3 < n; t += 4) {
      var xa = t * inD, xb = xa + inD, xc = xb + inD, xd = xc + inD;
      var ra = t * outD, rb = ra + outD, rc = rb + outD, rd = rc + outD;
      for (o = 0; o + 1 < outD; o += 2) {
        var a0 = 0, b0 = 0, c0 = 0, d0 = 0, a1 = 0, b1 = 0, c1 = 0, d1 = 0, w0 = o * inD, w1 = w0 + inD;
        for (i = 0; i < inD; i++) {
          var p = x[xa + i], q = x[xb + i], r = x[xc + i], s = x[xd + i], u = W[w0 + i], v = W[w1 + i];
          a0 += p * u; b0 += q * u; c0 += r * u; d0 += s * u;
          a1 += p * v; b1 += q * v; c1 += r * v; d1 += s * v;
        }
        out[ra + o] = a0 + b[o]; out[rb + o] = b0 + b[o]; out[rc + o] = c0 + b[o]; out[rd + o] = d0 + b[o];
        out[ra + o + 1] = a1 + b[o + 1]; out[rb + o + 1] = b1 + b[o + 1];
        out[rc + o + 1] = c1 + b[o + 1]; out[rd + o + 1] = d1 + b[o + 1];
      }
      for (; o < outD; o++) linearOne(x, xa, inD, W, o, b, out, ra, rb, rc, rd);
    }
    for (; t < n; t++) {                                 // 남은 토큰은 하나씩, 출력 둘씩
      var xo = t * inD, ro = t * outD;
      for (o = 0; o + 1 < outD; o += 2) {
        var e0 = 0, e1 = 0, wo = o * inD, wp = wo + inD;
        for (i = 0; i < inD; i++) { var xi = x[xo + i]; e0 += xi * W[wo + i]; e1 += xi * W[wp + i]; }
        out[ro + o] = e0 + b[o]; out[ro + o + 1] = e1 + b[o + 1];
      }
      if (o < outD) {
        var e = 0, wl = o * inD;
        for (i = 0; i < inD; i++) e += x[xo + i] * W[wl + i];
        out[ro + o] = e + b[o];
      }
    }
    return out;
  }
  function linearOne(x, xa, inD, W, o, b, out, ra, rb, rc, rd) {   // 출력 수가 홀수일 때 마지막 출력 (토큰 넷)
    var a = 0, bb = 0, c = 0, d = 0, wo = o * inD;
    for (var i = 0; i < inD; i++) {
      var w = W[wo + i];
      a += x[xa + i] * w; bb += x[xa + inD + i] * w; c += x[xa + 2 * inD + i] * w; d += x[xa + 3 * inD + i] * w;
    }
    out[ra + o] = a + b[o]; out[rb + o] = bb + b[o]; out[rc + o] = c + b[o]; out[rd + o] = d + b[o];
  }

  /* 행마다 LayerNorm: (x - 평균) / √(분산 + eps) · γ + β. 제자리에서 바꾼다. */
  function layerNorm(x, n, D, gamma, beta, eps) {
    for (var t = 0; t < n; t++) {
      var off = t * D, mean = 0, v = 0, i;
      for (i = 0; i < D; i++) mean += x[off + i];
      mean /= D;
      for (i = 0; i < D; i++) { var d = x[off + i] - mean; v += d * d; }
      var inv = 1 / Math.sqrt(v / D + eps);
      for (i = 0; i < D; i++) x[off + i] = (x[off + i] - mean) * inv * gamma[i] + beta[i];
    }
    return x;
  }

  /*
   * erf(x): |x| < 0.5 이면 테일러 급수(여덟 항 안팎, 절대 오차 1e-16 수준), 아니면 erf = 1 - erfc 에
   * Numerical Recipes의 erfc 근사(상대 오차 1.2e-7; |x| ≥ 0.5에서 erfc ≤ 0.48이므로 erf의 절대 오차 6e-8 이하,
   * float32의 반올림 오차 수준)를 쓴다.
   * GELU(x) = x · Φ(x) = x/2 · (1 + erf(x/√2)) (transformers의 'gelu'와 같은 정확한 GELU).
   */
  function erf(x) {
    var ax = Math.abs(x);
    if (ax < 0.5) {
      var x2 = x * x, term = x, sum = x;
      for (var n = 0; n < 30; n++) {
        term *= -x2 / (n + 1);
        var add = term / (2 * n + 3);
        sum += add;
        if (Math.abs(add) < 1e-17) break;
      }
      return sum * 1.1283791670955126;                     // 2/√π
    }
    var t = 1 / (1 + 0.5 * ax);
    var erfc = t * Math.exp(-ax * ax - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 +
      t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
    return x < 0 ? erfc - 1 : 1 - erfc;
  }
  function gelu(x, n) {
    for (var i = 0; i < n; i++) x[i] = 0.5 * x[i] * (1 + erf(x[i] * Math.SQRT1_2));
    return x;
  }

  // --- 모델 ------------------------------------------------------------------------------

  function BertModel(weights) {
    var c = weights.config;
    this.config = c;
    this.t = weights.tensors;
    this.info = weights.info;
    this.L = c.num_hidden_layers;
    this.H = c.hidden_size;
    this.heads = c.num_attention_heads;
    this.dk = c.hidden_size / c.num_attention_heads;
    this.I = c.intermediate_size;
    this.V = c.vocab_size;
    this.maxLength = c.max_position_embeddings;
    this.eps = c.layer_norm_eps;
  }

  BertModel.prototype.tooLongMessage = function (n) {
    return "문장이 너무 깁니다: 토큰 " + n + "개, 이 모델은 최대 " + this.maxLength + "개까지 받습니다.";
  };

  /*
   * ids → {hidden: [L+1개 Float32Array(n·H)], attentions: [L개 Float32Array(heads·n·n)], ms}.
   * hidden[0]은 임베딩 출력, hidden[ℓ]은 ℓ번째 층을 지난 벡터 (파이썬의 outputs.hidden_states와 같은 번호).
   * attentions[ℓ][h·n·n + i·n + j] = 층 ℓ, 헤드 h에서 질의 i가 키 j에 준 가중치 (outputs.attentions[ℓ][0, h, i, j]).
   */
  BertModel.prototype.forward = function (ids, attentionMask) {
    var n = ids.length, H = this.H, I = this.I, heads = this.heads, dk = this.dk, t = this.t, eps = this.eps;
    if (n > this.maxLength) {
      var err = new RangeError(this.tooLongMessage(n));
      err.code = "too-long";
      throw err;
    }
    var start = (typeof performance !== "undefined" ? performance : Date).now();
    var word = t["bert.embeddings.word_embeddings.weight"], pos = t["bert.embeddings.position_embeddings.weight"];
    var type = t["bert.embeddings.token_type_embeddings.weight"];
    var x = new Float32Array(n * H), i, j, k, h;
    for (i = 0; i < n; i++) {
      if (!(ids[i] >= 0 && ids[i] < this.V)) throw new RangeError("토큰 id " + ids[i] + " 이(가) 어휘 밖입니다.");
      var wo = ids[i] * H, po = i * H;
      for (k = 0; k < H; k++) x[po + k] = word[wo + k] + pos[po + k] + type[k];   // 세그먼트 id는 모두 0
    }
    layerNorm(x, n, H, t["bert.embeddings.LayerNorm.weight"], t["bert.embeddings.LayerNorm.bias"], eps);
    var hidden = [x.slice()], attentions = [];
    // [PAD] 키를 가리는 더하기 마스크: 1이면 0, 0이면 float32의 가장 작은 값 (transformers와 같게)
    var maskAdd = new Float32Array(n);
    for (j = 0; j < n; j++) maskAdd[j] = attentionMask && !attentionMask[j] ? -3.4028234663852886e38 : 0;
    var Q = new Float32Array(n * H), K = new Float32Array(n * H), V = new Float32Array(n * H);
    var ctx = new Float32Array(n * H), proj = new Float32Array(n * H), inter = new Float32Array(n * I);
    var row = new Float64Array(n), scale = 1 / Math.sqrt(dk);
    for (var l = 0; l < this.L; l++) {
      var p = "bert.encoder.layer." + l + ".";
      linear(x, n, H, t[p + "attention.self.query.weight"], t[p + "attention.self.query.bias"], H, Q);
      linear(x, n, H, t[p + "attention.self.key.weight"], t[p + "attention.self.key.bias"], H, K);
      linear(x, n, H, t[p + "attention.self.value.weight"], t[p + "attention.self.value.bias"], H, V);
      var att = new Float32Array(heads * n * n);
      for (h = 0; h < heads; h++) {
        var ho = h * dk;                                     // 헤드 h는 열 ho..ho+dk-1
        for (i = 0; i < n; i++) {
          var qo = i * H + ho, max = -Infinity;
          for (j = 0; j < n; j++) {                          // 점수 = q·k / √d_k + 마스크
            var ko = j * H + ho, s = 0;
            for (k = 0; k < dk; k++) s += Q[qo + k] * K[ko + k];
            s = Math.fround(s * scale) + maskAdd[j];
            row[j] = s;
            if (s > max) max = s;
          }
          var sum = 0;
          for (j = 0; j < n; j++) { row[j] = Math.exp(row[j] - max); sum += row[j]; }
          var ao = h * n * n + i * n;
          for (j = 0; j < n; j++) att[ao + j] = row[j] / sum;  // 소프트맥스
          var co = i * H + ho;
          for (k = 0; k < dk; k++) {                         // 문맥 = Σ_j 가중치 · v_j (헤드를 제자리에 합침)
            var acc = 0;
            for (j = 0; j < n; j++) acc += att[ao + j] * V[j * H + ho + k];
            ctx[co + k] = acc;
          }
        }
      }
      attentions.push(att);
      linear(ctx, n, H, t[p + "attention.output.dense.weight"], t[p + "attention.output.dense.bias"], H, proj);
      for (k = 0; k < n * H; k++) proj[k] += x[k];           // 잔차
      layerNorm(proj, n, H, t[p + "attention.output.LayerNorm.weight"], t[p + "attention.output.LayerNorm.bias"], eps);
      linear(proj, n, H, t[p + "intermediate.dense.weight"], t[p + "intermediate.dense.bias"], I, inter);
      gelu(inter, n * I);
      var out = new Float32Array(n * H);
      linear(inter, n, I, t[p + "output.dense.weight"], t[p + "output.dense.bias"], H, out);
      for (k = 0; k < n * H; k++) out[k] += proj[k];         // 잔차
      layerNorm(out, n, H, t[p + "output.LayerNorm.weight"], t[p + "output.LayerNorm.bias"], eps);
      x = out;
      hidden.push(x);
    }
    var end = (typeof performance !== "undefined" ? performance : Date).now();
    return { hidden: hidden, attentions: attentions, n: n, ms: end - start };
  };

  /*
   * MLM 헤드로 위치 pos의 어휘 점수(logit)를 계산한다: 변환 dense → GELU → LayerNorm → 디코더(단어 임베딩) + 편향.
   */
  BertModel.prototype.mlmLogits = function (lastHidden, posIndex) {
    var H = this.H, t = this.t, V = this.V;
    var h = lastHidden.subarray(posIndex * H, (posIndex + 1) * H), z = new Float32Array(H);
    linear(h, 1, H, t["cls.predictions.transform.dense.weight"], t["cls.predictions.transform.dense.bias"], H, z);
    gelu(z, H);
    layerNorm(z, 1, H, t["cls.predictions.transform.LayerNorm.weight"], t["cls.predictions.transform.LayerNorm.bias"], this.eps);
    var dec = t["cls.predictions.decoder.weight"] || t["bert.embeddings.word_embeddings.weight"];
    return linear(z, 1, H, dec, t["cls.predictions.bias"], V, new Float32Array(V));
  };

  /* 위치마다 상위 k개 {id, prob, logit}. 확률은 어휘 전체에 대한 소프트맥스.
   * cont(어휘 크기의 0/1 표, 토크나이저의 continuationMask)를 주면 ## 조각에 간 확률의 합 contMass도 낸다. */
  BertModel.prototype.fillMask = function (lastHidden, positions, k, cont) {
    k = k || 5;
    var self = this;
    return positions.map(function (p) {
      var logits = self.mlmLogits(lastHidden, p), max = -Infinity, i;
      for (i = 0; i < logits.length; i++) if (logits[i] > max) max = logits[i];
      var sum = 0, contSum = 0, e;
      for (i = 0; i < logits.length; i++) {
        e = Math.exp(logits[i] - max);
        sum += e;
        if (cont && cont[i]) contSum += e;
      }
      var top = [];                                        // 작은 삽입 정렬로 상위 k개
      for (i = 0; i < logits.length; i++) {
        if (top.length < k || logits[i] > logits[top[top.length - 1]]) {
          var at = top.length;
          while (at > 0 && logits[top[at - 1]] < logits[i]) at--;
          top.splice(at, 0, i);
          if (top.length > k) top.pop();
        }
      }
      var res = {
        position: p,
        top: top.map(function (id) { return { id: id, logit: logits[id], prob: Math.exp(logits[id] - max) / sum }; })
      };
      if (cont) res.contMass = contSum / sum;
      return res;
    });
  };

  /* 두 벡터의 코사인 유사도 (5장). */
  function cosine(a, ao, b, bo, D) {
    var dot = 0, na = 0, nb = 0;
    for (var i = 0; i < D; i++) { dot += a[ao + i] * b[bo + i]; na += a[ao + i] * a[ao + i]; nb += b[bo + i] * b[bo + i]; }
    return dot / (Math.sqrt(na) * Math.sqrt(nb) || 1);
  }

  var api = { decodeWeights: decodeWeights, BertModel: BertModel, cosine: cosine, erf: erf };
  root.BertLab = root.BertLab || {};
  root.BertLab.decodeWeights = decodeWeights;
  root.BertLab.BertModel = BertModel;
  root.BertLab.cosine = cosine;
  if (typeof module === "object" && module.exports) module.exports = api;
})(typeof window !== "undefined" ? window : globalThis);
