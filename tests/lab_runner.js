/*
 * tests/test_lab.py 가 부르는 node 도우미: 실습실의 자바스크립트(토크나이저, 순전파, MLM)를 브라우저 밖에서 돌린다.
 *
 *   node tests/lab_runner.js ASSET_DIR STATIC_DIR JOBS.json OUT_PREFIX [SHARD COUNT]
 *
 * ASSET_DIR: 변환기가 만든 model-weights.js, tokenizer-vocab.js 가 있는 폴더
 * STATIC_DIR: book/_static/lab (bert-tokenizer.js, bert-model.js)
 * JOBS.json: [{"text": "...", "mask": [토큰 위치...] (선택), "hidden": true (선택), "forward": false (선택)}]
 * 결과: OUT_PREFIX.json (작업마다 ids, tokens, error, fill, 그리고 .bin 안의 자리) 와
 *       OUT_PREFIX.bin (float32: 작업마다 어텐션 L·heads·n·n, hidden이면 이어서 (L+1)·n·H)
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
runScript(path.join(staticDir, "bert-tokenizer.js"));
runScript(path.join(staticDir, "bert-model.js"));

const t0 = performance.now();
const tok = new window.BertLab.BertTokenizer(window.BERTLAB_LAB_TOKENIZER);
const model = new window.BertLab.BertModel(window.BertLab.decodeWeights(window.BERTLAB_LAB_WEIGHTS));
const loadMs = performance.now() - t0;

const jobs = JSON.parse(fs.readFileSync(jobsPath, "utf8"));
const results = [];
const chunks = [];
let offset = 0;
let forwardMs = 0;
jobs.forEach((job, index) => {
  if (index % count !== shard) return;
  const enc = tok.encode(job.text);
  const ids = enc.ids.slice();
  for (const p of job.mask || []) ids[p] = tok.maskId;
  const res = { index, ids: enc.ids, tokens: enc.tokens, input_ids: ids };
  if (job.forward !== false) {
    try {
      const out = model.forward(ids);
      forwardMs += out.ms;
      res.attn_offset = offset;
      for (const a of out.attentions) { chunks.push(Buffer.from(a.buffer, a.byteOffset, a.byteLength)); offset += a.length; }
      if (job.hidden) {
        res.hidden_offset = offset;
        for (const h of out.hidden) { chunks.push(Buffer.from(h.buffer, h.byteOffset, h.byteLength)); offset += h.length; }
      }
      const masks = [];
      ids.forEach((id, i) => { if (id === tok.maskId) masks.push(i); });
      res.fill = model.fillMask(out.hidden[out.hidden.length - 1], masks, 5, tok.continuationMask()).map(f => ({
        position: f.position, ids: f.top.map(x => x.id), tokens: f.top.map(x => tok.vocab[x.id]),
        probs: f.top.map(x => x.prob), logits: f.top.map(x => x.logit), cont_mass: f.contMass,
      }));
    } catch (err) {
      res.error = err.message;
      res.error_code = err.code || null;
    }
  }
  results.push(res);
});
fs.writeFileSync(outPrefix + ".bin", Buffer.concat(chunks));
fs.writeFileSync(outPrefix + ".json", JSON.stringify({ load_ms: loadMs, forward_ms: forwardMs, results }));
