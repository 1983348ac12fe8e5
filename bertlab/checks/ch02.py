"""2장 임베딩의 연습문제 검사(`bl.check("2.1", ...)`).

기준값은 모두 커널의 모델과 토크나이저(``ctx.model``, ``ctx.tokenizer``), 패키지의 `layer_norm`과 `bl.senses`로 그 자리에서
계산합니다. 그래서 미니 BERT든 mBERT든 같은 검사가 맞습니다. 문장은 연습문제와 같은 것을 여기서도 씁니다.
"""

from __future__ import annotations

from . import Problem, as_tensor, close, exercise, open_question, same_shape, scalar

PAGE = "notebooks/02_embeddings"
SEGMENT_SENTENCE = "배가 고프다."  # 문제 2.1
SENSE_WORD = "눈"  # 문제 2.2


def _embeddings(model):
    return getattr(model, "bert", model).embeddings


# ----------------------------------------------------------------------------- 2.1

def segment_gaps(tokenizer, model):
    """(LayerNorm 앞, 뒤)에서 세그먼트 id를 모두 0으로 둔 입력과 모두 1로 둔 입력의 차이 벡터 크기, 위치마다."""
    import torch

    from ..attention import layer_norm

    emb = _embeddings(model)
    ids = tokenizer(SEGMENT_SENTENCE, return_tensors="pt")["input_ids"][0]
    with torch.no_grad():
        base = emb.word_embeddings.weight[ids] + emb.position_embeddings.weight[: len(ids)]
        seg = emb.token_type_embeddings.weight
        z0, z1 = base + seg[0], base + seg[1]
        ln = emb.LayerNorm
        e0, e1 = layer_norm(z0, ln.weight, ln.bias, ln.eps), layer_norm(z1, ln.weight, ln.bias, ln.eps)
    return (z1 - z0).norm(dim=-1), (e1 - e0).norm(dim=-1)


@exercise("2.1", "세그먼트 id를 모두 1로", fields=("seg_before", "seg_after"),
          revisit="2장 '입력 임베딩을 손으로 계산하기' 절", page=PAGE)
def _segments(ctx, seg_before, seg_after):
    import torch

    ref_before, ref_after = segment_gaps(ctx.tokenizer, ctx.model)
    before, after = as_tensor(seg_before, "seg_before"), as_tensor(seg_after, "seg_after")
    for value, name in ((before, "seg_before"), (after, "seg_after")):
        if value.dim() == 2:
            raise Problem(f"{name}이(가) 차이 벡터 자체입니다(모양 {tuple(value.shape)}). 위치마다 차이 벡터의 크기(노름, "
                          ".norm(dim=-1))를 넣으세요.")
        same_shape(value, ref_before, name, "문장의 토큰 수, [CLS]와 [SEP] 포함")
    ref_before, ref_after = ref_before.double(), ref_after.double()
    if torch.allclose(after, ref_before, rtol=1e-4, atol=1e-6) and not torch.allclose(ref_after, ref_before, rtol=1e-3):
        raise Problem("seg_after가 LayerNorm 앞의 차이와 같습니다. 두 합 벡터에 각각 LayerNorm을 적용한 뒤에 차이를 재세요.")
    if torch.allclose(before, ref_after, rtol=1e-4, atol=1e-6) and not torch.allclose(ref_after, ref_before, rtol=1e-3):
        raise Problem("seg_before가 LayerNorm 뒤의 차이와 같습니다. seg_before는 세 벡터를 더하기만 한 합끼리의 차이입니다.")
    if float(before.max() - before.min()) > 1e-4 * max(float(before.abs().max()), 1e-12):
        raise Problem("seg_before가 위치마다 다릅니다. LayerNorm 앞에서 두 합의 차이는 세그먼트 벡터의 차이 하나뿐이라 모든 "
                      "위치에서 같아야 합니다. 토큰·위치 벡터는 두 경우에 같은지 확인하세요.")
    close(before, ref_before, "seg_before", rtol=1e-3, atol=1e-6)
    close(after, ref_after, "seg_after", rtol=1e-3, atol=1e-5)
    return (f"LayerNorm 앞에서는 모든 위치에서 같던 차이(크기 {float(ref_before[0]):.3f})가, 뒤에서는 위치마다 달라집니다"
            f"(가장 작은 것 {float(ref_after.min()):.3f}, 가장 큰 것 {float(ref_after.max()):.3f}).")


# ----------------------------------------------------------------------------- 2.2

def senses_permutations() -> int:
    from ..senses import SENSE_PERMUTATIONS

    return SENSE_PERMUTATIONS


def sense_gap_and_p(tokenizer, model, word: str = SENSE_WORD) -> tuple[float, float]:
    from .. import data, senses

    rows = [r for r in data.read_senses("eval") if r["word"] == word]
    vectors = senses.sense_vectors(getattr(model, "bert", model), tokenizer, rows, batch_size=len(rows))
    sep = senses.separation_from_vectors(vectors)[word]
    return sep["same"] - sep["cross"], senses.sense_gap_p_values(vectors)[word]


@exercise("2.2", "'눈'의 두 뜻", fields=("nun_gap", "nun_p"),
          revisit="2장 '정적 임베딩과 문맥 임베딩' 절", page=PAGE)
def _senses(ctx, nun_gap, nun_p):
    ref_gap, ref_p = sense_gap_and_p(ctx.tokenizer, ctx.model)
    gap = scalar(nun_gap, "nun_gap")
    p = scalar(nun_p, "nun_p")
    if abs(gap + ref_gap) < 1e-6 and abs(ref_gap) > 1e-6:
        raise Problem("nun_gap의 부호가 반대입니다. 같은 뜻 쌍의 평균에서 다른 뜻 쌍의 평균을 빼세요.")
    if abs(gap - ref_gap) > 1e-4:
        raise Problem("nun_gap이 기대한 값과 다릅니다. '눈'의 평가 문장 모두를 쓰고, 마지막 층(기본값)에서 쌍마다 잰 코사인 "
                      "유사도를 같은 뜻 쌍과 다른 뜻 쌍으로 나누어 평균했는지 확인하세요.")
    if not 0.0 < p <= 1.0:
        raise Problem("nun_p는 p값이라 0보다 크고 1 이하입니다. 순열 검정 결과(비율)를 그대로 넣으세요.")
    if abs(p - (1 - ref_p)) < 1e-3 and abs(ref_p - 0.5) > 5e-3:
        raise Problem("nun_p가 기대한 값을 1에서 뺀 것과 같습니다. p값은 섞은 차이가 실제 차이 '이상'인 비율입니다.")
    if abs(p - ref_p) > 2.5 / (senses_permutations() + 1):  # 한 번에 재든 배치로 재든: 순열 한두 개의 차이까지
        raise Problem("nun_p가 기대한 값과 다릅니다. bl.senses.sense_gap_p_values를 기본 설정(순열 2,000번, seed=0, 마지막 층)"
                      "으로 불렀는지 확인하세요.")
    verdict = ("p < 0.05라 이만한 차이는 우연으로 보기 어렵습니다" if ref_p < 0.05 else
               "p ≥ 0.05라 이 문장들로는 뜻이 갈린다고 말할 수 없습니다")
    return f"'눈'의 차이는 {ref_gap:+.3f}, p = {ref_p:.3f}입니다. {verdict}."


# ----------------------------------------------------------------------------- 2.3

def position_similarity(model) -> tuple[float, float]:
    """(이웃한 위치 쌍의 평균 코사인 유사도, 서로 다른 모든 위치 쌍의 평균)."""
    import torch
    import torch.nn.functional as F

    with torch.no_grad():
        p = F.normalize(_embeddings(model).position_embeddings.weight.double(), dim=-1)
        s = p @ p.T
        n = s.shape[0]
        return float(s.diagonal(1).mean()), float(s[~torch.eye(n, dtype=torch.bool)].mean())


def _cosine(value, name: str) -> float:
    v = scalar(value, name)
    if not -1.0 - 1e-6 <= v <= 1.0 + 1e-6:
        raise Problem(f"{name}은(는) 코사인 유사도의 평균이라 −1과 1 사이입니다. 벡터의 길이로 나누었는지(정규화), "
                      "백분율로 바꾸지 않았는지 확인하세요.")
    return v


@exercise("2.3", "이웃한 위치의 위치 임베딩", fields=("adjacent_cos", "all_cos"),
          revisit="2장 '세 가지 임베딩 표' 절", page=PAGE)
def _positions(ctx, adjacent_cos, all_cos):
    import torch
    import torch.nn.functional as F

    ref_adj, ref_all = position_similarity(ctx.model)
    adj, every = _cosine(adjacent_cos, "adjacent_cos"), _cosine(all_cos, "all_cos")
    if abs(adj - ref_adj) > 1e-4:
        w = _embeddings(ctx.model).position_embeddings.weight.double()
        raw = float((w[:-1] * w[1:]).sum(-1).mean())
        if abs(adj - raw) < 1e-4:
            raise Problem("adjacent_cos가 내적의 평균입니다. 코사인 유사도는 두 벡터의 길이로 나눈 내적입니다(F.normalize 또는 "
                          "F.cosine_similarity).")
        raise Problem("adjacent_cos가 기대한 값과 다릅니다. 표의 모든 행에서 위치 t와 t+1의 쌍만 골라 평균했는지 확인하세요.")
    if abs(every - ref_all) > 1e-4:
        with torch.no_grad():
            p = F.normalize(_embeddings(ctx.model).position_embeddings.weight.double(), dim=-1)
            with_diagonal = float((p @ p.T).mean())
        if abs(every - with_diagonal) < 1e-4:
            raise Problem("all_cos에 자기 자신과의 유사도(대각선, 모두 1)가 들어갔습니다. 서로 다른 두 위치의 쌍만 평균하세요.")
        raise Problem("all_cos가 기대한 값과 다릅니다. 서로 다른 두 위치의 모든 쌍을 평균했는지 확인하세요.")
    more = "이웃한 위치끼리 더 비슷합니다" if ref_adj > ref_all + 0.01 else "이웃한 위치끼리 더 비슷하다고 할 만큼 차이가 나지 않습니다"
    return f"이 모델의 위치 임베딩에서는 {more}."


open_question(
    "2.4", "학습하는 위치 임베딩과 사인·코사인", revisit="2장 '세 가지 임베딩 표' 절", page=PAGE,
    points=[
        "학습하는 방식은 데이터에 맞는 위치 표현을 스스로 찾는다.",
        "학습하는 방식은 표의 행 수(최대 길이)를 넘는 위치에 벡터가 없어 더 긴 입력을 받을 수 없다.",
        "사인·코사인 방식은 파라미터가 없고 원리상 어떤 길이에도 값을 만들 수 있다.",
        "사인·코사인 방식은 표현이 고정되어 데이터에 맞춰 바뀌지 않는다(원 논문에서는 두 방식의 성능이 거의 같았다).",
    ],
)
