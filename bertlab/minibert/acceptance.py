"""일상 문장 fill-mask 수용 세트(issue 20): 다시 학습하기 전에 정해 둔 빈칸 채우기 시험과 그 채점.

세트는 ``assets/text/fillmask_acceptance_ko.tsv``(열: ``id``, ``sentence``, ``answers``, ``topic``)입니다. 문장마다
어절 하나를 통째로 ``[MASK]``로 가렸고, ``answers``에는 한국어 화자가 받아들이는 어절을 ``|``로 나눠 적었습니다.
학습 말뭉치(일상 문단, issue 20의 everyday_v2, 다의어 문단, 템플릿)와도, 다른 평가 문장(다의어, 감정 분석,
모델 카드의 fill-mask)과도 문장이나 12자 이상 이어진 부분이 겹치지 않습니다(``tests/test_acceptance.py``가 확인).

**왜 어절을 통째로 가리나.** 읽는 사람에게 빈칸은 어절 하나('국밥을')입니다. '[MASK]를'처럼 조사를 남기면
토크나이저가 [MASK] 뒤의 '를'을 단어 첫머리 토큰 ``를``로 자르는데, 사전학습에서 조사는 늘 낱말에 붙은
``##를``로만 나왔으므로 모델은 단어 첫머리 '를'을 거의 본 적이 없습니다. 이런 문장은 모델이 모르는 입력이 됩니다.

**채점 규칙.** 모델은 [MASK] 자리에 WordPiece 토큰 하나를 고르지만 답은 어절입니다. 상위 k개 예측 가운데
하나라도 다음 둘 중 하나이면 그 문장을 맞힌 것으로 셉니다.

1. 예측이 받아들이는 어절과 똑같다(그 어절이 어휘에 한 토큰으로 있을 때: '버스를', '먹었다').
2. 받아들이는 어절을 이 토크나이저로 자른 첫 조각이 예측과 같고, 나머지 조각을 이으면 조사 하나(`PARTICLES`)가
   된다('국밥을' → ``국밥`` ``##을``이면 ``국밥``, '학교에' → ``학교`` ``##에``이면 ``학교``).

``##``로 시작하는 예측과 특수 토큰은 어절의 첫머리가 될 수 없으므로 늘 틀립니다. 첫 조각이면 무엇이든 받지 않는
까닭: '추웠다' → ``추`` ``##웠다``, '기뻤다' → ``기`` ``##뻤`` ``##다``처럼 첫 조각이 한 음절이면 '추석', '기차'의
첫 조각과 같아 너무 후합니다. 조사만 남을 때는 내용어를 다 맞힌 셈이고, 조사는 답 목록이 이미 문장에 맞는 꼴로
정해 두었습니다. 조사처럼 끝나는 낱말('그만' → ``그`` ``##만``)이 규칙 2에 잘못 걸리지 않도록 '만', '처럼'처럼
다른 낱말의 끝과 겹치기 쉬운 것은 목록에서 뺐고, 세트에도 그런 답('그만', '대만', '먹이')을 넣지 않았습니다.

``reachable``은 답 가운데 하나라도 규칙 1이나 2로 토큰 하나에 닿는 문장의 몫입니다. 나머지 문장은 이 어휘로는
상위 몇 개를 보든 맞힐 수 없습니다(예: 답이 모두 '추' ``##웠다``처럼 잘리는 용언).

``python -m bertlab.minibert.acceptance``는 번들 모델로 표를 찍습니다(``--examples N``: 문장 N개의 상위 k개도).
"""

from __future__ import annotations

import argparse
import unicodedata
from pathlib import Path

from .. import models
from ..course.prose import pct as _pct
from ..data import TEXT_DIR

ACCEPTANCE_FILE = TEXT_DIR / "fillmask_acceptance_ko.tsv"
COLUMNS = ["id", "sentence", "answers", "topic"]
# 규칙 2에서 첫 조각 뒤에 남아도 되는 조사(격조사, 보조사 일부와 그 겹침)
PARTICLES = frozenset(
    "이 가 을 를 은 는 도 에 에서 에게 한테 께 께서 으로 로 와 과 랑 이랑 의 까지 부터 "
    "에는 에서는 에도 으로는 로는 까지는 부터는".split()
)


def read_acceptance(path: Path = ACCEPTANCE_FILE) -> list[dict]:
    """수용 세트를 ``{"id", "sentence", "answers"(어절 목록), "topic"}`` 목록으로 읽습니다(NFC로 맞춤)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    if lines[0].split("\t") != COLUMNS:
        raise ValueError(f"{Path(path).name}: 첫 줄은 {COLUMNS}이어야 합니다 (받은 값: {lines[0]!r}).")
    rows = []
    for n, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        cells = unicodedata.normalize("NFC", line).split("\t")
        if len(cells) != len(COLUMNS):
            raise ValueError(f"{Path(path).name} {n}째 줄: 칸이 {len(cells)}개입니다({len(COLUMNS)}개여야 함).")
        row = dict(zip(COLUMNS, cells))
        row["answers"] = row["answers"].split("|")
        rows.append(row)
    return rows


def accepted_tokens(tokenizer, answers: list[str]) -> set[str]:
    """이 토크나이저에서 맞음으로 칠 예측 토큰: 답 어절 그대로(규칙 1)와, 뒤에 조사만 남는 첫 조각(규칙 2)."""
    tokens = set(answers)
    for answer in answers:
        pieces = tokenizer.tokenize(answer)
        rest = pieces[1:]
        if rest and all(p.startswith("##") for p in rest) and "".join(p[2:] for p in rest) in PARTICLES:
            tokens.add(pieces[0])
    return tokens


def reachable(tokenizer, answers: list[str]) -> bool:
    """답 가운데 하나라도 토큰 하나로 낼 수 있는가(어휘에 통째로 있거나, 규칙 2의 첫 조각이 있음)."""
    vocab = tokenizer.get_vocab()
    return any(t in vocab for t in accepted_tokens(tokenizer, answers))


def evaluate_acceptance(model, tokenizer, rows: list[dict] | None = None, k: int = 5) -> dict:
    """문장마다 [MASK]의 상위 k개 예측(`bertlab.models.fill_mask`)을 채점합니다(규칙은 모듈 설명).

    돌려주는 값: ``top1``, ``topk``(맞힌 문장의 몫), ``reachable``, 주제별 ``by_topic``, 문장별 ``items``
    (``predictions``, 처음 맞힌 순위 ``rank``(1부터, 못 맞히면 None)).
    """
    rows = read_acceptance() if rows is None else rows
    special = set(tokenizer.all_special_tokens)
    items = []
    for row in rows:
        if row["sentence"].count(tokenizer.mask_token) != 1:
            raise ValueError(f"{row['id']}: 문장에 {tokenizer.mask_token}가 정확히 하나 있어야 합니다.")
        preds = [unicodedata.normalize("NFC", t) for t, _ in models.fill_mask(model, tokenizer, row["sentence"], k)[0]]
        ok = accepted_tokens(tokenizer, row["answers"])
        hits = [i for i, t in enumerate(preds) if t in ok and t not in special and not t.startswith("##")]
        items.append({"id": row["id"], "topic": row["topic"], "sentence": row["sentence"], "predictions": preds,
                      "rank": hits[0] + 1 if hits else None, "reachable": reachable(tokenizer, row["answers"])})

    def rates(group: list[dict]) -> dict:
        n = len(group)
        return {"rows": n, "top1": sum(i["rank"] == 1 for i in group) / n,
                "topk": sum(i["rank"] is not None for i in group) / n}

    topics = sorted({i["topic"] for i in items})
    return {"k": k, **rates(items), "reachable": sum(i["reachable"] for i in items) / len(items),
            "by_topic": {t: rates([i for i in items if i["topic"] == t]) for t in topics}, "items": items}


def score_words(model, tokenizer, rows: list[dict], k: int = 5) -> dict:
    """어절 단위 채점(이슈 25의 규칙): `fill_word`의 상위 k개 어절 가운데 ``answers``의 어절과 **글자가 똑같은** 것이 있는
    문장의 몫(``topk``)과 1위가 그런 문장의 몫(``top1``). 조각을 맞춰 주는 옛 규칙과 달리 어절 전체를 봅니다.

    ``rows``: ``{"sentence", "answers"(어절 목록)}`` 목록. 돌려주는 ``items``에는 문장마다 후보 어절과 맞힌 순위가 있습니다.
    """
    from ..models import fill_word

    items = []
    for row in rows:
        words = [unicodedata.normalize("NFC", w) for w, _ in fill_word(model, tokenizer, row["sentence"], k=k)]
        hits = [i for i, w in enumerate(words) if w in row["answers"]]
        items.append({"sentence": row["sentence"], "answers": row["answers"], "words": words,
                      "rank": hits[0] + 1 if hits else None})
    n = len(items) or 1
    return {"k": k, "rows": len(items), "top1": sum(i["rank"] == 1 for i in items) / n,
            "topk": sum(i["rank"] is not None for i in items) / n, "items": items}


def format_table(result: dict) -> str:
    """주제별 표(마크다운)와 전체 한 줄."""
    k = result["k"]
    lines = [f"fill-mask 수용 세트 {result['rows']}문장: 상위 1개 {_pct(result['top1'])}, 상위 {k}개 {_pct(result['topk'])} "
             f"(답이 토큰 하나로 닿는 문장 {_pct(result['reachable'])})", "",
             f"| 주제 | 문장 | 상위 1개 | 상위 {k}개 |", "|---|---:|---:|---:|"]
    for topic, r in result["by_topic"].items():
        lines.append(f"| {topic} | {r['rows']} | {_pct(r['top1'])} | {_pct(r['topk'])} |")
    lines.append(f"| **전체** | {result['rows']} | {_pct(result['top1'])} | {_pct(result['topk'])} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description="번들 미니 BERT로 fill-mask 수용 세트를 잽니다.")
    parser.add_argument("--model", default="mini", help="bl.load_mlm에 넘길 이름이나 경로 (기본: mini)")
    parser.add_argument("-k", type=int, default=5, help="상위 몇 개까지 볼지 (기본: 5)")
    parser.add_argument("--examples", type=int, default=0, help="상위 k개 예측을 보여 줄 문장 수")
    args = parser.parse_args(argv)
    tokenizer, model = models.load_mlm(args.model, quiet=True)
    result = evaluate_acceptance(model, tokenizer, k=args.k)
    print(format_table(result))
    for item in result["items"][: args.examples]:
        mark = f"{item['rank']}위" if item["rank"] else ("못 맞힘" if item["reachable"] else "닿을 수 없음")
        print(f"- [{item['id']}] {item['sentence']} → {', '.join(item['predictions'])} ({mark})")
    return result


if __name__ == "__main__":
    main()
