"""번들 미니 BERT의 품질 측정과 모델 카드 작성 (부록 '번들 미니 BERT').

`python -m bertlab.minibert.modelcard --work WORK --model bertlab/assets/mini-bert`는 내보낸 체크포인트를 다시 읽어
held-out 문장에서 품질을 재고(`metrics.json`), 그 숫자로 모델 카드(`README.md`)를 씁니다.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
from collections import Counter
from pathlib import Path

import numpy as np

from .. import data, senses
from ..models import MINI_DIR
from ..models import fill_mask as fill_mask_top
from ..course.prose import pct as _pct
from . import acceptance as acceptance_mod
from . import corpus as corpus_mod
from . import examples as ex
from . import pretrain as pt
from . import tokenizer as tok_mod

FILL_MASK_SENTENCES = [  # [MASK]는 어절 하나를 통째로 가린다("[MASK]을"처럼 조사를 떼어 두면 토큰화가 어색해진다)
    "배가 고파서 밥을 [MASK].",
    "비가 와서 우산을 [MASK] 나갔다.",
    "오늘은 날씨가 정말 [MASK].",
    "주말에 친구와 영화를 보러 [MASK] 갔다.",
    "아침에 [MASK] 타고 학교에 갔다.",
    "파일을 저장하려면 [MASK] 메뉴를 누릅니다.",
]
# 이 프로젝트가 직접 쓴 말뭉치 출처의 라이선스 (Debian 문서의 라이선스는 corpus가 stats.json에 적는다)
OWN_LICENSES = {
    "everyday_ko": "CC BY 4.0 (이 프로젝트가 씀)",
    "senses_ko": "CC BY 4.0 (이 프로젝트가 씀)",
    "senses_paragraphs_ko": "CC BY 4.0 (이 프로젝트가 씀)",
    "templates_ko": "CC BY 4.0 (이 프로젝트의 템플릿 생성기)",
    "everyday_v2": "CC BY 4.0 (이 프로젝트가 씀)",
    "everyday_v3": "CC BY 4.0 (이 프로젝트가 씀)",
}
SPLIT_EXAMPLES = ["배 타고 배 먹으니 배 부르다.", "이 영화 정말 재미있어요!", "나는 밥을 먹었다", "배를 타고 눈을 맞았다 ㅋㅋ"]


SIGNIFICANCE = 0.05  # 순열 검정 p값의 기준


def sense_gaps(senses: dict[str, dict[str, float]]) -> dict[str, float]:
    return {w: v["same"] - v["cross"] for w, v in senses.items()}


def _significance(p_values: dict[str, float], lead: str) -> str:
    """순열 검정 결과 한 문장: p < SIGNIFICANCE인 단어과 아닌 단어."""
    clear = [w for w, p in p_values.items() if p < SIGNIFICANCE]
    unclear = [w for w, p in p_values.items() if p >= SIGNIFICANCE]
    if not unclear:
        return f" 순열 검정으로 보면 단어 {len(p_values)}개 모두 그 차이가 우연으로 보기 어렵습니다(p < {SIGNIFICANCE})."
    return (f" {lead} 순열 검정으로 그 차이가 우연으로 보기 어려운(p < {SIGNIFICANCE}) 단어는 "
            + (f"{len(clear)}개({', '.join(clear)})이고, " if clear else "하나도 없고, ")
            + ", ".join(f"{w}(p = {p_values[w]:.2f})" for w in unclear)
            + "의 차이는 뜻을 무작위로 섞어도 흔히 나오는 크기입니다.")


def _agreement(gaps: dict[str, float], where: str) -> str:
    """한 평가 묶음에서 같은 뜻끼리 더 비슷한 단어이 몇 개인지 한 문장으로."""
    failed = [w for w, g in gaps.items() if g <= 0]
    if failed:
        return (f"{where} 단어 {len(gaps)}개 중 {len(gaps) - len(failed)}개에서만 같은 뜻끼리 더 비슷하고, "
                f"{', '.join(failed)}에서는 뜻을 구별하지 못합니다.")
    return f"{where} 단어 {len(gaps)}개 모두 같은 뜻끼리 더 비슷합니다(차이 {min(gaps.values()):+.3f}–{max(gaps.values()):+.3f})."


def senses_summary(metrics: dict) -> str:
    """동음이의어 결과를 몇 문장으로: 두 평가 문장 묶음에서 몇 단어이 같은 뜻끼리 더 비슷한지, 그 차이가 우연을 넘는지(순열 검정),
    문맥을 보기 전(임베딩 출력)과의 비교. 모델 카드와 웹사이트 부록이 같은 문장을 씁니다."""
    gaps = sense_gaps(metrics["senses"])
    p_all = metrics.get("senses_p", {})
    out = "동음이의어의 문맥 벡터(마지막 층)는 " + _agreement(gaps, "조사가 제각각인 평가 문장에서")
    if "eval" in p_all:
        out += _significance(p_all["eval"], "또" if any(g <= 0 for g in gaps.values()) else "그러나")
    particle = metrics.get("senses_particle")
    if particle and "eval_particle" in p_all:
        out += " " + _agreement(sense_gaps(particle), "조사를 을/를로 고정한 평가 문장에서는")
        out += _significance(p_all["eval_particle"], "이 묶음에서")
    by_layer = metrics.get("senses_gap_by_layer")
    if by_layer and "0" in by_layer:
        last = float(np.mean(list(gaps.values())))
        first = float(np.mean(list(by_layer["0"].values())))
        if last <= 2 * max(first, 0.0):
            relation = "보다 크지 않아서" if last <= first else "의 두 배에 못 미쳐서"
            out += (f" 조사가 제각각인 문장에서 마지막 층의 차이 평균({last:+.3f})이 문맥을 보기 전인 임베딩 출력(0번 은닉 상태)의 평균({first:+.3f}){relation}, "
                    "문맥 층이 더하는 뜻 정보는 많지 않습니다.")
    return out


def fill_mask(model, tokenizer, sentence: str, k: int = 5) -> list[str]:
    """`[MASK]` 하나의 상위 k개 예측 토큰(모델 카드의 표). 계산은 가르치는 쪽의 `bertlab.models.fill_mask`."""
    if sentence.count(tokenizer.mask_token) != 1:
        raise ValueError(f"문장에 [MASK]가 정확히 하나 있어야 합니다: {sentence}")
    return [token for token, _ in fill_mask_top(model, tokenizer, sentence, k)[0]]


def evaluate_checkpoint(model_dir: Path, work: Path, max_len: int = 64) -> dict:
    """held-out 품질: 선택한 모든 위치를 [MASK]로 바꾼 정확도와 최빈 토큰 기준선(출처별), NSP, 동음이의어 분리, fill-mask."""
    from transformers import AutoTokenizer, BertForMaskedLM, BertForPreTraining
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    model_dir, work = Path(model_dir), Path(work)
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = BertForPreTraining.from_pretrained(model_dir).eval()
    train_docs = data.read_documents(work / "corpus" / "train.txt")
    held_docs = data.read_documents(work / "corpus" / "heldout.txt")
    freq = Counter(t for d in ex.encode_documents(tokenizer, train_docs) for s in d for t in s)
    most_frequent_id = freq.most_common(1)[0][0]
    everyday = set(s for d in data.read_documents(data.TEXT_DIR / "everyday_ko.txt") for s in d)
    everyday_v2 = set(s for path in corpus_mod.everyday_v2_files() for d in data.read_documents(path) for s in d)
    everyday_v2 |= set(s for d in everyday_v3_documents() for s in d)  # 이슈 25의 v3도 일상 글
    groups = {
        "all": held_docs,
        "everyday": [d for d in held_docs if d[0] in everyday | everyday_v2],
        "documentation": [d for d in held_docs if d[0] not in everyday | everyday_v2],
    }
    if any(d[0] in everyday_v2 for d in held_docs):  # 이슈 20의 말뭉치로 만든 held-out이면 두 일상 글을 따로도 잰다
        groups["everyday_v1"] = [d for d in held_docs if d[0] in everyday]
        groups["everyday_v2"] = [d for d in held_docs if d[0] in everyday_v2]
    heldout = {}
    for name, docs in groups.items():
        batches = pt.make_eval_batches(ex.encode_documents(tokenizer, docs), tokenizer, max_len)
        heldout[name] = pt.evaluate(model, batches, most_frequent_id)
        heldout[name]["documents"] = len(docs)
    sense_rows = data.read_senses("eval")
    vectors = senses.sense_vectors(model.bert, tokenizer, sense_rows)  # 모든 층을 한 번에
    separation = senses.separation_from_vectors(vectors)
    senses_by_layer = {
        str(layer): sense_gaps(senses.separation_from_vectors(vectors, layer))
        for layer in range(model.config.num_hidden_layers + 1)
    }
    following = senses.following_token_breakdown(vectors)
    particle_vectors = senses.sense_vectors(model.bert, tokenizer, data.read_senses("eval_particle"))
    mlm = BertForMaskedLM.from_pretrained(model_dir).eval()
    tok_stats = tok_mod.unk_rate(tokenizer, [s for d in held_docs for s in d])
    pairs = ex.make_pairs(ex.encode_documents(tokenizer, train_docs), max_len, random.Random(0))
    nsp_random_share = sum(label for *_, label in pairs) / len(pairs)
    return {
        "most_frequent_token": tokenizer.convert_ids_to_tokens(most_frequent_id),
        "heldout": heldout,
        "nsp_random_share": nsp_random_share,
        "senses": separation,
        "senses_gap_by_layer": senses_by_layer,
        "senses_following_token": following,
        "senses_particle": senses.separation_from_vectors(particle_vectors),
        "senses_p": {"eval": senses.sense_gap_p_values(vectors), "eval_particle": senses.sense_gap_p_values(particle_vectors)},
        "fill_mask": {s: fill_mask(mlm, tokenizer, s) for s in FILL_MASK_SENTENCES},
        "acceptance": acceptance_summary(mlm, tokenizer),
        **word_scores(mlm, tokenizer),
        "tokenizer": {
            "vocab_size": len(tokenizer),
            "heldout_unk_rate": tok_stats["unk_rate"],
            "heldout_pieces_per_word": tok_stats["pieces_per_word"],
            "splits": {s: tokenizer.tokenize(s) for s in SPLIT_EXAMPLES},
        },
        "size_mb": weights_mib(model_dir),
    }


def acceptance_summary(mlm, tokenizer, k: int = 5) -> dict:
    """일상 문장 fill-mask 수용 세트(`acceptance`)의 결과: 전체·주제별 상위 1개/k개와 문장마다의 예측·맞힌 순위."""
    result = acceptance_mod.evaluate_acceptance(mlm, tokenizer, k=k)
    result["items"] = [{key: item[key] for key in ("id", "predictions", "rank", "reachable")} for item in result["items"]]
    return result


def weights_mib(model_dir: Path) -> float | None:
    """폴더의 가중치 파일(*.safetensors) 크기(MiB, 소수 둘째 자리). 가중치 파일이 없으면 None."""
    files = list(Path(model_dir).glob("*.safetensors")) if Path(model_dir).is_dir() else []
    return round(sum(p.stat().st_size for p in files) / 2**20, 2) if files else None


def everyday_v3_documents() -> list[list[str]]:
    """일상 말뭉치 v3의 문서(문장 목록): held-out 평가를 일상 글과 문서 글로 나눌 때 씁니다."""
    from . import everyday

    return [list(d.lines) for path in everyday.files() for d in everyday.parse(everyday.read_text(path))[0]]


def word_scores(mlm, tokenizer, k: int = 5) -> dict:
    """어절 단위 빈칸 채우기(`fill_word`, 글자 그대로 채점): 수용 세트와, 있으면 일상 held-out 빈칸 세트."""
    from . import heldout

    out = {}
    r = acceptance_mod.score_words(mlm, tokenizer, acceptance_mod.read_acceptance(), k=k)
    out["acceptance_word"] = {"k": k, "rows": r["rows"], "top1": r["top1"], "topk": r["topk"],
                              "items": [{"words": i["words"], "rank": i["rank"]} for i in r["items"]]}
    if heldout.SET_FILE.exists():
        h = heldout.score(mlm, tokenizer, heldout.read_set(), k=k)
        out["heldout_word"] = {"k": k, "rows": h["rows"], "top1": h["top1"], "topk": h["topk"]}
    return out


def masking_sentence(train: dict, markdown: bool = True) -> str:
    """모델 카드의 '사전학습' 첫 문장: 학습 설정(`training_settings.json`의 train)에서 만든다.

    markdown=False이면 코드·굵은 글씨 표시 없이(웹 글에 glue:text로 넣을 때) 괄호 안의 설명만 돌려준다."""
    start, end = train.get("mask_prob", 0.15), train.get("mask_prob_end", train.get("mask_prob", 0.15))
    rate = (f"{100 * start:.0f} %" if abs(start - end) < 1e-9 else
            f"학습 처음 {100 * start:.0f} %에서 마지막 {100 * end:.0f} %로 선형으로 줄어드는 비율")
    unit = ("단어(첫 조각과 뒤따르는 `##` 조각들; 문장 부호는 따로 한 단어)를 골라 그 조각을 **모두** 가림(조각마다 80 % [MASK], 10 % 무작위, 10 % 그대로)"
            if train.get("whole_word") else "토큰(조각)을 골라 80 % [MASK], 10 % 무작위, 10 % 그대로")
    if not markdown:
        return f"가리는 비율은 {rate}; {unit}".replace("`", "").replace("**", "")
    return f"MLM(가리는 비율은 {rate}; {unit})"


def _sense_table(senses: dict[str, dict[str, float]], p_values: dict[str, float] | None) -> list[str]:
    """동음이의어 표(마크다운 줄): 같은 뜻 쌍, 다른 뜻 쌍, 차이, (있으면) 순열 검정 p값."""
    head = "| 단어 | 같은 뜻 쌍 | 다른 뜻 쌍 | 차이 |" + (" p값 |" if p_values else "")
    lines = [head, "|---|---:|---:|---:|" + ("---:|" if p_values else "")]
    for w, v in senses.items():
        row = f"| {w} | {v['same']:.3f} | {v['cross']:.3f} | {v['same'] - v['cross']:+.3f} |"
        lines.append(row + (f" {p_values[w]:.3f} |" if p_values else ""))
    return lines


def write_model_card(model_dir: Path, work: Path, metrics: dict) -> Path:
    """`metrics.json`과 학습 기록으로 모델 카드(README.md)를 씁니다. 숫자는 모두 측정값에서 옵니다."""
    model_dir, work = Path(model_dir), Path(work)
    stats = json.loads((work / "corpus" / "stats.json").read_text(encoding="utf-8"))
    settings = json.loads((work / "settings.json").read_text())
    log = [json.loads(x) for x in (work / "log.jsonl").read_text().splitlines() if x.strip()]
    probes = json.loads((model_dir / "probes.json").read_text(encoding="utf-8")) if (model_dir / "probes.json").exists() else []
    cfg = json.loads((model_dir / "config.json").read_text())
    last = log[-1]
    h = metrics["heldout"]
    lines = [
        "# 한국어 미니 BERT (bertlab 번들 모델)",
        "",
        "이 강의가 직접 사전학습한 작은 한국어 BERT입니다. 인터넷 없이 모든 장을 CPU에서 몇 초 만에 실행하기 위해 만들었습니다.",
        "품질은 실제 BERT-base에 한참 못 미칩니다. 아래 숫자는 모두 `python -m bertlab.minibert.modelcard`가 이 체크포인트로 잰 값입니다.",
        "",
        "## 구조",
        "",
        f"transformers `BertForPreTraining`(MLM + NSP 헤드; 풀러도 학습됨): {cfg['num_hidden_layers']}층, 은닉 {cfg['hidden_size']}, "
        f"헤드 {cfg['num_attention_heads']}개(헤드당 {cfg['hidden_size'] // cfg['num_attention_heads']}), FFN {cfg['intermediate_size']}(GELU), "
        f"최대 길이 {cfg['max_position_embeddings']}, 어휘 {cfg['vocab_size']:,}개. 가중치는 fp16으로 저장({metrics['size_mb']} MB)하고 읽을 때 fp32가 됩니다.",
        "",
        "## 말뭉치",
        "",
        "| 출처 | 라이선스 | 문서 | 문장 | 글자 |",
        "|---|---|---:|---:|---:|",
    ]
    lic = stats.get("licenses", {})
    lic.update(OWN_LICENSES)
    for name, s in stats["sources"].items():
        t = s["train"]
        lines.append(f"| {name} | {lic.get(name, '')} | {t['documents']:,} | {t['sentences']:,} | {t['characters']:,} |")
    tr, ho = stats["train"], stats["heldout"]
    lines += [
        f"| **학습 합계** | | {tr['documents']:,} | {tr['sentences']:,} | {tr['characters']:,} |",
        f"| **held-out** (문서 단위로 분리) | | {ho['documents']:,} | {ho['sentences']:,} | {ho['characters']:,} |",
        "",
        f"학습 말뭉치의 한글 비율은 {_pct(tr['hangul_share'])}, 서로 다른 한글 음절은 {tr['distinct_hangul_syllables']:,}자입니다. "
        "Debian 문서는 패키지를 설치하지 않고 `apt-get download` + `dpkg -x`로 풀어 HTML/Mallard에서 문단을 뽑았고, 마크업·코드·메뉴 경로·"
        "한글 비율 60 % 미만 문장·중복 문장을 걸렀습니다. held-out은 문서 해시로 5 %를 떼었고(실제 문서와 일상 문단"
        + ("; 일상 말뭉치 v3는 문서 글의 SHA-1로 3 %" if "everyday_v3" in stats["sources"] else "")
        + "), 동음이의어 평가 문장은 학습에서 뺐습니다.",
        "",
        "## 어휘 (WordPiece)",
        "",
        f"`tokenizers`로 학습한 WordPiece, BERT 정규화(소문자화·악센트 제거 없음: 한글이 자모로 분해되지 않음), 어휘 {metrics['tokenizer']['vocab_size']:,}개. "
        "문서 말뭉치에는 한글 음절이 1,200자 남짓이라, KS X 1001 상용 한글 2,350자와 호환용 자모 51자(ㅋ, ㅠ 등)를 단어 첫머리용과 "
        "`##` 이어붙임용으로 모두 넣었습니다. 책이 뜻을 비교하는 동음이의어(배, 눈, 말, 밤, 차, 다리)에 조사가 붙은 꼴('배를', '눈이')은 "
        "어휘에서 빼서, mBERT처럼 단어와 `##조사`로 잘리게 했습니다(한 토큰으로 두면 그 단어의 벡터가 뜻보다 조사에 따라 갈립니다). "
        f"held-out 문장의 [UNK] 비율 {100 * metrics['tokenizer']['heldout_unk_rate']:.2f} %, 어절당 조각 {metrics['tokenizer']['heldout_pieces_per_word']:.2f}개.",
        "",
    ]
    for s, toks in metrics["tokenizer"]["splits"].items():
        lines.append(f"- `{s}` → `{' '.join(toks)}`")
    tsec = last.get("sec")
    lines += [
        "",
        "## 사전학습",
        "",
        masking_sentence(settings["train"]) + " + NSP(절반은 실제 다음 문장, 절반은 다른 문서의 문장; "
        f"한 문장짜리 조각은 실제 다음 문장이 없어 늘 무작위가 되므로 학습 쌍의 {100 * metrics['nsp_random_share']:.0f} %가 무작위). "
        f"설정: {json.dumps(settings['train'], ensure_ascii=False)}. MLM 로짓은 마스크된 위치에서만 계산합니다. "
        f"이 2코어 CPU에서 torch 스레드 {settings['train'].get('threads', 1)}개로 {last['step']:,} 스텝"
        + (f", 약 {tsec / 60:.0f}분" if tsec else "") + "이 걸렸습니다.",
        "",
        f"재현: `{pt.reproduce_command(settings)}` 후 "
        "`python -m bertlab.minibert.modelcard --work ~/.cache/bertlab/pretrain`. 학습은 시드가 고정되어 있어 어휘가 같으면 같은 가중치가 나옵니다. "
        "`--tokenizer-from`을 빼면 어휘도 새로 학습하는데, `tokenizers`의 WordPiece 학습기는 빈도가 같은 후보의 순서를 실행마다 "
        "무작위로 정하므로 같은 말뭉치에서도 토큰 id 수천 개의 자리와 토큰 몇 개가 달라지고, 그래서 품질은 비슷하지만 가중치는 다른 모델이 나옵니다.",
        "",
        "## 품질 (held-out)",
        "",
        "선택한 **모든** 위치를 [MASK]로 바꾸고 잽니다. 80/10/10 그대로 재면 바꾸지 않은 10 %를 베껴 맞혀 정확도가 부풀려지기 때문입니다. "
        f"기준선은 학습 말뭉치의 최빈 토큰(`{metrics['most_frequent_token']}`)을 늘 답하는 정확도입니다.",
        "",
        "| held-out 부분 | 문서 | 마스크 위치 | [MASK] 정확도 | 최빈 토큰 기준선 | 배수 | MLM 손실 | NSP 정확도 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in ("all", "everyday", "documentation"):
        m = h[name]
        ratio = m["mask_acc"] / m["freq_baseline_acc"] if m["freq_baseline_acc"] else float("nan")
        lines.append(
            f"| {name} | {m['documents']} | {m['positions']:,} | {_pct(m['mask_acc'])} | {_pct(m['freq_baseline_acc'])} | {ratio:.1f}× | {m['mlm_loss']:.2f} | {_pct(m['nsp_acc'])} |"
        )
    lines += [
        "",
        "### 동음이의어의 문맥 벡터",
        "",
        "학습에 쓰지 않은 동음이의어 평가 문장(뜻마다 6개, 단어 뒤 조사는 제각각)에서, 마지막 층의 단어 첫 토큰 벡터의 평균 코사인 유사도입니다. "
        f"p값은 순열 검정({senses.SENSE_PERMUTATIONS:,}번)으로, 뜻 이름표를 무작위로 섞었을 때 차이가 관측값 이상으로 나오는 비율입니다.",
        "",
    ]
    p_values = metrics.get("senses_p", {})
    lines += _sense_table(metrics["senses"], p_values.get("eval"))
    by_layer = metrics.get("senses_gap_by_layer", {})
    if by_layer:
        words = list(metrics["senses"])
        lines += ["", "층별 차이(같은 뜻 − 다른 뜻; 0은 문맥이 섞이기 전인 임베딩 출력, ℓ은 ℓ층의 출력):", "",
                  "| 층 | " + " | ".join(words) + " |", "|---|" + "---:|" * len(words)]
        for layer, gaps in by_layer.items():
            lines.append(f"| {layer} | " + " | ".join(f"{gaps[w]:+.3f}" for w in words) + " |")
    following = metrics.get("senses_following_token")
    if following:
        eff = senses.following_token_effects(following)
        lines += ["", "쌍을 '뜻이 같은가'와 '단어 바로 뒤 토큰(대개 조사)이 같은가'로 나눈 마지막 층의 평균 코사인 유사도:", "",
                  "| 뜻 | 뒤 토큰 | 평균 코사인 | 쌍 |", "|---|---|---:|---:|"]
        for r in following:
            lines.append(f"| {'같음' if r['same_sense'] else '다름'} | {'같음' if r['same_next'] else '다름'} | {r['mean_cosine']:.3f} | {r['pairs']} |")
        lines += ["", f"다른 조건을 고정했을 때 뒤 토큰이 같으면 코사인이 {eff['next']:+.3f}, 뜻이 같으면 {eff['sense']:+.3f} 오릅니다."]
    if metrics.get("senses_particle"):
        lines += ["", "### 조사를 고정한 평가 문장", "",
                  "위 평가 문장에서는 같은 뜻 쌍과 다른 뜻 쌍의 차이에 조사의 차이가 섞입니다. 그래서 조사를 고정한 평가 문장을 따로 썼습니다: "
                  "뜻마다 8개, 한 단어의 문장은 모두 단어 바로 뒤에 목적격 조사(을/를)가 붙습니다(예: '배를 띄우고'와 '배를 얇게 썰어'). "
                  "학습에 쓰지 않았고, 어떤 모델로도 재기 전에 커밋했습니다(890b63a).", ""]
        lines += _sense_table(metrics["senses_particle"], p_values.get("eval_particle"))
    lines += ["", "### fill-mask 상위 5개", ""]
    for s, toks in metrics["fill_mask"].items():
        lines.append(f"- `{s}` → {', '.join(toks)}")
    acc = metrics.get("acceptance")
    if acc:
        lines += ["", "### 일상 문장 빈칸 채우기 (수용 세트)", "",
                  f"학습에 쓰지 않은 일상 문장 {acc['rows']}개(`bertlab/assets/text/fillmask_acceptance_ko.tsv`, 다시 학습하기 전에 씀)에서 "
                  "어절 하나를 통째로 [MASK]로 가리고, 상위 예측이 받아들이는 어절(또는 그 어절의 첫 조각 + 조사)인지 셉니다"
                  "(채점 규칙은 `bertlab/minibert/acceptance.py`). "
                  f"상위 1개 {_pct(acc['top1'])}, 상위 {acc['k']}개 {_pct(acc['topk'])}, 답이 토큰 하나로 닿는 문장 {_pct(acc['reachable'])}.",
                  "", f"| 주제 | 문장 | 상위 1개 | 상위 {acc['k']}개 |", "|---|---:|---:|---:|"]
        for topic, r in acc["by_topic"].items():
            lines.append(f"| {topic} | {r['rows']} | {_pct(r['top1'])} | {_pct(r['topk'])} |")
    word = metrics.get("acceptance_word")
    if word:
        lines += ["", f"어절 채우기(`bl.fill_word`: `[MASK]` 1~3개를 왼쪽부터 채우고 조각의 로그 확률을 더함)로 같은 문장을 재면, 상위 "
                  f"{word['k']}개 안에 받아들이는 어절과 글자가 똑같은 어절이 있는 문장이 {_pct(word['topk'])}, 1위가 그런 문장이 "
                  f"{_pct(word['top1'])}입니다."]
    held_word = metrics.get("heldout_word")
    if held_word:
        lines += ["", "### 일상 held-out 빈칸 세트", "",
                  f"일상 말뭉치 v3의 held-out 문서(학습에 쓰지 않음)에서 문장마다 내용 어절 하나를 가린 {held_word['rows']:,}문장"
                  "(`bertlab/minibert/text/everyday_v3_heldout.tsv`, 다시 학습하기 전에 만듦): `fill_word` 상위 "
                  f"{held_word['k']}개 안에 가린 어절이 그대로 있는 문장 {_pct(held_word['topk'])}, 1위 {_pct(held_word['top1'])}."]
    if probes:
        lines += ["", "## 탐색 기록", "", "| 실험 | 설정 | 스텝 | 시간 | 결과 |", "|---|---|---:|---|---|"]
        for p in probes:
            lines.append(f"| {p['name']} | {p['config']} | {p['steps']} | {p['time']} | {p['result']} |")
    lines += ["", "## 한계", "",
              f"작은 말뭉치(약 {round(tr['characters'] / 1e4):,}만 자)와 짧은 학습으로 만든 모델입니다. 문장 구조와 자주 쓰는 표현은 배웠지만 지식이나 긴 문맥은 거의 없습니다. "
              + senses_summary(metrics)
              + " 강의의 숫자와 그림은 이 모델의 것이며, mBERT에서는 값이 다릅니다.", ""]
    path = model_dir / "README.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def main(argv=None) -> None:
    p = argparse.ArgumentParser(prog="python -m bertlab.minibert.modelcard")
    p.add_argument("--work", type=Path, default=Path.home() / ".cache" / "bertlab" / "pretrain")
    p.add_argument("--model", type=Path, default=MINI_DIR)
    a = p.parse_args(argv)
    metrics = evaluate_checkpoint(a.model, a.work)
    # 웹사이트의 부록 페이지가 읽는 기록: 말뭉치 통계, 학습 로그, 설정
    shutil.copy(a.work / "corpus" / "stats.json", a.model / "corpus_stats.json")
    shutil.copy(a.work / "log.jsonl", a.model / "training_log.jsonl")
    shutil.copy(a.work / "settings.json", a.model / "training_settings.json")
    (a.model / "metrics.json").write_text(json.dumps(metrics, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(write_model_card(a.model, a.work, metrics).read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
