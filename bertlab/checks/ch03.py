"""3장 어텐션 직접 계산하기의 연습문제 검사(`bl.check("3.2", ...)`).

기준값은 모두 커널의 모델(``ctx.model``, ``ctx.tokenizer``)과 3장의 손 계산 함수(`bertlab.attention`)로 그 자리에서
계산합니다. 그래서 미니 BERT든 mBERT든 같은 검사가 맞습니다. 문장만은 연습문제 준비 셀과 같은 두 문장을 씁니다.
"""

from __future__ import annotations

from . import Problem, as_tensor, close, exercise, open_question, scalar

PAGE = "notebooks/03_attention"
# 연습문제 준비 셀(태그 exercise-setup)의 `sentences`와 같아야 합니다: 길이가 다른 두 문장, 첫 문장이 더 길다.
SENTENCES = ("어제 친구와 함께 배를 타고 바다로 나갔다.", "배가 고프다.")




def _run(ctx):
    """준비 셀과 같은 배치와 모델 출력(은닉 상태 포함)."""
    import torch

    batch = ctx.tokenizer(list(SENTENCES), padding=True, return_tensors="pt")
    with torch.no_grad():
        outputs = ctx.model(**batch, output_hidden_states=True)
    n0, n1 = (int(n) for n in batch["attention_mask"].sum(dim=1))
    return batch, outputs.hidden_states, n0, n1


open_question(
    "3.1", "√H로 나누면", revisit="3장 '왜 √d_k로 나누는가' 절", page=PAGE,
    points=[
        "올바른 d_k는 헤드 크기 768 / 12 = 64이고, √64 = 8로 나눈다.",
        "√768 ≈ 27.7로 나누면 점수가 √768 / 8 = √12 ≈ 3.46배 작아진다.",
        "점수의 차이가 줄어 분포가 더 평평해진다(소프트맥스의 온도를 올린 것과 같다).",
    ],
)


@exercise("3.2", "마스크 없이 계산한 마지막 층", fields=("pad_share", "out_gap"),
          revisit="3장 '4단계: [PAD] 키를 가리는 마스크' 절", page=PAGE)
def _no_mask(ctx, pad_share, out_gap):
    import torch

    from ..attention import encoder_layer

    batch, hs, _, n1 = _run(ctx)
    last = len(hs) - 2  # 마지막 층의 코드 번호 L-1
    with torch.no_grad():
        steps = encoder_layer(ctx.model, hs[last], last, attention_mask=None)
    ref_share = steps.weights[1, :, :n1, n1:].sum(-1).mean()
    ref_gap = (steps.output[1, :n1] - hs[last + 1][1, :n1]).abs().max()

    share, gap = scalar(pad_share, "pad_share"), scalar(out_gap, "out_gap")
    if not 0.0 <= share <= 1.0:
        raise Problem("pad_share는 가중치의 합이라 0과 1 사이입니다. 한 행의 가중치를 모두 더하면 1이므로 [PAD] 키들의 몫은 "
                      "1보다 클 수 없습니다.")
    if share == 0.0 and float(ref_share) > 0:
        raise Problem("pad_share가 0입니다. 마스크를 끄고(attention_mask=None) 계산한 가중치를 썼는지 확인하세요.")
    all_queries = steps.weights[1, :, :, n1:].sum(-1).mean()
    if abs(share - float(all_queries)) < 1e-6 and abs(float(all_queries - ref_share)) > 1e-6:
        raise Problem("pad_share를 [PAD] 질의까지 넣어 평균했습니다. 질의는 둘째 문장의 실제 토큰(앞쪽 n1개)만 평균하세요.")
    close(share, ref_share, "pad_share", rtol=1e-3, atol=1e-6)
    if gap < 1e-4 < float(ref_gap):
        raise Problem("out_gap이 반올림 오차 수준입니다. 마스크 없이 계산한 출력을 모델의 출력 hidden_states[L]과 견주었는지 "
                      "확인하세요.")
    close(gap, ref_gap, "out_gap", rtol=1e-3, atol=1e-6)
    return f"마스크가 없으면 [PAD] 키가 실제 질의의 가중치를 평균 {float(ref_share):.3f}만큼 가져가고, 출력이 달라집니다."


def _first_layer(ctx):
    import torch

    from ..attention import encoder_layer, layer_norm

    batch, hs, n0, _ = _run(ctx)
    with torch.no_grad():
        first = encoder_layer(ctx.model, hs[0], 0, attention_mask=batch["attention_mask"])
    return batch, hs, n0, first, layer_norm


@exercise("3.3", "GELU 대신 ReLU", fields=("relu_gap",),
          revisit="3장 '8단계: GELU 피드포워드, 다시 잔차 연결과 LayerNorm' 절", page=PAGE)
def _relu(ctx, relu_gap):
    import torch

    from ..attention import get_bert

    _, hs, _, first, layer_norm = _first_layer(ctx)
    block = get_bert(ctx.model).encoder.layer[0]
    with torch.no_grad():
        ffn = torch.relu(first.ffn_hidden) @ block.output.dense.weight.T + block.output.dense.bias
        ln = block.output.LayerNorm
        ref = (layer_norm(first.attn_norm + ffn, ln.weight, ln.bias, ln.eps) - hs[1]).abs().max()
    rounding = float((first.output - hs[1]).abs().max())

    gap = scalar(relu_gap, "relu_gap")
    if gap <= max(10 * rounding, 1e-5) < float(ref):
        raise Problem("relu_gap이 반올림 오차 수준입니다. 피드포워드의 활성화를 GELU에서 ReLU(torch.relu)로 실제로 바꾸어 "
                      "다시 계산했는지 확인하세요.")
    close(gap, ref, "relu_gap", rtol=1e-3, atol=1e-6)
    if float(ref) > 100 * rounding:
        return "활성화 함수 하나만 바꾸어도 1층의 출력이 반올림 오차보다 훨씬 크게 달라집니다."
    return "ReLU로 바꾼 1층의 출력과 모델의 출력의 차이를 바르게 계산했습니다."


@exercise("3.4", "가장 큰 가중치와 가장 가까운 값 벡터", fields=("agree_share",),
          revisit="3장 '6단계: 가중합, 헤드 합치기, 출력 투영' 절", page=PAGE)
def _predict(ctx, agree_share):
    import torch

    _, _, n0, first, _ = _first_layer(ctx)
    weights = first.weights[0, :, :n0, :n0]
    values = first.v_heads[0, :, :n0]
    context = first.context_heads[0, :, :n0]
    top = weights.argmax(dim=-1)
    nearest = torch.cdist(context, values).argmin(dim=-1)
    ref = (top == nearest).double().mean()

    share = scalar(agree_share, "agree_share")
    if not 0.0 <= share <= 1.0:
        raise Problem("agree_share는 비율이라 0과 1 사이입니다. 백분율(%)이 아니라 같은 질의 수를 전체 질의 수로 나눈 값을 넣으세요.")
    if share == 1.0 and float(ref) < 1.0:
        raise Problem("모든 질의에서 같다고 나왔습니다. 예측을 그대로 넣지 말고, torch.cdist로 z_i와 값 벡터들의 거리를 재서 "
                      "가장 가까운 값 벡터를 찾았는지 확인하세요.")
    close(share, ref, "agree_share", rtol=1e-6, atol=1e-6)
    return (f"질의 {weights.shape[0] * n0}개 가운데 {float(ref):.1%}에서 가중치가 가장 큰 키의 값 벡터가 출력에 가장 "
            "가깝습니다. 나머지에서는 다른 값 벡터가 더 가깝습니다." if float(ref) < 1.0 else
            "이 모델의 1층에서는 모든 질의에서 두 키가 같습니다. 그래도 수학적으로 보장되는 일은 아닙니다.")


open_question(
    "3.5", "마스크를 곱하면", revisit="3장 '4단계: [PAD] 키를 가리는 마스크' 절", page=PAGE,
    points=[
        "소프트맥스 뒤의 가중치에 0을 곱하면 [PAD]의 가중치는 0이 되지만 행의 합이 1보다 작아진다.",
        "다시 나누어 정규화하면 덧셈 마스크와 같아지지만 한 단계가 더 필요하다.",
        "점수에 0을 곱하면 [PAD]의 점수가 0이 될 뿐이고 exp(0) = 1이라 [PAD]가 여전히 가중치를 받는다.",
    ],
)
