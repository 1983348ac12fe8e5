"""동음이의어의 뜻이 문맥 벡터에서 갈리는지 재는 통계 (2장에서 처음 쓰고, 5장과 부록이 씁니다).

배·눈·말·밤·차·다리처럼 소리는 같고 뜻이 다른 단어를 두고, 같은 뜻 문장 쌍과 다른 뜻 문장 쌍의 코사인 유사도를
층마다 비교합니다. `word_token_index`는 문장에서 단어의 첫 토큰 위치를, `sense_vectors`는 모든 층의 그 위치 벡터를,
`separation_from_vectors`는 단어별 평균을, `sense_gap_p_values`는 순열 검정 p값을 돌려줍니다.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import torch
import torch.nn.functional as F

__all__ = [
    "SenseVector", "sense_vectors", "separation_from_vectors", "sense_gap_p_values", "sense_separation",
    "following_token_breakdown", "following_token_effects", "word_token_index", "SENSE_PERMUTATIONS",
]


class SenseVector(NamedTuple):
    """동음이의어 평가 문장 하나: 단어, 뜻, 모든 층의 단어 첫 토큰 벡터 [층 수 + 1, 은닉], 단어 바로 뒤 토큰의 id."""

    word: str
    sense: str
    layers: torch.Tensor
    next_id: int


@torch.no_grad()
def sense_vectors(bert, tokenizer, rows: list[dict], batch_size: int | None = None) -> list[SenseVector]:
    """동음이의어 문장마다 `SenseVector`를 한 번의 실행으로 모읍니다(모든 층을 함께).

    기본은 문장을 하나씩 실행합니다. `batch_size`를 주면 문장을 그만큼씩 묶어 패딩한 배치로 실행합니다([PAD]는 어텐션
    마스크가 가리므로 값은 하나씩 실행한 것과 반올림 오차 안에서 같고, 문장이 많으면 훨씬 빠릅니다).
    """
    bert.eval()
    if batch_size is not None:
        return _sense_vectors_batched(bert, tokenizer, rows, batch_size)
    out = []
    for r in rows:
        enc = tokenizer(r["sentence"], return_tensors="pt", return_offsets_mapping=True)
        offsets = enc.pop("offset_mapping")[0]
        pos = word_token_index(r["sentence"], r["word"], offsets)
        hidden = bert(**enc, output_hidden_states=True).hidden_states
        out.append(SenseVector(r["word"], r["sense"], torch.stack([h[0, pos] for h in hidden]), int(enc["input_ids"][0, pos + 1])))
    return out


def _sense_vectors_batched(bert, tokenizer, rows: list[dict], batch_size: int) -> list[SenseVector]:
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
        raise ValueError(f"batch_size는 1 이상의 정수여야 합니다 (받은 값: {batch_size!r}).")
    out = []
    for start in range(0, len(rows), batch_size):
        chunk = rows[start : start + batch_size]
        enc = tokenizer([r["sentence"] for r in chunk], padding=True, return_tensors="pt", return_offsets_mapping=True)
        offsets = enc.pop("offset_mapping")
        hidden = torch.stack(bert(**enc, output_hidden_states=True).hidden_states, dim=1)  # [문장, 층 수 + 1, 길이, 은닉]
        for i, r in enumerate(chunk):
            pos = word_token_index(r["sentence"], r["word"], offsets[i])
            out.append(SenseVector(r["word"], r["sense"], hidden[i, :, pos].clone(), int(enc["input_ids"][i, pos + 1])))
    return out


def _same_word_pairs(vectors: list[SenseVector], layer: int):
    """같은 단어의 문장 쌍마다 (앞, 뒤, 층 `layer`에서의 코사인 유사도)."""
    for i in range(len(vectors)):
        for j in range(i + 1, len(vectors)):
            if vectors[i].word == vectors[j].word:
                a, b = vectors[i], vectors[j]
                yield a, b, F.cosine_similarity(a.layers[layer], b.layers[layer], dim=0).item()


def separation_from_vectors(vectors: list[SenseVector], layer: int = -1) -> dict[str, dict[str, float]]:
    """`sense_vectors`의 결과에서, 층 `layer`의 같은 뜻 쌍·다른 뜻 쌍 평균 코사인 유사도를 단어별로 계산합니다."""
    by_word: dict[str, dict[str, list[float]]] = {}
    for a, b, c in _same_word_pairs(vectors, layer):
        by_word.setdefault(a.word, {"same": [], "cross": []})["same" if a.sense == b.sense else "cross"].append(c)
    return {word: {k: float(np.mean(v)) for k, v in groups.items()} for word, groups in by_word.items()}


SENSE_PERMUTATIONS = 2000  # 동음이의어 순열 검정에서 뜻 이름표를 섞는 횟수


def sense_gap_p_values(
    vectors: list[SenseVector], layer: int = -1, permutations: int = SENSE_PERMUTATIONS, seed: int = 0
) -> dict[str, float]:
    """단어별 순열 검정: 뜻 이름표를 무작위로 섞어도(뜻마다 문장 수는 그대로) 차이(같은 뜻 − 다른 뜻)가 관측값 이상으로
    나오는 비율(p값, 한쪽 검정). 작을수록 차이가 우연으로 설명되기 어렵습니다. 같은 `seed`면 늘 같은 값입니다.

    평가 문장이 뜻마다 몇 개뿐이라, 뜻과 무관한 요인(낱말의 위치, 주변 낱말)만으로도 작은 차이가 생깁니다(문맥을 보기 전인
    0층에서도 차이가 0이 아닙니다). 차이가 0보다 큰지만 보지 않고 그 크기가 우연히 나올 만한지를 함께 보려는 것입니다.
    """
    if permutations < 1:
        raise ValueError(f"permutations는 1 이상이어야 합니다 (받은 값: {permutations}).")
    rng = np.random.default_rng(seed)
    out = {}
    for word in dict.fromkeys(v.word for v in vectors):
        group = [v for v in vectors if v.word == word]
        codes = np.unique([v.sense for v in group], return_inverse=True)[1]
        if codes.max() == 0:
            raise ValueError(f"'{word}'의 평가 문장에 뜻이 하나뿐이라 같은 뜻 쌍과 다른 뜻 쌍을 비교할 수 없습니다.")
        cos = np.array([c for _, _, c in _same_word_pairs(group, layer)])  # (i, j) 쌍의 순서가 triu_indices와 같다
        upper = np.triu_indices(len(group), 1)
        labels = np.vstack([codes] + [rng.permutation(codes) for _ in range(permutations)])
        same = labels[:, upper[0]] == labels[:, upper[1]]  # [1 + 순열 수, 쌍 수]
        gaps = (same * cos).sum(1) / same.sum(1) - (~same * cos).sum(1) / (~same).sum(1)
        out[word] = float((np.sum(gaps[1:] >= gaps[0] - 1e-9) + 1) / (permutations + 1))
    return out


def sense_separation(bert, tokenizer, rows: list[dict], layer: int = -1) -> dict[str, dict[str, float]]:
    """동음이의어마다 같은 뜻 문장 쌍과 다른 뜻 문장 쌍의 평균 코사인 유사도(단어 첫 토큰; 기본은 마지막 층).

    `layer`는 `hidden_states`의 번호입니다(0 = 임베딩 층 출력, -1 = 마지막 층).
    """
    return separation_from_vectors(sense_vectors(bert, tokenizer, rows), layer)


def following_token_breakdown(vectors: list[SenseVector], layer: int = -1) -> list[dict]:
    """`sense_vectors`의 결과에서, 같은 단어의 문장 쌍을 '뜻이 같은가' × '단어 바로 뒤 토큰이 같은가'로 나눠
    층 `layer`의 평균 코사인 유사도를 셉니다.

    한국어에서 단어 뒤 토큰은 대개 조사(`##를`, `##가` …)입니다. 뜻 차이보다 조사 차이가 벡터를 더 크게 가르는지
    보는 진단이며, 돌려주는 행은 ``{"same_sense", "same_next", "mean_cosine", "pairs"}``입니다.
    """
    groups: dict[tuple[bool, bool], list[float]] = {}
    for a, b, c in _same_word_pairs(vectors, layer):
        groups.setdefault((a.sense == b.sense, a.next_id == b.next_id), []).append(c)
    return [
        {"same_sense": ss, "same_next": sn, "mean_cosine": float(np.mean(groups[ss, sn])), "pairs": len(groups[ss, sn])}
        for ss in (True, False) for sn in (True, False) if (ss, sn) in groups
    ]


def following_token_effects(table: list[dict]) -> dict[str, float]:
    """`following_token_breakdown`의 네 칸에서 두 효과를 뽑습니다(다른 쪽 조건을 고정하고 평균).

    ``next``: 뜻 조건이 같을 때 뒤 토큰까지 같으면 오르는 코사인, ``sense``: 뒤 토큰 조건이 같을 때 뜻까지 같으면 오르는 코사인.
    """
    c = {(r["same_sense"], r["same_next"]): r["mean_cosine"] for r in table}
    if len(c) != 4:
        raise ValueError(f"네 칸(뜻 같음/다름 × 뒤 토큰 같음/다름)이 모두 있어야 합니다: {sorted(c)}")
    return {
        "next": ((c[True, True] - c[True, False]) + (c[False, True] - c[False, False])) / 2,
        "sense": ((c[True, True] - c[False, True]) + (c[True, False] - c[False, False])) / 2,
    }


def word_token_index(sentence: str, word: str, offsets) -> int:
    """문장에서 `word`로 시작하는 어절의 첫 토큰 위치."""
    starts = [i for i in range(len(sentence)) if sentence.startswith(word, i) and (i == 0 or sentence[i - 1] == " ")]
    if not starts:
        raise ValueError(f"문장에 '{word}'로 시작하는 어절이 없습니다: {sentence}")
    for t, (a, b) in enumerate(offsets.tolist()):
        if a == starts[0] and b > a:
            return t
    raise ValueError(f"'{word}'의 토큰 위치를 찾지 못했습니다: {sentence}")
