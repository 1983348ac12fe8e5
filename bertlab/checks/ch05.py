"""5장 은닉 상태와 풀러의 연습문제 검사(`bl.check("5.1", ...)`).

기준값은 모두 커널의 모델과 토크나이저(``ctx.model``, ``ctx.tokenizer``)로 그 자리에서 계산합니다. 그래서 미니 BERT든
mBERT든 같은 검사가 맞습니다. 문장만은 연습문제 준비 셀(태그 exercise-setup)과 같은 것을 여기서도 씁니다.
"""

from __future__ import annotations

import math

from . import Problem, as_tensor, close, exercise, open_question, rate, scalar

PAGE = "notebooks/05_hidden_states_pooler"
# 연습문제 준비 셀의 `senses`, `pairs`와 같아야 합니다(본문의 열두 문장과 여섯 쌍).
SENSES = {
    "탈것": ("작은 배가 강을 따라 천천히 내려갔다.", "항구에 커다란 배가 천천히 들어왔다.",
            "태풍 때문에 오늘은 배가 뜨지 못한다.", "어부들이 탄 배가 새벽에 바다로 나갔다."),
    "신체": ("점심을 걸렀더니 배가 몹시 고프다.", "찬 우유를 마셨더니 배가 아파서 누웠다.",
            "저녁을 많이 먹어서 배가 부르다.", "아이는 너무 웃어서 배가 아프다고 했다."),
    "과일": ("추석에 선물 받은 배가 달고 시원했다.", "냉장고에서 꺼낸 배가 아주 달았다.",
            "올해는 과수원의 배가 크고 맛있게 열렸다.", "깎아 놓은 배가 금세 누렇게 변했다."),
}
PAIRS = (
    ("오늘은 날씨가 맑고 따뜻하다.", "하늘이 맑고 날이 포근하다.", "비슷함"),
    ("그는 버스를 타고 학교에 갔다.", "그는 버스로 등교했다.", "비슷함"),
    ("이 식당 음식은 정말 맛있다.", "이 가게 요리는 아주 훌륭하다.", "비슷함"),
    ("오늘은 날씨가 맑고 따뜻하다.", "나는 어제 수학 숙제를 끝냈다.", "다름"),
    ("그는 버스를 타고 학교에 갔다.", "고양이가 소파 위에서 잠을 잔다.", "다름"),
    ("이 식당 음식은 정말 맛있다.", "주식 시장이 크게 흔들렸다.", "다름"),
)
PERMUTATIONS = 20_000  # 기준 p값을 낼 때 이름표를 섞는 횟수(학생의 2,000번보다 많아 기준의 흔들림이 작다)
STUDENT_PERMUTATIONS = 2_000  # 문제가 시키는 횟수: 허용 오차를 이 횟수의 표준 오차로 정한다






def _numbers(value, name: str):
    """숫자 목록(리스트, 넘파이 배열, 텐서, pandas Series)을 1차원 float64 넘파이 배열로."""
    import numpy as np

    try:
        arr = np.asarray(value.detach().cpu() if hasattr(value, "detach") else value, dtype=np.float64)
    except (TypeError, ValueError):
        raise Problem(f"{name}은(는) 숫자의 목록이어야 합니다(받은 값의 종류: {type(value).__name__}).") from None
    if arr.ndim != 1:
        raise Problem(f"{name}은(는) 은닉 상태마다 숫자 하나인 1차원 목록이어야 합니다(받은 모양: {arr.shape}).")
    return arr


# ----------------------------------------------------------------------------- 공통 계산

def bae_run(tokenizer, model):
    """열두 문장의 배치 출력과 '배' 벡터 [L+1, 문장 수, H], 뜻 이름표(넘파이 배열)."""
    import numpy as np
    import torch

    from ..senses import word_token_index

    texts = [s for group in SENSES.values() for s in group]
    labels = np.array([name for name, group in SENSES.items() for _ in group])
    batch = tokenizer(texts, padding=True, return_tensors="pt", return_offsets_mapping=True)
    offsets = batch.pop("offset_mapping")
    where = torch.tensor([word_token_index(t, "배", o) for t, o in zip(texts, offsets)])
    with torch.no_grad():
        out = model(**batch, output_hidden_states=True)
    vecs = torch.stack([h[torch.arange(len(texts)), where] for h in out.hidden_states])
    return out, vecs, labels


def nearest_neighbours(vectors):
    """벡터마다 자기를 뺀 나머지 가운데 코사인 유사도가 가장 큰 벡터의 번호."""
    import torch
    import torch.nn.functional as F

    v = F.normalize(vectors.double(), dim=-1)
    c = v @ v.T
    c.fill_diagonal_(-math.inf)
    return c.argmax(dim=1).numpy()


def nn_p_value(nn, labels, permutations: int = PERMUTATIONS, seed: int = 0) -> float:
    """뜻 이름표를 섞어(뜻마다 문장 수는 그대로) 최근접 이웃 정확도가 관측값 이상인 비율."""
    import numpy as np

    observed = (labels[nn] == labels).mean()
    rng = np.random.default_rng(seed)
    shuffled = rng.permuted(np.tile(labels, (permutations, 1)), axis=1)
    accs = (shuffled[:, nn] == shuffled).mean(axis=1)
    return float((np.sum(accs >= observed - 1e-12) + 1) / (permutations + 1))


def pair_sentences() -> list[str]:
    return list(dict.fromkeys(s for a, b, _ in PAIRS for s in (a, b)))


def pair_gaps_by_layer(tokenizer, model, masked: bool = True):
    """은닉 상태마다 평균 풀링한 문장 벡터로 잰 (비슷한 쌍 평균 − 다른 쌍 평균) 코사인 유사도, L+1개."""
    import numpy as np
    import torch
    import torch.nn.functional as F

    from ..analysis import mean_pool

    unique = pair_sentences()
    index = {s: i for i, s in enumerate(unique)}
    batch = tokenizer(unique, padding=True, return_tensors="pt")
    with torch.no_grad():
        hidden = model(**batch, output_hidden_states=True).hidden_states
    rel = np.array([r for _, _, r in PAIRS])
    gaps = []
    for h in hidden:
        pooled = mean_pool(h, batch["attention_mask"]) if masked else h.mean(dim=1)
        cos = np.array([F.cosine_similarity(pooled[index[a]], pooled[index[b]], dim=0).item() for a, b, _ in PAIRS])
        gaps.append(cos[rel == "비슷함"].mean() - cos[rel == "다름"].mean())
    return np.array(gaps)


# ----------------------------------------------------------------------------- 5.1

@exercise("5.1", "최근접 이웃 정확도의 순열 검정", fields=("nn_acc", "nn_p"),
          revisit="5장 '동음이의어 '배': 층을 지나며 뜻이 갈라지나' 절", page=PAGE)
def _nn_permutation(ctx, nn_acc, nn_p):
    _, vecs, labels = bae_run(ctx.tokenizer, ctx.model)
    last = vecs.shape[0] - 1
    nn = nearest_neighbours(vecs[last])
    ref_acc = float((labels[nn] == labels).mean())
    acc, p = rate(nn_acc, "nn_acc"), rate(nn_p, "nn_p")

    if abs(acc - ref_acc) > 1e-6:
        if acc == 1.0:
            raise Problem("nn_acc가 1입니다. 벡터마다 가장 가까운 벡터는 늘 자기 자신이므로, 유사도 행렬의 대각선을 빼고(-inf로 "
                          "채우고) 나머지에서 이웃을 고르세요.")
        first = nearest_neighbours(vecs[0])
        if abs(acc - float((labels[first] == labels).mean())) < 1e-6:
            raise Problem("nn_acc가 임베딩 출력(hidden_states[0])의 정확도와 같습니다. 문제는 마지막 층의 출력, 곧 "
                          "bae_vecs[L]을 봅니다.")
        raise Problem("nn_acc가 기대한 값과 다릅니다. 마지막 층의 '배' 벡터 열두 개로 코사인 유사도 행렬을 만들고, 자기를 뺀 "
                      "가장 가까운 벡터의 뜻이 같은 비율을 세세요.")

    ref_p = nn_p_value(nn, labels)
    tolerance = max(0.02, 4 * math.sqrt(ref_p * (1 - ref_p) / STUDENT_PERMUTATIONS))
    if abs(p - ref_p) > tolerance:
        if abs(p - ref_acc) < 1e-9:
            raise Problem("nn_p에 정확도를 넣었습니다. p값은 이름표를 섞어 다시 잰 정확도들 가운데 관측한 정확도 이상인 것의 비율입니다.")
        if abs((1 - p) - ref_p) <= tolerance:
            raise Problem("nn_p의 방향이 반대입니다. p값은 섞은 이름표로 잰 정확도가 관측한 정확도 이상인 비율입니다. "
                          "부등호의 방향을 확인하세요.")
        raise Problem("nn_p가 기대한 범위를 벗어났습니다. 이름표만 섞고(벡터와 이웃은 그대로) 2,000번 이상 되풀이했는지, "
                      "섞을 때 뜻마다 문장 수가 그대로인지(np.random.default_rng(0).permutation(labels)) 확인하세요.")
    chance = (len(labels) / len(set(labels)) - 1) / (len(labels) - 1)
    verdict = ("이름표를 섞어서는 좀처럼 나오지 않는 정확도입니다(p < 0.05)" if ref_p < 0.05 else
               "이름표를 섞어도 흔히 나오는 정확도라, 뜻을 가른다고 말할 근거가 되지 못합니다(p ≥ 0.05)")
    return (f"마지막 층의 최근접 이웃 정확도는 {ref_acc:.2f}(무작위로 고르면 {chance:.2f})이고, {verdict}. "
            f"이름표를 {PERMUTATIONS:,}번 섞은 기준 p값은 {ref_p:.4f}입니다.")


# ----------------------------------------------------------------------------- 5.2

def pooler_linear(tokenizer, model):
    """열두 문장의 [CLS] 벡터에 풀러의 선형층만 적용한 값(tanh 전)과 pooler_output."""
    import torch

    out, _, _ = bae_run(tokenizer, model)
    dense = model.pooler.dense
    with torch.no_grad():
        linear = out.last_hidden_state[:, 0] @ dense.weight.T + dense.bias
    return linear, out.pooler_output


@exercise("5.2", "tanh가 누르는 성분", fields=("largest", "big_share"),
          revisit="5장 '풀러' 절", page=PAGE)
def _tanh(ctx, largest, big_share):
    if getattr(ctx.model, "pooler", None) is None:
        raise Problem("이 모델에는 풀러가 없습니다(add_pooling_layer=False). 풀러가 있는 모델로 다시 해 보세요.")
    linear, pooled = pooler_linear(ctx.tokenizer, ctx.model)
    ref_largest = float(linear.abs().max())
    ref_share = float((linear.abs() > 1).double().mean())
    got_largest, share = scalar(largest, "largest"), rate(big_share, "big_share")

    if got_largest < 1.0 <= ref_largest and abs(got_largest - float(pooled.abs().max())) < 1e-4:
        raise Problem("largest가 pooler_output에서 잰 값입니다. tanh를 지나기 전, 선형층의 출력 W h + b에서 재세요.")
    close(got_largest, ref_largest, "largest", rtol=1e-4, atol=1e-5)
    if abs(share - ref_share) > 1e-6:
        if share == 0.0 and ref_share > 0:
            raise Problem("big_share가 0입니다. tanh를 지난 값은 모두 (-1, 1) 안에 있으니, tanh 전의 선형층 출력에서 세세요.")
        if abs((1 - share) - ref_share) < 1e-6:
            raise Problem("big_share가 반대쪽 몫입니다. 절댓값이 1을 넘는 성분의 몫을 세세요.")
        raise Problem("big_share가 기대한 값과 다릅니다. 선형층 출력의 모든 성분(문장 수 × H개) 가운데 절댓값이 1을 넘는 "
                      "성분의 비율을 세세요.")
    return (f"선형층 출력의 가장 큰 절댓값은 {ref_largest:.2f}이고, 성분의 {ref_share:.1%}가 절댓값 1을 넘어 tanh에 "
            "크게 눌립니다.")


# ----------------------------------------------------------------------------- 5.3

def unmasked_gap(tokenizer, model) -> float:
    """패딩이 가장 많이 붙은 문장: 마스크 없이 배치에서 평균한 벡터와 그 문장만 넣어 평균한 벡터의 성분 차이 최댓값."""
    import torch

    unique = pair_sentences()
    batch = tokenizer(unique, padding=True, return_tensors="pt")
    k = int(batch["attention_mask"].sum(dim=1).argmin())
    with torch.no_grad():
        naive = model(**batch).last_hidden_state[k].mean(dim=0)
        alone = model(**tokenizer(unique[k], return_tensors="pt")).last_hidden_state[0].mean(dim=0)
    return float((naive - alone).abs().max())


@exercise("5.3", "마스크 없는 평균 풀링", fields=("naive_gap",),
          revisit="5장 '문장 벡터 세 가지 비교' 절", page=PAGE)
def _mask(ctx, naive_gap):
    ref = unmasked_gap(ctx.tokenizer, ctx.model)
    gap = scalar(naive_gap, "naive_gap")
    if gap < 1e-4 < ref:
        raise Problem("naive_gap이 반올림 오차 수준입니다. 마스크를 쓴 평균(bl.analysis.mean_pool)과 견준 것 같습니다. "
                      "배치의 last_hidden_state를 마스크 없이 .mean(dim=0)으로 평균하세요.")
    if abs(gap - ref) > max(1e-4, 1e-3 * ref):
        raise Problem("naive_gap이 기대한 값과 다릅니다. 패딩이 가장 많이 붙은 문장(attention_mask의 합이 가장 작은 문장)을 "
                      "골랐는지, 그 문장만 따로 넣어 얻은 평균과 성분마다의 차이의 최댓값을 쟀는지 확인하세요.")
    return (f"마스크 없이 평균하면 [PAD] 자리의 벡터가 섞여 성분이 최대 {ref:.3f}까지 달라집니다. 같은 문장이 배치에 "
            "무엇과 함께 들어가느냐에 따라 다른 벡터를 얻는 셈입니다.")


# ----------------------------------------------------------------------------- 5.4

@exercise("5.4", "은닉 상태마다 평균 풀링", fields=("layer_gaps",),
          revisit="5장 '문장 벡터 세 가지 비교' 절", page=PAGE)
def _layer_gaps(ctx, layer_gaps):
    import numpy as np

    got = _numbers(layer_gaps, "layer_gaps")
    ref = pair_gaps_by_layer(ctx.tokenizer, ctx.model)
    if len(got) != len(ref):
        if len(got) == len(ref) - 1:
            raise Problem(f"layer_gaps가 {len(got)}개입니다. 임베딩 출력(hidden_states[0])까지 넣어 은닉 상태 {len(ref)}개 "
                          "모두에서 재세요.")
        raise Problem(f"layer_gaps의 길이가 {len(got)}입니다(기대: 은닉 상태의 수 {len(ref)}).")
    if np.allclose(got, -ref, atol=1e-5) and not np.allclose(ref, 0, atol=1e-5):
        raise Problem("layer_gaps의 부호가 반대입니다. (비슷한 쌍의 평균) − (다른 쌍의 평균) 순서로 빼세요.")
    if np.allclose(got, pair_gaps_by_layer(ctx.tokenizer, ctx.model, masked=False), atol=1e-5):
        raise Problem("layer_gaps를 마스크 없이 평균한 벡터로 잰 것 같습니다. 평균 풀링은 attention_mask로 [PAD]를 빼야 합니다"
                      "(bl.analysis.mean_pool).")
    close(got, ref, "layer_gaps", rtol=1e-3, atol=1e-5)
    best = int(ref.argmax())
    where = "임베딩 출력" if best == 0 else f"{best}번 은닉 상태"
    return (f"여섯 쌍에서 차이가 가장 큰 것은 {where}의 평균입니다({ref[best]:.3f}). 다만 쌍이 여섯 개뿐이라 은닉 상태 "
            "사이의 차이는 우연과 가를 수 없는 크기입니다.")


# ----------------------------------------------------------------------------- 5.5

open_question(
    "5.5", "문장이 적을 때의 층 비교", revisit="5장 '동음이의어 '배': 층을 지나며 뜻이 갈라지나' 절", page=PAGE,
    points=[
        "뜻마다 문장이 네 개면 최근접 이웃 정확도는 1/12 단위로만 움직여, 문장 하나에 크게 흔들리고 여러 은닉 상태가 같은 "
        "값으로 비기기 쉽다.",
        "문장을 더하거나 바꾸면 차이가 가장 큰 은닉 상태의 번호가 바뀔 수 있으니, 한 묶음의 결과로 '가장 잘 가르는 층'을 "
        "정하지 않는다.",
        "같은 뜻의 문장들이 함께 담은 단어(바다, 고프다, 달다)나 단어 바로 뒤의 조사 때문에 가까워질 수 있으므로, 조사를 "
        "맞추고 문맥 단어가 겹치지 않게 쓴다.",
        "차이가 우연으로 나올 만한지는 뜻 이름표를 섞는 순열 검정의 p값으로 보고, 판정은 학습에 쓰지 않은 평가 문장(부록)으로 한다.",
    ],
)
