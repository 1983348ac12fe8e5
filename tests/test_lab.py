"""실습실(book/lab.md)의 자바스크립트가 파이썬(transformers)과 같은 답을 내는지 node로 확인한다.

- 변환기(book/_ext/lab_assets.py)로 번들 미니 BERT를 임시 폴더에 변환하고, tests/lab_runner.js 로
  토크나이저·순전파·계산 모듈(book/_static/lab/lab-analysis.js)을 node에서 돌린다(두 코어에 나눠서).
- 쪽이 보여 주는 계산마다 파이썬이 따로 계산한 값과 견준다: 토큰 id, 어텐션, 가린 단어 맞히기(상위 5개, ## 조각의 몫),
  어절 묶음(토크나이저의 word_ids)과 어절 어텐션(numpy 행렬곱), 되풀이 단어와 코사인 유사도 계열(numpy),
  어절 채우기(bertlab.models.fill_word, 수용 세트 106문장).
- 문장: 번들 감성 데이터(test.tsv, validation.tsv: 있는 행을 모두 csv로 읽음)와 다의어 문장(senses_ko.tsv),
  이상한 문장(빈 문자열, 공백만, 이모지, 라틴 문자, 숫자, ㅋㅋ, 한자, 제어 문자, [MASK], 128토큰이 넘는 문장),
  그리고 그 문장들의 어절 하나(또는 둘)를 [MASK]로 바꾼 문장.
- 기준: 토큰 id는 완전히 같아야 한다. 어텐션은 ATTN_TOL 안. 가중치 형식(행마다 균등 양자화 + 허프만)의 오차가
  이 허용치를 정한다: 같은 (양자화된) 가중치를 넣은 파이썬 모델과는 EXACT_TOL(1e-4) 안에서 같아야 하고
  (순전파 자체는 정확하다), 원래 float 가중치의 파이썬 모델과의 차이는 양자화 오차다(README와 book/_static/lab/README.md
  에 잰 값을 적어 둠). 채우기: 상위 1개가 같고 상위 5개 중 4개 이상이 겹쳐야 한다. 단, 파이썬의 1위와 2위 점수 차가
  가중치 형식이 내는 점수 오차(LOGIT_TOL)보다 작은 '동점'이면 자바스크립트의 1위가 그 동점 후보 안에 있으면 된다.
"""
from __future__ import annotations

import csv
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import unicodedata
from pathlib import Path
from urllib.parse import quote

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import lab_assets  # noqa: E402

MODEL_DIR = ROOT / "bertlab" / "assets" / "mini-bert"
STATIC = ROOT / "book" / "_static" / "lab"
RUNNER = ROOT / "tests" / "lab_runner.js"
SENTIMENT = ROOT / "bertlab" / "assets" / "sentiment"
SENSES = ROOT / "bertlab" / "assets" / "text" / "senses_ko.tsv"
ACCEPTANCE = ROOT / "bertlab" / "assets" / "text" / "fillmask_acceptance_ko.tsv"

# 잰 값(번들 모델, k≈181, 2026-11-28): 어텐션 최대 오차 약 4.1e-3, MLM 점수(logit) 최대 오차 약 0.017.
ATTN_TOL = 6e-3       # 원래 float 가중치의 파이썬 모델과 비교한 어텐션 가중치의 최대 절대 오차
LOGIT_TOL = 0.06      # MLM 점수의 최대 절대 오차(이보다 작은 1·2위 차이는 동점으로 본다)
EXACT_TOL = 1e-4      # 같은 가중치를 넣은 파이썬 모델과의 차이 (순전파 자체의 오차)
COS_TOL = 5e-3        # 코사인 유사도(자바스크립트 hidden 대 파이썬 hidden)의 최대 절대 오차
LAB_BYTES_LIMIT = 8_000_000
MASK = "[MASK]"

ODD = [
    "", " ", "   \t\n ", "🥰", "배 🥰 먹으니 😀😀 좋다 ㅋㅋㅋ", "Hello World! BERT is fun.", "abc DEF ghi",
    "1234567890 3.14 -42 1,000원 ₩5000", "ㅋㅋㅋㅋ ㅎㅎ ㅠㅠ", "中文字 漢字 韓國語", "a\u0000b\u0001c\u200bd\ufffde\u00adf",
    "탭\t줄바꿈\n캐리지\r리턴\u3000전각공백\u2028줄구분", "[MASK]", "[MASK][MASK]", "a[MASK]b", "[mask] [ MASK ] [MASK",
    "[CLS] 특수 [SEP] 토큰 [PAD] [UNK]", "배를 [MASK] 먹으니 배가 부르다.", "👩‍👩‍👧 가족 🇰🇷 국기", "é è ê ü ñ Å",
    "x" * 150, "가" * 120 + " 끝", "뭐지??!! ...... ~~~ (괄호) [대괄호] {중괄호} <꺾쇠>", "\"인용\" '작은' 「낫표」 『겹낫표』",
    "<img src=x onerror=alert(1)>", "</script><script>alert(1)</script>", "\U0001F9D1\u200D\U0001F4BB 코딩",
]


def _read_column(path: Path, column: str) -> list[str]:
    with open(path, encoding="utf-8", newline="") as fh:
        return [row[column] for row in csv.DictReader(fh, delimiter="\t") if row.get(column)]


def _sentences() -> list[str]:
    out: list[str] = []
    for path, column in ((SENTIMENT / "test.tsv", "text"), (SENTIMENT / "validation.tsv", "text"), (SENSES, "sentence")):
        assert path.exists(), f"저장소에 실린 문장 파일이 없습니다: {path}"
        out += _read_column(path, column)
    return list(dict.fromkeys(out))


def _repeat_pairs(n: int = 80, seed: int = 0) -> list[str]:
    """다의어 문장 둘을 잇는다(같은 단어, 다른 뜻이 많음): 같은 단어 첫 조각이 두 번 이상 나와 유사도 그림이 생기는 문장."""
    with open(SENSES, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    by_word: dict[str, list[str]] = {}
    for row in rows:
        by_word.setdefault(row["word"], []).append(row["sentence"])
    rng = random.Random(seed)
    words = sorted(by_word)
    out = []
    for i in range(n):
        a, b = rng.sample(by_word[words[i % len(words)]], 2)
        out.append(f"{a} {b}")
    return list(dict.fromkeys(out))


def _acceptance() -> list[str]:
    from bertlab.minibert.acceptance import read_acceptance

    assert ACCEPTANCE.exists(), f"수용 세트가 없습니다: {ACCEPTANCE}"
    return [row["sentence"] for row in read_acceptance(ACCEPTANCE)]


# 어절 채우기가 한국어 메시지로 거절해야 하는 문장과, 받아야 하는 문장(파이썬 fill_word와 같은 조건)
WORD_CASES = ["", "   ", "오늘 날씨가 좋다.", "[MASK] [MASK] 먹었다.", "냉장고에 [MASK]가 없다.", "냉장고에[MASK] 없다.",
              "a[MASK] b", "가\n[MASK] 나", "[MASK]", "[MASK].", "\"[MASK]\" 라고 했다.", "배 타고 배 먹으니 [MASK] 부르다.", "[mask] 소문자는 [MASK] 아니다."]


def _mask_words(sentences: list[str], n: int, seed: int = 0) -> list[str]:
    """문장의 어절 하나(셋에 하나꼴로 둘)를 [MASK]로 바꾼다. 어절 끝의 문장 부호는 남긴다."""
    rng = random.Random(seed)
    picked = rng.sample(sentences, min(n, len(sentences)))
    out = []
    for s in picked:
        words = s.split()
        k = 2 if len(words) >= 4 and rng.random() < 1 / 3 else 1
        for i in rng.sample(range(len(words)), k):
            m = re.match(r"^(.*?)([.,!?~…]*)$", words[i])
            words[i] = MASK + m.group(2)
        out.append(" ".join(words))
    return out


LONG = " ".join(["배 타고 배 먹으니 배 부르다."] * 15)  # 150토큰이 넘는다


@pytest.fixture(scope="module")
def node():
    exe = shutil.which("node")
    assert exe, "node가 없습니다: 실습실의 자바스크립트 시험에는 node(18 이상)가 필요합니다(bash scripts/setup.sh가 설치)"
    return exe


@pytest.fixture(scope="module")
def assets(tmp_path_factory):
    assert (MODEL_DIR / "model.safetensors").exists(), f"번들 미니 BERT가 없습니다: {MODEL_DIR}"
    out = tmp_path_factory.mktemp("lab-assets")
    return lab_assets.convert(MODEL_DIR, out, return_weights=True)


@pytest.fixture(scope="module")
def hf():
    import transformers

    tok = transformers.AutoTokenizer.from_pretrained(MODEL_DIR)
    model = transformers.BertForPreTraining.from_pretrained(MODEL_DIR, attn_implementation="eager").eval()
    return tok, model


def _start_node(node, asset_dir: Path, jobs: list[dict], work: Path, shards: int = 2):
    """node 프로세스를 shards개 띄운다(기다리지 않음). _collect_node로 결과를 모은다."""
    jobs_path = work / "jobs.json"
    jobs_path.write_text(json.dumps(jobs, ensure_ascii=False), encoding="utf-8")
    procs = []
    for shard in range(shards):
        prefix = work / f"out{shard}"
        procs.append((prefix, subprocess.Popen([node, str(RUNNER), str(asset_dir), str(STATIC), str(jobs_path), str(prefix),
                                                str(shard), str(shards)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
    return procs


def _collect_node(procs, with_extras: bool = False):
    results, extras = [], {}
    for prefix, proc in procs:
        _, err = proc.communicate(timeout=900)
        assert proc.returncode == 0, err[-3000:]
        meta = json.loads(Path(f"{prefix}.json").read_text(encoding="utf-8"))
        data = np.fromfile(f"{prefix}.bin", dtype=np.float32)
        for r in meta["results"]:
            r["_data"] = data
        results += meta["results"]
        extras.update(meta.get("extras") or {})
    results = sorted(results, key=lambda r: r["index"])
    return (results, extras) if with_extras else results


def _run_node(node, asset_dir: Path, jobs: list[dict], work: Path, shards: int = 2) -> list[dict]:
    return _collect_node(_start_node(node, asset_dir, jobs, work, shards))


def _python_outputs(model, tok, texts: list[str], batch: int = 64):
    """길이가 비슷한 문장끼리 묶어 파이썬 모델을 돌린다. 문장마다 (ids, 어텐션 [L,h,n,n], hidden [L+1,n,H], logits[n,V])."""
    import torch

    encoded = [tok(t)["input_ids"] for t in texts]
    order = sorted(range(len(texts)), key=lambda i: (tok.mask_token_id in encoded[i], len(encoded[i])))
    out = [None] * len(texts)
    with torch.no_grad():   # 비교만 하므로 기울기는 필요 없다
        for start in range(0, len(order), batch):
            idx = order[start:start + batch]
            n = max(len(encoded[i]) for i in idx)
            ids = torch.zeros(len(idx), n, dtype=torch.long)
            att = torch.zeros(len(idx), n, dtype=torch.long)
            for row, i in enumerate(idx):
                ids[row, :len(encoded[i])] = torch.tensor(encoded[i])
                att[row, :len(encoded[i])] = 1
            if (ids == tok.mask_token_id).any():   # BertForPreTraining 전체: 어휘 점수(prediction_logits)까지
                o = model(input_ids=ids, attention_mask=att, output_attentions=True, output_hidden_states=True)
                logits = o.prediction_logits
            else:                                   # [MASK]가 없으면 점수는 쓰지 않으므로 같은 모델의 인코더(model.bert)만
                o = model.bert(input_ids=ids, attention_mask=att, output_attentions=True, output_hidden_states=True)
                logits = None
            A = torch.stack(o.attentions, dim=1).numpy()          # [B, L, h, n, n]
            Hs = torch.stack(o.hidden_states, dim=1).numpy()      # [B, L+1, n, H]
            for row, i in enumerate(idx):
                m = len(encoded[i])
                mpos = [p for p, t in enumerate(encoded[i]) if t == tok.mask_token_id]
                out[i] = {"ids": encoded[i], "attn": A[row, :, :, :m, :m], "hidden": Hs[row, :, :m],
                          "mask_logits": {p: logits[row, p].numpy().copy() for p in mpos}}
            del o, logits
    return out


BAE = "배 타고 배 먹으니 배 부르다."
N_FORWARD = 500   # 순전파(어텐션)까지 비교할 문장 수. 토큰 id는 모든 문장에서 비교한다.


@pytest.fixture(scope="module")
def corpus():
    sentences = _sentences()
    masked = _mask_words(sentences, 120) + ["배 타고 배 먹으니 [MASK] 부르다.", "오늘 날씨가 [MASK] 좋다."]
    step = max(1, len(sentences) / N_FORWARD)                # 두 데이터에서 고르게
    forward = list(dict.fromkeys([sentences[int(i * step)] for i in range(min(N_FORWARD, len(sentences)))] + [BAE]))
    return {"sentences": sentences, "masked": masked, "forward": forward, "pairs": _repeat_pairs(),
            "acceptance": _acceptance()}


def _analysed(corpus) -> list[str]:
    """순전파와 계산 모듈의 모든 값(어절 묶음, 어절 어텐션, 되풀이 단어, 유사도)까지 비교하는 문장."""
    return list(dict.fromkeys(corpus["forward"] + corpus["masked"] + corpus["pairs"] + ODD))


def _js_texts(corpus) -> tuple[list[str], set[str], set[str]]:
    run = set(_analysed(corpus) + [LONG])
    words = set(corpus["acceptance"] + WORD_CASES)
    texts = list(dict.fromkeys(corpus["sentences"] + _analysed(corpus) + [LONG] + corpus["acceptance"] + WORD_CASES))
    return texts, run, words


@pytest.fixture(scope="module")
def node_jobs(node, assets, corpus, tmp_path_factory):
    """자바스크립트 쪽을 먼저 띄워 두고(두 코어), 그동안 파이썬 쪽을 계산한다."""
    texts, run, words = _js_texts(corpus)
    jobs = [{"text": t, "hidden": t == BAE or t in corpus["pairs"], "forward": t in run or t in words,
             "analysis": t in run, "fill_word": t in words} for t in texts]
    return _start_node(node, assets["weights_path"].parent, jobs, tmp_path_factory.mktemp("lab-node"))


@pytest.fixture(scope="module")
def py_results(node_jobs, hf, corpus):
    tok, model = hf
    texts = [t for t in _analysed(corpus) if len(tok(t)["input_ids"]) <= model.config.max_position_embeddings]
    return dict(zip(texts, _python_outputs(model, tok, texts)))


@pytest.fixture(scope="module")
def py_words(node_jobs, corpus):
    """파이썬의 어절 채우기(bertlab.models.fill_word): 원래 float 가중치의 모델로, 후보 전체(k=50)."""
    import transformers

    from bertlab.models import fill_word

    tok = transformers.AutoTokenizer.from_pretrained(MODEL_DIR)
    mlm = transformers.BertForMaskedLM.from_pretrained(MODEL_DIR, attn_implementation="eager").eval()
    out = {}
    with _OneThread():
        for t in dict.fromkeys(corpus["acceptance"] + WORD_CASES):
            try:
                out[t] = fill_word(mlm, tok, t, k=50)
            except ValueError as err:
                out[t] = err
    return out


@pytest.fixture(scope="module")
def js_all(node_jobs, py_results, py_words, corpus):
    texts, _, _ = _js_texts(corpus)
    results, extras = _collect_node(node_jobs, with_extras=True)
    return dict(zip(texts, results)), extras


@pytest.fixture(scope="module")
def js_results(js_all):
    return js_all[0]


def test_enough_sentences(corpus):
    assert len(corpus["sentences"]) >= 500, f"비교할 문장이 {len(corpus['sentences'])}개뿐입니다(500개 이상이어야 함)"
    assert len(corpus["forward"]) >= 500
    masked = [t for t in corpus["masked"] if MASK in t]
    assert len(masked) >= 50


def test_token_ids_identical(hf, corpus, js_results):
    tok, _ = hf
    texts = list(dict.fromkeys(corpus["sentences"] + corpus["forward"] + corpus["masked"] + ODD + [LONG]))
    bad = []
    for t in texts:
        want = tok(t)["input_ids"]
        got = js_results[t]["ids"]
        if got != want or js_results[t]["tokens"] != tok.convert_ids_to_tokens(want):
            bad.append((t, want, got))
    assert not bad, f"{len(bad)}/{len(texts)}개 문장의 토큰 id가 다릅니다. 예: {bad[:3]}"


def test_attention_matches_python(py_results, js_results):
    worst, where, count = 0.0, None, 0
    for t, py in py_results.items():
        r = js_results[t]
        A = py["attn"]
        got = r["_data"][r["attn_offset"]:r["attn_offset"] + A.size].reshape(A.shape)
        err = float(np.abs(got - A).max())
        np.testing.assert_allclose(got.sum(-1), 1.0, atol=1e-5)
        count += 1
        if err > worst:
            worst, where = err, t
    print(f"\n어텐션 최대 오차 {worst:.2e} ({count}개 문장, 가장 큰 곳: {where!r})")
    assert count >= min(N_FORWARD, len(py_results))
    assert worst <= ATTN_TOL, f"어텐션 최대 오차 {worst:.2e} > {ATTN_TOL} ({where!r})"


def _top(logits: np.ndarray, k: int = 5) -> list[int]:
    return [int(i) for i in np.argsort(-logits, kind="stable")[:k]]


def test_fill_mask_matches_python(hf, corpus, py_results, js_results):
    tok, _ = hf
    vocab = tok.convert_ids_to_tokens(list(range(len(tok))))
    cont = np.array([t.startswith("##") and len(t) > 2 for t in vocab])   # 실습실이 '## 조각에 간 확률'로 더하는 토큰
    n_masks, exact, ties, overlaps, worst_logit, worst_cont = 0, 0, [], [], 0.0, 0.0
    for t in corpus["masked"] + [o for o in ODD if MASK in o]:
        py, js = py_results[t], js_results[t]
        positions = sorted(py["mask_logits"])
        assert [f["position"] for f in js["fill"]] == positions, t
        for f in js["fill"]:
            logits = py["mask_logits"][f["position"]]
            want = _top(logits)
            got = f["ids"]
            n_masks += 1
            overlaps.append(len(set(want) & set(got)))
            worst_logit = max(worst_logit, float(np.abs(np.array(f["logits"]) - logits[got]).max()))
            np.testing.assert_allclose(np.array(f["probs"]).sum() <= 1 + 1e-6, True)
            probs = np.exp(logits - logits.max())
            worst_cont = max(worst_cont, abs(f["cont_mass"] - float(probs[cont].sum() / probs.sum())))
            if got[0] == want[0]:
                exact += 1
            else:
                tied = [i for i in want if logits[want[0]] - logits[i] < LOGIT_TOL]
                ties.append((t, tok.convert_ids_to_tokens(want[:2]), float(logits[want[0]] - logits[want[1]])))
                assert got[0] in tied, f"{t!r}: 1위가 다릅니다: 파이썬 {tok.convert_ids_to_tokens(want)}, JS {f['tokens']}"
    print(f"\n[MASK] {n_masks}개: 1위 일치 {exact}개, 동점이라 허용 {len(ties)}개 {ties}; "
          f"상위 5개 겹침 최소 {min(overlaps)}, 평균 {np.mean(overlaps):.2f}; 점수 최대 오차 {worst_logit:.3f}; "
          f"## 조각 확률 합의 최대 오차 {worst_cont:.4f}")
    assert n_masks >= 50
    assert min(overlaps) >= 4
    assert worst_logit <= LOGIT_TOL
    assert worst_cont <= 0.01


def test_contextual_similarity_matches_python(hf, assets, js_results, py_results):
    """5장의 보기: 같은 토큰 '배' 세 번 사이의 코사인 유사도를 층마다."""
    tok, model = hf
    t = BAE
    r, py = js_results[t], py_results[t]
    L, H = model.config.num_hidden_layers, model.config.hidden_size
    n = len(r["ids"])
    hid = r["_data"][r["hidden_offset"]:r["hidden_offset"] + (L + 1) * n * H].reshape(L + 1, n, H)
    bae = [i for i, tk in enumerate(r["tokens"]) if tk == "배"]
    assert len(bae) == 3

    def cos(h, a, b):
        return float(h[a] @ h[b] / (np.linalg.norm(h[a]) * np.linalg.norm(h[b])))

    for layer in range(L + 1):
        for a, b in [(bae[0], bae[1]), (bae[0], bae[2]), (bae[1], bae[2])]:
            assert abs(cos(hid[layer], a, b) - cos(py["hidden"][layer], a, b)) < 5e-3


# --- 계산 모듈(lab-analysis.js)을 파이썬의 따로 쓴 계산과 ------------------------------------------------

class _OneThread:
    """fill_word는 작은 배치를 여러 번 돌리므로 torch 스레드 하나가 빠르다(node 두 개가 코어를 쓰는 동안 스레드끼리 다투지 않게)."""

    def __enter__(self):
        import torch

        self.before = torch.get_num_threads()
        torch.set_num_threads(1)

    def __exit__(self, *exc):
        import torch

        torch.set_num_threads(self.before)


def _py_groups(tok, text: str) -> list[list[int]]:
    """파이썬의 어절 묶음: 토크나이저가 알려 주는 단어 번호(word_ids)가 같은 토큰끼리. 특수 토큰([CLS], [MASK] 등)은 혼자."""
    word_ids = tok(text).word_ids()
    groups: list[list[int]] = []
    for i, w in enumerate(word_ids):
        if w is not None and i and word_ids[i - 1] == w:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _py_word_attention(A: np.ndarray, groups: list[list[int]]) -> np.ndarray:
    """[..., n, n] 어텐션을 어절 단위로: W = P A Pᵀ / |I| (P: 어절 × 토큰의 0/1 행렬). 키는 더하고 질의는 평균."""
    P = np.zeros((len(groups), A.shape[-1]))
    for g, members in enumerate(groups):
        P[g, members] = 1.0
    return (P @ A.astype(np.float64) @ P.T) / P.sum(1)[:, None]


def test_word_groups_and_word_attention_match_python(hf, corpus, py_results, js_results):
    """어절 보기: 묶음(토큰 번호, 이름표)이 word_ids와 같고, 어절 어텐션이 numpy의 P A Pᵀ / |I| 와 같다.
    같은 (자바스크립트의) 어텐션에서 계산하면 1e-5 안에서, 파이썬 모델의 어텐션에서 계산하면 ATTN_TOL 안에서."""
    tok, model = hf
    L, heads = model.config.num_hidden_layers, model.config.num_attention_heads
    n_sent = n_merged = 0
    worst_same = worst_py = 0.0
    for t, py in py_results.items():
        r = js_results[t]
        if r["error"] == "empty":   # 실습실은 빈 문장을 분석하지 않는다(그림 없이 안내만)
            assert len(py["ids"]) == 2
            continue
        groups = _py_groups(tok, t)
        assert [g["members"] for g in r["groups"]] == groups, (t, r["groups"], groups)
        labels = [tok.decode([py["ids"][i] for i in g]).replace(" ", "") for g in groups]
        assert [g["label"] for g in r["groups"]] == labels, t
        n, G = len(py["ids"]), len(groups)
        A_js = r["_data"][r["attn_offset"]:r["attn_offset"] + L * heads * n * n].reshape(L, heads, n, n)
        W_js = r["_data"][r["word_attn_offset"]:r["word_attn_offset"] + L * heads * G * G].reshape(L, heads, G, G)
        worst_same = max(worst_same, float(np.abs(W_js - _py_word_attention(A_js, groups)).max()))
        worst_py = max(worst_py, float(np.abs(W_js - _py_word_attention(py["attn"], groups)).max()))
        np.testing.assert_allclose(W_js.sum(-1), 1.0, atol=1e-5)
        n_sent += 1
        n_merged += G < n
    print(f"\n어절 어텐션: 문장 {n_sent}개(## 조각을 합친 문장 {n_merged}개), 같은 어텐션에서 최대 차이 {worst_same:.1e}, "
          f"파이썬 모델의 어텐션에서 {worst_py:.1e}")
    assert n_sent >= 500 and n_merged >= 400
    assert worst_same <= 1e-5
    assert worst_py <= ATTN_TOL


def test_similarity_series_match_python(hf, corpus, py_results, js_results):
    """같은 단어, 다른 문맥: 되풀이 단어(토큰 id와 자리)와 쌍마다 hidden_states별 코사인 유사도가 파이썬(numpy, float64)과 같다."""
    tok, model = hf
    L = model.config.num_hidden_layers
    n_sent = n_pairs = 0
    worst = worst_same = 0.0
    for t, py in py_results.items():
        r = js_results[t]
        if r["error"] == "empty":   # 실습실은 빈 문장을 분석하지 않는다(그림 없이 안내만)
            assert len(py["ids"]) == 2
            continue
        enc = tok(t)
        word_ids, ids = enc.word_ids(), enc["input_ids"]
        tokens = tok.convert_ids_to_tokens(ids)
        found: dict[int, list[int]] = {}
        for i, w in enumerate(word_ids):
            first = w is not None and (i == 0 or word_ids[i - 1] != w)
            if not first or ids[i] in tok.all_special_ids:   # [UNK], 글에 쓴 [MASK] 등은 단어 첫 조각이 아니다
                continue
            if all(unicodedata.category(c)[0] in "PS" for c in tokens[i]):
                continue
            found.setdefault(ids[i], []).append(i)
        want = sorted(((k, v[:6]) for k, v in found.items() if len(v) >= 2), key=lambda kv: (-len(kv[1]), kv[1][0]))
        assert [(g["id"], g["positions"]) for g in r["repeated"]] == want, t
        H = py["hidden"].astype(np.float64)                                   # [L+1, n, d]
        for (_, pos), series in zip(want, r["similarity"]):
            pairs = [(a, b) for x, a in enumerate(pos) for b in pos[x + 1:]]
            assert [(s["a"], s["b"]) for s in series] == pairs
            for s in series:
                a, b = s["a"], s["b"]
                cos = (H[:, a] * H[:, b]).sum(-1) / (np.linalg.norm(H[:, a], axis=-1) * np.linalg.norm(H[:, b], axis=-1))
                assert len(s["values"]) == L + 1
                worst = max(worst, float(np.abs(np.array(s["values"]) - cos).max()))
                n_pairs += 1
            if "hidden_offset" in r:   # 같은 (자바스크립트의) hidden에서 계산하면 float 반올림 수준으로 같다
                n = len(ids)
                Hj = r["_data"][r["hidden_offset"]:r["hidden_offset"] + (L + 1) * n * H.shape[-1]].reshape(L + 1, n, -1).astype(np.float64)
                for s in series:
                    a, b = s["a"], s["b"]
                    cos = (Hj[:, a] * Hj[:, b]).sum(-1) / (np.linalg.norm(Hj[:, a], axis=-1) * np.linalg.norm(Hj[:, b], axis=-1))
                    worst_same = max(worst_same, float(np.abs(np.array(s["values"]) - cos).max()))
        n_sent += bool(want)
    print(f"\n유사도: 되풀이 단어가 있는 문장 {n_sent}개, 쌍 {n_pairs}개, 파이썬 모델과 최대 차이 {worst:.1e}, "
          f"같은 hidden에서 {worst_same:.1e}")
    assert n_sent >= 100 and n_pairs >= 120
    assert js_results[BAE]["similarity"][0][0]["a"] == 1
    assert worst <= COS_TOL and worst_same <= 1e-6


def test_word_piece_sets_match_python(hf, js_all):
    """어절 채우기의 조각 목록(첫 조각, ## 조각)이 bertlab.models._piece_sets 와 같다."""
    from bertlab.models import _piece_sets

    tok, _ = hf
    first, cont = _piece_sets(tok)
    got = js_all[1]["word_pieces"]
    assert got["first"] == first.tolist() and got["continuation"] == cont.tolist()


def test_fill_word_messages_match_python(py_words, js_results):
    """어절 채우기를 거절하는 문장(빈 문장, [MASK] 없음·둘, 조사가 붙은 [MASK])이 파이썬과 같고 메시지도 같다
    (파이썬의 'fill_word는'이 실습실에서는 '어절 채우기는')."""
    for t in WORD_CASES:
        py, js = py_words[t], js_results[t]
        if isinstance(py, ValueError):
            assert "fill_word_error" in js, (t, js.get("fill_word"))
            assert js["fill_word_error"]["message"] == str(py).replace("fill_word는", "어절 채우기는"), t
        else:
            assert "fill_word_error" not in js and len(js["fill_word"]) >= 5, (t, js.get("fill_word_error"))


WORD_TOL = LOGIT_TOL   # 어절 점수(조각 로그 확률의 합)의 허용 오차: 가린 단어 맞히기의 점수와 같은 양자화 허용치


def _pll_word_l2r(mlm, tok, text: str, pieces: list[str]) -> float:
    """어절 하나의 PLL-word-l2r 점수를 손으로: 빈칸을 [MASK] n개로 바꾸고, 조각마다 앞 조각은 채우고 그 자리와 뒤는 가린 채
    그 조각의 로그 확률을 더한다(Kauf & Ivanova 2023). fill_word의 빔 탐색 없이 주어진 조각열 하나만 잰다."""
    import torch

    left, right = text.split(tok.mask_token)
    enc = tok(left + " ".join([tok.mask_token] * len(pieces)) + right, return_tensors="pt")
    ids = enc["input_ids"][0]
    slots = (ids == tok.mask_token_id).nonzero().flatten().tolist()
    piece_ids = tok.convert_tokens_to_ids(pieces)
    batch = ids.repeat(len(pieces), 1)
    for step in range(len(pieces)):
        batch[step, slots[:step]] = torch.tensor(piece_ids[:step], dtype=batch.dtype)
    with torch.no_grad():
        logp = mlm(input_ids=batch).logits.log_softmax(-1)
    return float(sum(logp[step, slots[step], piece_ids[step]] for step in range(len(pieces))))


def test_fill_word_matches_python(py_words, js_results, corpus):
    """수용 세트 106문장에서 실습실의 어절 채우기 상위 5개가 bertlab.models.fill_word(k=5)와 같다.

    - 실습실 후보마다 그 조각열의 점수가 파이썬 모델로 손으로 잰 PLL-word-l2r 점수와 WORD_TOL 안에서 같다.
    - 두 쪽에 다 있는 어절의 점수는 WORD_TOL 안에서 같다.
    - k위의 어절이 다르면 (가) 두 쪽의 k위 점수가 WORD_TOL 안에서 같거나(순위의 동점), (나) 한쪽의 후보가 다른 쪽의 빔에서
      아예 나오지 않았다(빔의 마지막 자리를 두고 조각열이 거의 동점이었다가 양자화로 갈림). 두 어절이 양쪽 후보 목록에 다 있는데
      순서가 WORD_TOL 넘게 어긋나면 실패다.
    빔, 동점 처리, 같은 어절 합치기가 파이썬과 똑같다는 것은 test_fill_word_exact_with_same_weights 가 보인다."""
    import transformers

    tok = transformers.AutoTokenizer.from_pretrained(MODEL_DIR)
    mlm = transformers.BertForMaskedLM.from_pretrained(MODEL_DIR, attn_implementation="eager").eval()
    sentences = corpus["acceptance"]
    exact = 0
    worst = worst_hand = 0.0
    ties, beam_only, ms, cpu, forwards = [], [], [], [], []
    with _OneThread():
        for t in sentences:
            py, js = py_words[t], js_results[t]
            assert not isinstance(py, ValueError), (t, py)
            assert "fill_word_error" not in js, (t, js["fill_word_error"])
            want, got, every = py[:5], js["fill_word"][:5], js["fill_word"]
            py_scores, js_scores = dict(py), {w: sc for w, sc, _ in every}
            assert len(got) == 5 and [sc for _, sc, _ in every] == sorted((sc for _, sc, _ in every), reverse=True)
            if [w for w, _ in want] == [w for w, _, _ in got]:
                exact += 1
            for k, (word, score, pieces) in enumerate(got):
                assert word == "".join(p[2:] if i and p.startswith("##") else p for i, p in enumerate(pieces))
                hand = _pll_word_l2r(mlm, tok, t, pieces)
                worst_hand = max(worst_hand, abs(score - hand))
                assert abs(score - hand) <= WORD_TOL, (t, word, pieces, score, hand)
                if word in py_scores:
                    worst = max(worst, abs(score - py_scores[word]))
                    assert abs(score - py_scores[word]) <= WORD_TOL, (t, word, score, py_scores[word])
                other = want[k][0]
                if word == other:
                    continue
                if abs(score - want[k][1]) <= WORD_TOL:
                    ties.append((t, k + 1, word, other))
                elif word not in py_scores or other not in js_scores:
                    beam_only.append((t, k + 1, word if word not in py_scores else other))
                else:
                    pytest.fail(f"{t!r} {k + 1}위: 실습실 {word}({score:.3f}), 파이썬 {other}({want[k][1]:.3f}): "
                                f"두 어절이 양쪽 후보에 다 있는데 순서가 다릅니다. 실습실 {got}, 파이썬 {want}")
            ms.append(js["fill_word_ms"])
            cpu.append(js["fill_word_cpu_ms"])
            forwards.append(js["fill_word_forwards"])
    print(f"\n어절 채우기: {len(sentences)}문장 가운데 상위 5개가 순서까지 같은 문장 {exact}개; 다른 자리 가운데 순위 동점 "
          f"{len(ties)}개, 한쪽 빔에만 있는 후보 {len(beam_only)}개 {beam_only}; 점수 최대 차이 {worst:.4f} "
          f"(손으로 잰 파이썬 점수와 {worst_hand:.4f}); node에서 문장 하나 CPU 시간 중앙값 {statistics.median(cpu):.0f} ms, "
          f"최대 {max(cpu):.0f} ms (벽시계 중앙값 {statistics.median(ms):.0f} ms, 모델을 {statistics.median(forwards):.0f}번)")
    assert len(sentences) >= 100
    assert exact >= 0.9 * len(sentences)


def test_fill_word_exact_with_same_weights(assets, js_results, corpus):
    """같은(양자화된) 가중치를 넣은 파이썬 모델의 fill_word와는 106문장 모두 상위 5개가 순서까지 같고 점수는 EXACT_TOL 안:
    빔, 점수, 동점 처리, 같은 어절의 합치기가 파이썬과 같다는 뜻이다(남는 차이는 양자화뿐)."""
    import torch
    import transformers

    from bertlab.models import fill_word

    tok = transformers.AutoTokenizer.from_pretrained(MODEL_DIR)
    mlm = transformers.BertForMaskedLM.from_pretrained(MODEL_DIR, attn_implementation="eager").eval()
    with torch.no_grad():
        params = dict(mlm.named_parameters())
        for name, arr in assets["weights"].items():
            if name in params:
                params[name].copy_(torch.from_numpy(arr))
    assert mlm.cls.predictions.decoder.weight.data_ptr() == mlm.bert.embeddings.word_embeddings.weight.data_ptr()
    worst = 0.0
    with _OneThread():
        for t in corpus["acceptance"]:
            want, got = fill_word(mlm, tok, t, k=5), js_results[t]["fill_word"][:5]
            assert [w for w, _ in want] == [w for w, _, _ in got], (t, want, got)
            worst = max(worst, max(abs(a[1] - b[1]) for a, b in zip(want, got)))
    print(f"\n같은 가중치의 fill_word와 어절 점수 최대 차이 {worst:.1e}")
    assert worst <= EXACT_TOL


def test_lab_state_round_trip(js_all):
    """상태(lab-state.js): 주소의 ?text=…&mask=… 에서 읽고 다시 쓴다(잘못된 번호와 겹친 번호는 버림)."""
    st = js_all[1]["state"]
    text = "배 [MASK] & ?=#%"
    assert st["parsed"]["text"] == text and st["parsed"]["masked"] == [2, 5]
    assert st["query"] == "?text=" + quote(text, safe="-_.!~*'()") + "&mask=2,5"
    assert st["default_text"] == "기본" and st["toggled"] == [1]


def test_forward_exact_with_same_weights(node, hf, assets, corpus, tmp_path):
    """같은(양자화된) 가중치를 넣은 파이썬 모델과 비교: 자바스크립트의 순전파 자체는 float32 반올림 수준으로 같다."""
    import torch

    tok, model = hf
    q = type(model)(model.config).eval()
    q.load_state_dict(model.state_dict())
    restored = assets["weights"]
    with torch.no_grad():
        params = dict(q.named_parameters())
        for name, arr in restored.items():
            params[name].copy_(torch.from_numpy(arr))
        if "cls.predictions.decoder.weight" not in restored:
            assert q.cls.predictions.decoder.weight.data_ptr() == q.bert.embeddings.word_embeddings.weight.data_ptr()
    texts = corpus["sentences"][:40] + corpus["masked"][:20]
    py = _python_outputs(q, tok, texts)
    js = _run_node(node, assets["weights_path"].parent, [{"text": t, "hidden": True} for t in texts], tmp_path)
    worst = {"attn": 0.0, "hidden": 0.0, "logit": 0.0}
    for p, r in zip(py, js):
        A, Hs = p["attn"], p["hidden"]
        a = r["_data"][r["attn_offset"]:r["attn_offset"] + A.size].reshape(A.shape)
        h = r["_data"][r["hidden_offset"]:r["hidden_offset"] + Hs.size].reshape(Hs.shape)
        worst["attn"] = max(worst["attn"], float(np.abs(a - A).max()))
        worst["hidden"] = max(worst["hidden"], float(np.abs(h - Hs).max()))
        for f in r["fill"]:
            logits = p["mask_logits"][f["position"]]
            assert f["ids"] == _top(logits), "같은 가중치인데 채우기 상위 5개가 다릅니다"
            worst["logit"] = max(worst["logit"], float(np.abs(np.array(f["logits"]) - logits[f["ids"]]).max()))
    print(f"\n같은 가중치에서 최대 차이: {worst}")
    assert max(worst.values()) <= EXACT_TOL, worst


def test_too_long_and_empty(hf, js_results):
    tok, model = hf
    M = model.config.max_position_embeddings
    r = js_results[LONG]
    n = len(tok(LONG)["input_ids"])
    assert n > M and r["ids"] == tok(LONG)["input_ids"]
    assert r["error"] == "too-long", r.get("error")
    assert r["message"] == f"문장이 너무 깁니다: 토큰 {n}개, 이 모델은 최대 {M}개까지 받습니다. 문장을 줄여 주세요(자르지 않고 그대로 알려 드립니다)."
    assert "fill" not in r
    import torch

    with pytest.raises((IndexError, RuntimeError)):   # 파이썬 모델도 이 길이는 받지 못한다
        model(input_ids=torch.tensor([tok(LONG)["input_ids"]]))
    for empty in ("", " ", "   \t\n "):
        assert js_results[empty]["ids"] == [tok.cls_token_id, tok.sep_token_id]
        assert js_results[empty]["error"] == "empty" and js_results[empty]["message"].startswith("문장을 입력하세요")


def test_converter_reads_sizes_from_config(node, hf, tmp_path):
    """크기를 config.json에서 읽는지: 6층·3헤드·은닉 48의 무작위 BertForPreTraining(fp32 저장)도 변환하고 같은 답을 낸다."""
    import torch
    import transformers

    tok, _ = hf
    cfg = transformers.BertConfig(vocab_size=len(tok), hidden_size=48, num_hidden_layers=6, num_attention_heads=3,
                                  intermediate_size=81, max_position_embeddings=40, type_vocab_size=2)
    torch.manual_seed(0)
    model = transformers.BertForPreTraining(cfg).eval()
    src = tmp_path / "tiny"
    model.save_pretrained(src)
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(MODEL_DIR / name, src / name)
    model = transformers.BertForPreTraining.from_pretrained(src, attn_implementation="eager").eval()
    info = lab_assets.convert(src, tmp_path / "out")
    assert info["config"]["num_hidden_layers"] == 6 and info["config"]["hidden_size"] == 48
    texts = ["배 타고 배 먹으니 [MASK] 부르다.", "오늘 날씨가 좋다.", "x " * 45]
    js = _run_node(node, tmp_path / "out", [{"text": t} for t in texts], tmp_path, shards=1)
    py = _python_outputs(model, tok, texts[:2])
    for p, r in zip(py, js):
        A = p["attn"]
        assert A.shape[:2] == (6, 3)
        a = r["_data"][r["attn_offset"]:r["attn_offset"] + A.size].reshape(A.shape)
        assert float(np.abs(a - A).max()) <= ATTN_TOL
    assert js[2]["error"] == "too-long" and "최대 40개까지 받습니다." in js[2]["message"]


def test_lab_files_within_size_limit(assets):
    static = [p for p in STATIC.iterdir() if p.suffix in lab_assets.STATIC_SUFFIXES]
    total = assets["weights_bytes"] + assets["tokenizer_bytes"] + sum(p.stat().st_size for p in static)
    print(f"\n실습실 파일 합계 {total / 1e6:.2f} MB (가중치 {assets['weights_bytes'] / 1e6:.2f} MB, "
          f"k={assets['step_divisor']:.0f}, 가중치당 {assets['bits_per_weight']}비트)")
    assert total <= LAB_BYTES_LIMIT


def test_weights_are_not_committed():
    """변환 결과는 빌드 폴더에만: book/_static/lab에 가중치 사본이 없어야 한다."""
    for p in STATIC.rglob("*"):
        assert p.name not in (lab_assets.WEIGHTS_FILE, lab_assets.TOKENIZER_FILE), p
        assert p.stat().st_size < 500_000, f"{p}: 실습실 소스 파일이 너무 큽니다(가중치 사본?)"


UNSAFE = re.compile(
    r"\binnerHTML\b|\bouterHTML\b|\binsertAdjacentHTML\b|\bdocument\s*\.\s*write(ln)?\b|\beval\s*\("
    r"|\bnew\s+Function\b|\bFunction\s*\(|\bset(Timeout|Interval)\s*\(\s*['\"`]|createContextualFragment"
    r"|\bsrcdoc\b|\bDOMParser\b|javascript:")


def test_lab_js_never_parses_html():
    """입력(주소의 ?text=, 글 상자)은 글자로만 넣는다: HTML을 해석하거나 코드를 만드는 API가 없어야 한다."""
    files = sorted(STATIC.glob("*.js"))
    assert len(files) >= 3
    for path in files:
        hits = [m.group(0) for m in UNSAFE.finditer(path.read_text(encoding="utf-8"))]
        assert not hits, f"{path.name}: {hits}"


def test_sphinx_extension_skips_when_up_to_date(tmp_path):
    out = tmp_path / "lab"
    assert lab_assets.needs_update(MODEL_DIR, out)
    out.mkdir()
    for name in (lab_assets.WEIGHTS_FILE, lab_assets.TOKENIZER_FILE):
        (out / name).write_text("// stub")
    assert not lab_assets.needs_update(MODEL_DIR, out)
    # 출력이 변환기보다는 새롭지만 체크포인트 파일보다 오래되었으면 다시 만든다(체크포인트만 바뀐 경우)
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("{}")
    converter = Path(lab_assets.__file__).stat().st_mtime
    os.utime(model / "config.json", (converter + 20, converter + 20))
    for name in (lab_assets.WEIGHTS_FILE, lab_assets.TOKENIZER_FILE):
        os.utime(out / name, (converter + 10, converter + 10))
    assert lab_assets.needs_update(model, out)
