/*
 * 실습실의 BERT 순전파: 3장에서 손으로 한 계산을 그대로 자바스크립트(Float32Array)로 옮긴 것.
 *
 *   embed:          x = LayerNorm(단어 + 위치 + 세그먼트 임베딩)                        (2장)
 *   encoderLayer:   selfAttention: Q, K, V = xW_Qᵀ + b_Q, ...                          (3장 1단계)
 *                                  헤드로 나누기, 점수 = QKᵀ / √d_k, [PAD] 마스크, 소프트맥스 (2~5단계)
 *                                  문맥 = 가중치 · V, 헤드 합치기                       (6단계)
 *                   출력 투영, 잔차 + LayerNorm                                          (7단계)
 *                   feedForward: GELU 피드포워드, 잔차 + LayerNorm                        (8단계)
 *   mlmLogits:      변환 dense + GELU + LayerNorm, 단어 임베딩과 묶인 디코더 + 편향          (7장)
 *
 * 크기는 모두 config에서 읽는다: numLayers, numHeads, hiddenSize, headSize, intermediateSize, vocabSize, maxLength.
 * 행렬은 모두 한 줄로 편 Float32Array이고, 토큰 t의 벡터는 [t·hiddenSize, (t+1)·hiddenSize) 칸이다.
 * 가린 단어 맞히기의 상위 k개와 ## 조각의 몫, 어절 채우기, 코사인 유사도는 lab-analysis.js 에 있다.
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
    var quant = file.quantization;
    var bytes = charsToBytes(file.data, file.bytes, quant.char_base);
    var view = new DataView(bytes.buffer);
    var huffman = null;
    if (file.huffman) {
      var table = file.huffman;
      huffman = buildHuffman(bytes.subarray(table.offset, table.offset + table.count), table.min);
    }
    var tensors = {}, shapes = {}, half = null;
    file.tensors.forEach(function (spec) {
      var size = spec.shape.reduce(function (a, b) { return a * b; }, 1), values = new Float32Array(size), i;
      if (spec.kind === "f16") {
        half = half || halfTable();
        for (i = 0; i < size; i++) values[i] = half[view.getUint16(spec.offset + 2 * i, true)];
      } else if (spec.kind === "f32") {
        for (i = 0; i < size; i++) values[i] = view.getFloat32(spec.offset + 4 * i, true);
      } else if (spec.kind === "q") {
        var rows = spec.shape[0], cols = size / rows, scales = new Float32Array(rows);
        for (i = 0; i < rows; i++) scales[i] = view.getFloat32(spec.scales + 4 * i, true);
        decodeQuantized(bytes, spec.offset, rows, cols, scales, huffman, values);
      } else {
        throw new Error("알 수 없는 텐서 형식: " + spec.kind);
      }
      tensors[spec.name] = values;
      shapes[spec.name] = spec.shape;
    });
    return { config: file.config, tensors: tensors, shapes: shapes, info: { quantization: quant, source: file.source } };
  }

  // --- 계산 조각 ------------------------------------------------------------------------

  /*
   * out[t, o] = bias[o] + Σ_i input[t, i] · weight[o, i]   (weight는 PyTorch처럼 [출력, 입력]).
   * 토큰 넷 × 출력 둘을 한꺼번에 계산해 가중치와 입력을 한 번 읽을 때 여러 번 쓴다(이 방식이 단순한 3중 루프보다 2배쯤 빠르다).
   * 합은 언제나 i = 0, 1, … 순서로 더하므로 토큰을 넷씩 묶든 하나씩 하든 결과는 비트까지 같다.
   */
  function linear(input, rows, inSize, weight, bias, outSize, out) {
    var t = 0, o, i;
    for (; t + 3 < rows; t += 4) {
      var inA = t * inSize, inB = inA + inSize, inC = inB + inSize, inD = inC + inSize;
      var outA = t * outSize, outB = outA + outSize, outC = outB + outSize, outD = outC + outSize;
      for (o = 0; o + 1 < outSize; o += 2) {
        // 합 8개: 토큰 A~D × 출력 o, o+1
        var a0 = 0, b0 = 0, c0 = 0, d0 = 0, a1 = 0, b1 = 0, c1 = 0, d1 = 0, w0 = o * inSize, w1 = w0 + inSize;
        for (i = 0; i < inSize; i++) {
          var xa = input[inA + i], xb = input[inB + i], xc = input[inC + i], xd = input[inD + i];
          var u = weight[w0 + i], v = weight[w1 + i];
          a0 += xa * u; b0 += xb * u; c0 += xc * u; d0 += xd * u;
          a1 += xa * v; b1 += xb * v; c1 += xc * v; d1 += xd * v;
        }
        out[outA + o] = a0 + bias[o]; out[outB + o] = b0 + bias[o]; out[outC + o] = c0 + bias[o]; out[outD + o] = d0 + bias[o];
        out[outA + o + 1] = a1 + bias[o + 1]; out[outB + o + 1] = b1 + bias[o + 1];
        out[outC + o + 1] = c1 + bias[o + 1]; out[outD + o + 1] = d1 + bias[o + 1];
      }
      for (; o < outSize; o++) linearLastOutput(input, inA, inSize, weight, o, bias, out, [outA, outB, outC, outD]);
    }
    for (; t < rows; t++) {                               // 남은 토큰은 하나씩, 출력 둘씩
      var inRow = t * inSize, outRow = t * outSize;
      for (o = 0; o + 1 < outSize; o += 2) {
        var sum0 = 0, sum1 = 0, row0 = o * inSize, row1 = row0 + inSize;
        for (i = 0; i < inSize; i++) { var xi = input[inRow + i]; sum0 += xi * weight[row0 + i]; sum1 += xi * weight[row1 + i]; }
        out[outRow + o] = sum0 + bias[o]; out[outRow + o + 1] = sum1 + bias[o + 1];
      }
      if (o < outSize) {
        var sum = 0, rowLast = o * inSize;
        for (i = 0; i < inSize; i++) sum += input[inRow + i] * weight[rowLast + i];
        out[outRow + o] = sum + bias[o];
      }
    }
    return out;
  }
  /* 출력 수가 홀수일 때 마지막 출력 o를 토큰 넷에 대해 (outRows: 네 토큰의 출력 행 시작). */
  function linearLastOutput(input, inA, inSize, weight, o, bias, out, outRows) {
    var row = o * inSize;
    for (var k = 0; k < 4; k++) {
      var sum = 0, inRow = inA + k * inSize;
      for (var i = 0; i < inSize; i++) sum += input[inRow + i] * weight[row + i];
      out[outRows[k] + o] = sum + bias[o];
    }
  }

  /* 행마다 LayerNorm: (x - 평균) / √(분산 + eps) · γ + β. 제자리에서 바꾼다. */
  function layerNorm(x, rows, size, gamma, beta, eps) {
    for (var t = 0; t < rows; t++) {
      var start = t * size, mean = 0, variance = 0, i;
      for (i = 0; i < size; i++) mean += x[start + i];
      mean /= size;
      for (i = 0; i < size; i++) { var d = x[start + i] - mean; variance += d * d; }
      var inverse = 1 / Math.sqrt(variance / size + eps);
      for (i = 0; i < size; i++) x[start + i] = (x[start + i] - mean) * inverse * gamma[i] + beta[i];
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
  function gelu(x, size) {
    for (var i = 0; i < size; i++) x[i] = 0.5 * x[i] * (1 + erf(x[i] * Math.SQRT1_2));
    return x;
  }

  /* 행 rows[r]들을 골라 새 배열로 (rows가 null이면 그대로). */
  function pickRows(x, size, rows) {
    if (!rows) return x;
    var out = new Float32Array(rows.length * size);
    for (var r = 0; r < rows.length; r++) out.set(x.subarray(rows[r] * size, (rows[r] + 1) * size), r * size);
    return out;
  }

  var MASKED_SCORE = -3.4028234663852886e38;             // [PAD] 키에 더하는 값: float32의 가장 작은 값 (transformers와 같게)

  // --- 모델 ------------------------------------------------------------------------------

  function BertModel(weights) {
    var config = weights.config;
    this.config = config;
    this.tensors = weights.tensors;                        // 이름(PyTorch의 state_dict 이름) → Float32Array
    this.info = weights.info;
    this.numLayers = config.num_hidden_layers;
    this.numHeads = config.num_attention_heads;
    this.hiddenSize = config.hidden_size;
    this.headSize = config.hidden_size / config.num_attention_heads;   // d_k
    this.intermediateSize = config.intermediate_size;
    this.vocabSize = config.vocab_size;
    this.maxLength = config.max_position_embeddings;
    this.layerNormEps = config.layer_norm_eps;
  }

  BertModel.prototype.tooLongMessage = function (n) {
    return "문장이 너무 깁니다: 토큰 " + n + "개, 이 모델은 최대 " + this.maxLength + "개까지 받습니다.";
  };

  BertModel.prototype.checkIds = function (ids) {
    if (ids.length > this.maxLength) {
      var err = new RangeError(this.tooLongMessage(ids.length));
      err.code = "too-long";
      throw err;
    }
    for (var i = 0; i < ids.length; i++)
      if (!(ids[i] >= 0 && ids[i] < this.vocabSize)) throw new RangeError("토큰 id " + ids[i] + " 이(가) 어휘 밖입니다.");
  };

  /* 2장: 토큰 i의 입력 벡터 = LayerNorm(단어 임베딩[ids[i]] + 위치 임베딩[i] + 세그먼트 임베딩[0]). */
  BertModel.prototype.embed = function (ids) {
    var n = ids.length, size = this.hiddenSize, tensors = this.tensors;
    var word = tensors["bert.embeddings.word_embeddings.weight"], position = tensors["bert.embeddings.position_embeddings.weight"];
    var segment = tensors["bert.embeddings.token_type_embeddings.weight"];
    var x = new Float32Array(n * size);
    for (var i = 0; i < n; i++) {
      var wordRow = ids[i] * size, row = i * size;
      for (var k = 0; k < size; k++) x[row + k] = word[wordRow + k] + position[row + k] + segment[k];   // 세그먼트 id는 모두 0
    }
    return layerNorm(x, n, size, tensors["bert.embeddings.LayerNorm.weight"], tensors["bert.embeddings.LayerNorm.bias"],
                     this.layerNormEps);
  };

  /*
   * 3장 1~6단계, 층 layer의 셀프 어텐션. x: n개 토큰의 벡터(n·hiddenSize), keyMask: 키마다 더할 값(n개).
   * queryRows를 주면 그 토큰들의 질의만 계산한다(키와 값은 언제나 n개 모두).
   * 돌려주는 것: {context: 질의마다 헤드를 합친 문맥 벡터(q·hiddenSize), weights: 헤드 h, 질의 i, 키 j의 가중치를
   * weights[h·q·n + i·n + j]에 (q = 질의 수)}.
   */
  BertModel.prototype.selfAttention = function (x, n, layer, keyMask, queryRows) {
    var size = this.hiddenSize, numHeads = this.numHeads, headSize = this.headSize, tensors = this.tensors;
    var prefix = "bert.encoder.layer." + layer + ".attention.self.";
    var queryInput = pickRows(x, size, queryRows), numQueries = queryRows ? queryRows.length : n;
    // 1단계: Q, K, V 투영
    var query = linear(queryInput, numQueries, size, tensors[prefix + "query.weight"], tensors[prefix + "query.bias"], size,
                       new Float32Array(numQueries * size));
    var key = linear(x, n, size, tensors[prefix + "key.weight"], tensors[prefix + "key.bias"], size, new Float32Array(n * size));
    var value = linear(x, n, size, tensors[prefix + "value.weight"], tensors[prefix + "value.bias"], size, new Float32Array(n * size));
    var weights = new Float32Array(numHeads * numQueries * n), context = new Float32Array(numQueries * size);
    var scores = new Float64Array(n), scale = 1 / Math.sqrt(headSize), i, j, k;
    for (var head = 0; head < numHeads; head++) {
      var headStart = head * headSize;                     // 2단계: 헤드 h는 열 headStart..headStart+headSize-1
      for (i = 0; i < numQueries; i++) {
        var queryStart = i * size + headStart, max = -Infinity;
        for (j = 0; j < n; j++) {                          // 3~4단계: 점수 = q·k / √d_k + 마스크
          var keyStart = j * size + headStart, dot = 0;
          for (k = 0; k < headSize; k++) dot += query[queryStart + k] * key[keyStart + k];
          var score = Math.fround(dot * scale) + keyMask[j];
          scores[j] = score;
          if (score > max) max = score;
        }
        var total = 0;                                     // 5단계: 소프트맥스
        for (j = 0; j < n; j++) { scores[j] = Math.exp(scores[j] - max); total += scores[j]; }
        var weightRow = head * numQueries * n + i * n;
        for (j = 0; j < n; j++) weights[weightRow + j] = scores[j] / total;
        var contextStart = i * size + headStart;
        for (k = 0; k < headSize; k++) {                   // 6단계: 문맥 = Σ_j 가중치 · v_j (헤드를 제자리에 합침)
          var acc = 0;
          for (j = 0; j < n; j++) acc += weights[weightRow + j] * value[j * size + headStart + k];
          context[contextStart + k] = acc;
        }
      }
    }
    return { context: context, weights: weights };
  };

  /* 3장 8단계: GELU 피드포워드 + 잔차 + LayerNorm. x: rows개 벡터. */
  BertModel.prototype.feedForward = function (x, rows, layer) {
    var size = this.hiddenSize, inner = this.intermediateSize, tensors = this.tensors, prefix = "bert.encoder.layer." + layer + ".";
    var expanded = linear(x, rows, size, tensors[prefix + "intermediate.dense.weight"], tensors[prefix + "intermediate.dense.bias"],
                          inner, new Float32Array(rows * inner));
    gelu(expanded, rows * inner);
    var out = linear(expanded, rows, inner, tensors[prefix + "output.dense.weight"], tensors[prefix + "output.dense.bias"], size,
                     new Float32Array(rows * size));
    for (var k = 0; k < rows * size; k++) out[k] += x[k];  // 잔차
    return layerNorm(out, rows, size, tensors[prefix + "output.LayerNorm.weight"], tensors[prefix + "output.LayerNorm.bias"],
                     this.layerNormEps);
  };

  /* 인코더 층 하나: 셀프 어텐션 → 출력 투영 + 잔차 + LayerNorm(7단계) → 피드포워드. queryRows를 주면 그 토큰들만 내보낸다. */
  BertModel.prototype.encoderLayer = function (x, n, layer, keyMask, queryRows) {
    var size = this.hiddenSize, tensors = this.tensors, prefix = "bert.encoder.layer." + layer + ".attention.output.";
    var attention = this.selfAttention(x, n, layer, keyMask, queryRows);
    var rows = queryRows ? queryRows.length : n, residual = pickRows(x, size, queryRows);
    var projected = linear(attention.context, rows, size, tensors[prefix + "dense.weight"], tensors[prefix + "dense.bias"], size,
                           new Float32Array(rows * size));
    for (var k = 0; k < rows * size; k++) projected[k] += residual[k];   // 잔차
    layerNorm(projected, rows, size, tensors[prefix + "LayerNorm.weight"], tensors[prefix + "LayerNorm.bias"], this.layerNormEps);
    return { hidden: this.feedForward(projected, rows, layer), weights: attention.weights };
  };

  /* attentionMask(1 = 실제 토큰, 0 = [PAD])를 키마다 더할 값으로. 없으면 모두 0. */
  function keyMaskFrom(attentionMask, n) {
    var mask = new Float32Array(n);
    for (var j = 0; j < n; j++) mask[j] = attentionMask && !attentionMask[j] ? MASKED_SCORE : 0;
    return mask;
  }

  /*
   * ids → {hidden: [numLayers+1개 Float32Array(n·hiddenSize)], attentions: [numLayers개 Float32Array(numHeads·n·n)], n, ms}.
   * hidden[0]은 임베딩 출력, hidden[ℓ]은 ℓ번째 층을 지난 벡터 (파이썬의 outputs.hidden_states와 같은 번호).
   * attentions[ℓ][h·n·n + i·n + j] = 층 ℓ, 헤드 h에서 질의 i가 키 j에 준 가중치 (outputs.attentions[ℓ][0, h, i, j]).
   */
  BertModel.prototype.forward = function (ids, attentionMask) {
    this.checkIds(ids);
    var clock = typeof performance !== "undefined" ? performance : Date, start = clock.now();
    var n = ids.length, keyMask = keyMaskFrom(attentionMask, n);
    var x = this.embed(ids), hidden = [x], attentions = [];
    for (var layer = 0; layer < this.numLayers; layer++) {
      var out = this.encoderLayer(x, n, layer, keyMask, null);
      attentions.push(out.weights);
      x = out.hidden;
      hidden.push(x);
    }
    return { hidden: hidden, attentions: attentions, n: n, ms: clock.now() - start };
  };

  /*
   * 마지막 층의 출력 가운데 토큰 position의 벡터 하나만(Float32Array(hiddenSize)). 어절 채우기처럼 한 자리의 MLM 점수만
   * 필요할 때 쓴다: 마지막 층에서는 그 자리의 질의만 계산하므로 forward보다 빠르고, 그 자리의 값은 forward와 비트까지 같다.
   */
  BertModel.prototype.lastHiddenAt = function (ids, position) {
    this.checkIds(ids);
    var n = ids.length, keyMask = keyMaskFrom(null, n), x = this.embed(ids);
    for (var layer = 0; layer < this.numLayers; layer++)
      x = this.encoderLayer(x, n, layer, keyMask, layer === this.numLayers - 1 ? [position] : null).hidden;
    return x;
  };

  /*
   * MLM 헤드로 위치 position의 어휘 점수(logit)를 계산한다: 변환 dense → GELU → LayerNorm → 디코더(단어 임베딩) + 편향.
   * lastHidden: 마지막 층의 출력(토큰 여럿을 이어 붙인 배열), position: 그 안의 토큰 번호.
   */
  BertModel.prototype.mlmLogits = function (lastHidden, position) {
    var size = this.hiddenSize, tensors = this.tensors;
    var vector = lastHidden.subarray(position * size, (position + 1) * size), z = new Float32Array(size);
    linear(vector, 1, size, tensors["cls.predictions.transform.dense.weight"], tensors["cls.predictions.transform.dense.bias"], size, z);
    gelu(z, size);
    layerNorm(z, 1, size, tensors["cls.predictions.transform.LayerNorm.weight"], tensors["cls.predictions.transform.LayerNorm.bias"],
              this.layerNormEps);
    var decoder = tensors["cls.predictions.decoder.weight"] || tensors["bert.embeddings.word_embeddings.weight"];
    return linear(z, 1, size, decoder, tensors["cls.predictions.bias"], this.vocabSize, new Float32Array(this.vocabSize));
  };

  var api = { decodeWeights: decodeWeights, BertModel: BertModel, erf: erf };
  root.BertLab = root.BertLab || {};
  root.BertLab.decodeWeights = decodeWeights;
  root.BertLab.BertModel = BertModel;
  if (typeof module === "object" && module.exports) module.exports = api;
})(typeof window !== "undefined" ? window : globalThis);
