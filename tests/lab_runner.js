/*
 * tests/test_lab.py 가 부르는 node 도우미: 실습실의 자바스크립트(토크나이저, 순전파, 계산 모듈)를 브라우저 밖에서 돌린다.
 *
 *   node tests/lab_runner.js ASSET_DIR STATIC_DIR JOBS.json OUT_PREFIX [SHARD COUNT]
 *
 * ASSET_DIR: 변환기가 만든 model-weights.js, tokenizer-vocab.js 가 있는 폴더
 * STATIC_DIR: book/_static/lab (bert-tokenizer.js, bert-model.js, lab-analysis.js, lab-state.js)
 * JOBS.json: [{"text": "...",
 *              "mask": [토큰 위치...]   (선택: 눌러서 가린 자리, 실습실과 같이 analysis.analyze가 반영)
 *              "forward": false       (선택: 토큰화만)
 *              "hidden": true         (선택: hidden_states도 .bin에)
 *              "analysis": true       (선택: 토큰 종류, 어절 묶음, 어절 어텐션(.bin), 되풀이 단어, 유사도 계열)
 *              "fill_word": true}]    (선택: 어절 채우기 상위 5개)
 * 결과: OUT_PREFIX.json (작업마다 ids, tokens, error, fill, … 그리고 .bin 안의 자리) 와
 *       OUT_PREFIX.bin (float32: 작업마다 어텐션 L·heads·n·n, hidden이면 (L+1)·n·H, analysis면 어절 어텐션 L·heads·G·G)
 * SHARD/COUNT를 주면 작업 번호 % COUNT == SHARD 인 것만 한다(두 코어에 나눠 돌리기).
 */
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const [assetDir, staticDir, jobsPath, outPrefix, shardArg, countArg] = process.argv.slice(2);
const shard = Number(shardArg || 0), count = Number(countArg || 1);

globalThis.window = globalThis;
function runScript(file) {
  const raw = fs.readFileSync(file);
  // 가중치 파일은 UTF-16LE(BOM FF FE)이고, 나머지는 UTF-8이다. 브라우저가 하는 대로 BOM을 보고 고른다.
  const text = raw[0] === 0xff && raw[1] === 0xfe ? raw.toString("utf16le", 2)
    : raw.toString("utf8").replace(/^\uFEFF/, "");
  vm.runInThisContext(text, { filename: file });
}
runScript(path.join(assetDir, "tokenizer-vocab.js"));
runScript(path.join(assetDir, "model-weights.js"));
for (const name of ["bert-tokenizer.js", "bert-model.js", "lab-analysis.js", "lab-state.js"]) runScript(path.join(staticDir, name));

const analysis = window.BertLab.analysis;
const t0 = performance.now();
const tok = new window.BertLab.BertTokenizer(window.BERTLAB_LAB_TOKENIZER);
const model = new window.BertLab.BertModel(window.BertLab.decodeWeights(window.BERTLAB_LAB_WEIGHTS));
const loadMs = performance.now() - t0;

const jobs = JSON.parse(fs.readFileSync(jobsPath, "utf8"));
const results = [];
const chunks = [];
let offset = 0;
let forwardMs = 0;
function dump(array) {
  const start = offset;
  chunks.push(Buffer.from(array.buffer, array.byteOffset, array.byteLength));
  offset += array.length;
  return start;
}

jobs.forEach((job, index) => {
  if (index % count !== shard) return;
  const enc = tok.encode(job.text);
  const res = { index, ids: enc.ids, tokens: enc.tokens, input_ids: enc.ids };
  if (job.forward !== false) {
    try {
      const run = analysis.analyze(model, tok, job.text, job.mask || []);
      res.input_ids = run.ids;
      res.masked = run.masked;
      res.error = run.error;
      res.message = run.message;
      // 실습실은 빈 문장을 돌리지 않지만, 순전파 시험을 위해 [CLS] [SEP] 도 돌린다
      const out = run.out || (run.error === "empty" ? model.forward(run.ids) : null);
      if (out) {
        forwardMs += out.ms;
        res.attn_offset = offset;
        for (const a of out.attentions) dump(a);
        if (job.hidden) {
          res.hidden_offset = offset;
          for (const h of out.hidden) dump(h);
        }
      }
      if (run.out) {
        res.fill = run.fill.map(f => ({
          position: f.position, ids: f.top.map(x => x.id), tokens: f.top.map(x => tok.vocab[x.id]),
          probs: f.top.map(x => x.prob), logits: f.top.map(x => x.logit), cont_mass: f.continuationShare,
        }));
      }
      if (run.out && job.analysis) {
        res.kinds = run.kinds;
        res.groups = run.groups.map(g => ({ members: g.members, label: g.label, special: g.special }));
        res.word_attn_offset = offset;
        for (let layer = 0; layer < model.numLayers; layer++)
          for (let head = 0; head < model.numHeads; head++) dump(analysis.attentionMatrix(run, layer, head, "words").A);
        res.repeated = run.repeated.map(g => ({ id: g.id, token: g.token, positions: g.positions }));
        res.similarity = run.repeated.map((g, k) => analysis.similarityPanel(run, k, model.hiddenSize).series);
      }
      if (job.fill_word) {
        const stats = {}, start = performance.now(), cpu = process.cpuUsage();
        try {
          // 후보 전체(k = 50)를 돌려준다: 상위 5개는 그 앞 다섯(실습실은 k = 5로 부르며, 정렬한 뒤 자르므로 같다)
          res.fill_word = analysis.fillWord(model, tok, job.text, 50, { stats }).map(c => [c.word, c.score, c.pieces]);
        } catch (err) {
          res.fill_word_error = { code: err.code || null, message: err.message };
        }
        res.fill_word_ms = performance.now() - start;
        const used = process.cpuUsage(cpu);
        res.fill_word_cpu_ms = (used.user + used.system) / 1000;   // 다른 프로세스와 코어를 나눌 때는 벽시계보다 이것이 믿을 만하다
        res.fill_word_forwards = stats.forwards;
      }
    } catch (err) {
      res.error = err.message;
      res.error_code = err.code || null;
    }
  }
  results.push(res);
});

// 계산 모듈 밖의 것: 주소와 상태(lab-state.js)가 오가는지, 어절 채우기의 조각 목록
const extras = {};
if (shard === 0) {
  const State = window.BertLab.state;
  const state = State.fromQuery("?text=" + encodeURIComponent("배 [MASK] & ?=#%") + "&mask=5,2,x,2", "기본");
  extras.state = { parsed: state, query: State.toQuery(state), default_text: State.fromQuery("", "기본").text,
                   toggled: State.toggleMask(State.toggleMask(State.fromQuery("?text=a&mask=3"), 1), 3).masked };
  const sets = analysis.wordPieceSets(tok);
  extras.word_pieces = { first: Array.from(sets.first), continuation: Array.from(sets.continuation) };
}
fs.writeFileSync(outPrefix + ".bin", Buffer.concat(chunks));
fs.writeFileSync(outPrefix + ".json", JSON.stringify({ load_ms: loadMs, forward_ms: forwardMs, results, extras }));
