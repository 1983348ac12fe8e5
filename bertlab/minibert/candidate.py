"""새로 학습한 모델을 번들 모델과 나란히 잽니다(이슈 25의 채택 규칙, `ADOPTION_RULE_issue25.md`).

    python -m bertlab.minibert.candidate --model ~/runs/run9/model            # 규칙 1·2·3·5
    python -m bertlab.minibert.candidate --model ~/runs/run9/model --json out.json

규칙 4(6장의 테스트 정확도)는 6장을 그 모델로 실행해 잽니다(`BERTLAB_MODEL=DIR`로 노트북을 실행). 여기서 재는 것:

1. 빈칸 채우기 평가 세트(106문장): `fill_word` 상위 5개에 받아들이는 어절과 글자가 똑같은 어절이 있는 문장의 몫(상위 1개도),
   그리고 옛 규칙(한 토큰, 첫 조각 + 조사)의 상위 5개;
2. 일상 held-out 빈칸 세트(세트가 만들어져 있을 때): `fill_word` 상위 5개·상위 1개;
3. 동음이의어 여섯 개의 마지막 층 차이(같은 뜻 − 다른 뜻; eval, eval_particle)와 단어마다 마지막 층의 최근접 이웃 정확도;
5. 크기: 가중치 파일(MB).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch

from .. import data, models, senses
from . import acceptance as acceptance_mod
from . import modelcard


def nearest_neighbour_accuracy(vectors: list[senses.SenseVector], layer: int = -1) -> dict[str, float]:
    """단어마다: 자기를 뺀 같은 단어의 벡터 가운데 코사인 유사도가 가장 높은 것이 같은 뜻인 비율."""
    out = {}
    for word in dict.fromkeys(v.word for v in vectors):
        group = [v for v in vectors if v.word == word]
        x = torch.nn.functional.normalize(torch.stack([v.layers[layer] for v in group]).double(), dim=-1)
        sim = x @ x.T
        sim.fill_diagonal_(-float("inf"))
        nn = sim.argmax(dim=1).tolist()
        out[word] = sum(group[i].sense == group[j].sense for i, j in enumerate(nn)) / len(group)
    return out


def measure(name: str) -> dict:
    """한 모델의 잰 값. 어절 채우기 두 세트는 모델 카드와 같은 `modelcard.word_scores`로 잰다."""
    tokenizer, mlm = models.load_mlm(name, quiet=True)
    words = modelcard.word_scores(mlm, tokenizer)
    old = acceptance_mod.evaluate_acceptance(mlm, tokenizer)
    sentences = [r["sentence"] for r in acceptance_mod.read_acceptance()]
    result = {
        "model": str(name),
        "acceptance_old_rule": {k: old[k] for k in ("rows", "top1", "topk")},
        "acceptance_items": [dict(item, sentence=s) for s, item in zip(sentences, words["acceptance_word"]["items"])],
    }
    for key in ("acceptance_word", "heldout_word"):
        if key in words:
            result[key] = {k: words[key][k] for k in ("rows", "top1", "topk")}
    for split in ("eval", "eval_particle"):
        vectors = senses.sense_vectors(mlm.bert, tokenizer, data.read_senses(split), batch_size=32)
        result[f"sense_gap_{split}"] = modelcard.sense_gaps(senses.separation_from_vectors(vectors))
        if split == "eval":
            result["nearest_neighbour"] = nearest_neighbour_accuracy(vectors)
    result["weights_mb"] = modelcard.weights_mib(Path(models.resolve(name)))
    return result


def verdict(base: dict, new: dict) -> list[tuple[str, bool]]:
    """채택 규칙 1·2·3·5(규칙 4는 6장에서)."""
    rules = [("1. 평가 세트 fill_word 상위 5개가 기준보다 높다", new["acceptance_word"]["topk"] > base["acceptance_word"]["topk"])]
    if "heldout_word" in base and "heldout_word" in new:
        rules.append(("2. held-out 세트 fill_word 상위 5개가 기준보다 높다", new["heldout_word"]["topk"] > base["heldout_word"]["topk"]))
    positive = lambda r: sum(g > 0 for g in r["sense_gap_eval"].values())  # noqa: E731
    rules.append(("3. 양수인 동음이의어 차이(eval)가 기준보다 적지 않다", positive(new) >= positive(base)))
    if new["weights_mb"] is not None:
        rules.append(("5. 가중치 25 MB 이하", new["weights_mb"] <= 25))
    return rules


def report(base: dict, new: dict) -> str:
    pct = lambda x: f"{100 * x:.1f}%"  # noqa: E731
    lines = [f"| 항목 | 기준 ({base['model']}) | 후보 ({new['model']}) |", "|---|---:|---:|"]
    for key, label in (("acceptance_word", "평가 세트 fill_word"), ("acceptance_old_rule", "평가 세트 옛 규칙"),
                       ("heldout_word", "held-out 세트 fill_word")):
        if key in base and key in new:
            for k in ("topk", "top1"):
                lines.append(f"| {label} {'상위 5개' if k == 'topk' else '상위 1개'} | {pct(base[key][k])} | {pct(new[key][k])} |")
    for split in ("eval", "eval_particle"):
        for w in base[f"sense_gap_{split}"]:
            lines.append(f"| 차이 {w} ({split}) | {base[f'sense_gap_{split}'][w]:+.3f} | {new[f'sense_gap_{split}'][w]:+.3f} |")
    for w in base["nearest_neighbour"]:
        lines.append(f"| 최근접 이웃 {w} | {base['nearest_neighbour'][w]:.2f} | {new['nearest_neighbour'][w]:.2f} |")
    lines.append(f"| 가중치 MB | {base['weights_mb']} | {new['weights_mb']} |")
    lines.append("")
    lines += [f"- {'통과' if ok else '못 미침'}: {text}" for text, ok in verdict(base, new)]
    lines.append("- 규칙 4(6장 테스트 정확도)는 BERTLAB_MODEL로 6장을 실행해 잽니다.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bertlab.minibert.candidate", description="후보 모델을 번들 모델과 견줍니다(이슈 25).")
    p.add_argument("--model", required=True, help="후보 모델 폴더(save_pretrained 형식)")
    p.add_argument("--baseline", default="mini", help="기준 모델(기본: 번들 미니 BERT)")
    p.add_argument("--json", type=Path, default=None, help="두 모델의 잰 값을 이 파일에 JSON으로")
    a = p.parse_args(argv)
    torch.manual_seed(0)
    base, new = measure(a.baseline), measure(a.model)
    print(report(base, new))
    if a.json:
        a.json.write_text(json.dumps({"baseline": base, "candidate": new}, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
