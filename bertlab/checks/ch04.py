"""4장 멀티헤드 어텐션 분석의 연습문제 검사(`bl.check("4.2", ...)`).

기준값은 모두 커널의 모델(``ctx.model``, ``ctx.tokenizer``)과 4장의 분석 함수(`bertlab.analysis`)로 그 자리에서
계산합니다. 그래서 미니 BERT든 mBERT든 같은 검사가 맞습니다. 문장만은 연습문제 준비 셀과 같은 문장을 씁니다.
"""

from __future__ import annotations

from . import Problem, as_tensor, close, exercise, open_question, rate, same_shape, scalar

PAGE = "notebooks/04_multihead"
# 연습문제 준비 셀(태그 exercise-setup)의 `sentence`, `corpus`와 같아야 합니다.
SENTENCE = "어제 항구에서 배를 타고 작은 섬으로 건너갔다."
CORPUS = (
    "오늘 아침에 비가 와서 우산을 챙겼다.",
    "동생은 도서관에서 두꺼운 책을 빌려 왔다.",
    "주말마다 할머니 댁에 가서 김치를 담근다.",
    "버스를 놓쳐서 회사까지 한참을 걸었다.",
    "시장에서 산 사과가 생각보다 달았다.",
    "친구가 보낸 편지를 읽고 한참 웃었다.",
    "겨울 바다는 바람이 차고 파도가 높았다.",
    "우리 팀은 마지막 경기에서 아쉽게 졌다.",
    "새로 생긴 식당의 국수가 정말 맛있었다.",
    "밤하늘에 별이 가득해서 사진을 여러 장 찍었다.",
)


def _corpus(ctx):
    """준비 셀과 같은 열 문장 배치, 모델 출력, 헤드 통계."""
    import torch

    from ..analysis import head_stats

    batch = ctx.tokenizer(list(CORPUS), padding=True, return_tensors="pt")
    with torch.no_grad():
        out = ctx.model(**batch, output_attentions=True)
    return batch, out, head_stats(out.attentions, batch, ctx.tokenizer)


def _positional_head(stats) -> tuple[int, int]:
    """앞/뒤 토큰 비율(둘 가운데 큰 값)이 가장 큰 헤드의 코드 번호 (층, 헤드)."""
    score = stats[["prev", "next"]].max(axis=1)
    row = stats.loc[score.idxmax()]
    return int(row["layer"]), int(row["head"])


@exercise("4.1", "문장 하나의 통계는 얼마나 흔들리는가", fields=("gap", "spread"),
          revisit="4장 '헤드 통계: 모든 층 × 헤드' 절", page=PAGE)
def _stability(ctx, gap, spread):
    import numpy as np

    from ..analysis import head_stats, stat_map

    batch, out, stats = _corpus(ctx)
    maps = []
    for b in range(len(CORPUS)):
        one = {k: v[b:b + 1] for k, v in batch.items()}
        maps.append(stat_map(head_stats(tuple(a[b:b + 1] for a in out.attentions), one, ctx.tokenizer), "prev").to_numpy())
    maps = np.stack(maps)
    mean = stat_map(stats, "prev").to_numpy()
    ref_gap = float(np.abs(maps[0] - mean).max())
    ref_spread = float(maps.std(axis=0).max())

    g, s = scalar(gap, "gap"), scalar(spread, "spread")
    if g < 0 or s < 0:
        raise Problem("gap과 spread는 차이의 절댓값과 표준편차라서 0보다 작을 수 없습니다. np.abs를 썼는지 확인하세요.")
    worst = float(np.abs(maps - mean).max())
    if abs(g - worst) < 1e-9 and abs(worst - ref_gap) > 1e-9:
        raise Problem("gap이 열 문장 가운데 가장 크게 다른 문장의 값입니다. 첫 문장(번호 0) 하나의 지도만 평균과 견주세요.")
    ddof1 = float(maps.std(axis=0, ddof=1).max())
    if abs(s - ddof1) < 1e-9 and abs(ddof1 - ref_spread) > 1e-9:
        raise Problem("spread를 표본 표준편차(ddof=1)로 계산했습니다. 문제대로 np.std의 기본값(ddof=0)을 쓰세요.")
    close(g, ref_gap, "gap", rtol=1e-4, atol=1e-7)
    close(s, ref_spread, "spread", rtol=1e-4, atol=1e-7)
    se = ref_spread / len(CORPUS) ** 0.5
    return (f"첫 문장 하나의 앞 토큰 비율과 열 문장 평균의 가장 큰 차이는 {ref_gap:.3f}이고, 문장 사이 표준편차는 가장 큰 "
            f"헤드에서 {ref_spread:.3f}입니다. 열 문장을 평균하면 흔들림(표준오차)이 대략 {se:.3f} 정도로 줄어듭니다.")


@exercise("4.2", "위치 헤드의 가장 큰 키", fields=("prev_rate", "next_rate"),
          revisit="4장 '위치 헤드와 [SEP] 헤드 찾기' 절", page=PAGE)
def _argmax_rates(ctx, prev_rate, next_rate):
    import torch

    batch, out, stats = _corpus(ctx)
    layer, head = _positional_head(stats)
    a = out.attentions[layer][:, head]
    mask = batch["attention_mask"].bool()
    best = a.argmax(dim=-1)
    pos = torch.arange(a.shape[-1]).expand_as(best)
    total = mask.sum().item()
    ref_prev = ((best == pos - 1) & mask).sum().item() / total
    ref_next = ((best == pos + 1) & mask).sum().item() / total

    p, n = rate(prev_rate, "prev_rate"), rate(next_rate, "next_rate")
    if p + n > 1 + 1e-9:
        raise Problem("prev_rate와 next_rate를 더하면 1을 넘습니다. 한 질의의 가장 큰 키는 하나뿐이므로 두 비율의 합은 1 이하입니다.")
    if abs(ref_prev - ref_next) > 1e-9 and abs(p - ref_next) < 1e-6 and abs(n - ref_prev) < 1e-6:
        raise Problem("prev_rate와 next_rate의 앞과 뒤가 바뀌었습니다. 질의 i의 앞 토큰은 i-1, 뒤 토큰은 i+1입니다.")
    close(p, ref_prev, "prev_rate", rtol=1e-6, atol=1e-9)
    close(n, ref_next, "next_rate", rtol=1e-6, atol=1e-9)
    chance = float((1 / mask.sum(dim=1).double()).mean())
    side, top = ("앞", ref_prev) if ref_prev >= ref_next else ("뒤", ref_next)
    where = ("절반이 넘는 질의에서" if top > 0.5 else "절반이 안 되는 질의에서")
    return (f"{layer + 1}층의 {head}번 헤드는 {where} 바로 {side} 토큰에 가장 큰 가중치를 줍니다({top:.1%}, 키를 무작위로 "
            f"고르면 평균 {chance:.1%}).")


@exercise("4.3", "아무것도 지우지 않은 요약", fields=("special_rate", "self_rate"),
          revisit="4장 '흔히 쓰는 요약 보기와 그 한계' 절", page=PAGE)
def _summary(ctx, special_rate, self_rate):
    import numpy as np
    import torch

    from ..analysis import mean_attention

    one = ctx.tokenizer(SENTENCE, return_tensors="pt")
    with torch.no_grad():
        attns = ctx.model(**one, output_attentions=True).attentions
    raw = mean_attention(attns, one, ctx.tokenizer, drop_special=False, mask_diagonal=False).to_numpy()
    best = raw.argmax(axis=1)
    ids = one["input_ids"][0].numpy()
    special = np.isin(ids, [ctx.tokenizer.cls_token_id, ctx.tokenizer.sep_token_id])
    ref_special = float(special[best].mean())
    ref_self = float((best == np.arange(len(ids))).mean())

    sp, se = rate(special_rate, "special_rate"), rate(self_rate, "self_rate")
    if se == 0.0 and ref_self > 0:
        raise Problem("self_rate가 0입니다. 대각선을 가린 요약(기본값)을 쓰지 않았는지, mask_diagonal=False로 만들었는지 "
                      "확인하세요.")
    if sp == 0.0 and ref_special > 0:
        raise Problem("special_rate가 0입니다. [CLS]와 [SEP]을 뺀 요약(기본값)을 쓰지 않았는지, drop_special=False로 "
                      "만들었는지 확인하세요.")
    close(sp, ref_special, "special_rate", rtol=1e-6, atol=1e-9)
    close(se, ref_self, "self_rate", rtol=1e-6, atol=1e-9)
    kept = ref_special + ref_self
    return (f"가장 주목하는 토큰이 [CLS]나 [SEP]인 행이 {ref_special:.0%}, 자기 자신인 행이 {ref_self:.0%}입니다. "
            + ("절반 이상의 행이 특수 토큰이나 자기 자신을 가장 많이 보므로, 요약 보기가 지운 것이 목록의 모습을 크게 "
               "바꿉니다." if kept >= 0.5 else
               "그런 행이 절반에 못 미치므로, 이 문장에서는 요약 보기가 지운 것이 목록을 크게 바꾸지는 않습니다."))


@exercise("4.4", "헤드 하나를 끄면", fields=("changes",), revisit="4장 '위치 헤드와 [SEP] 헤드 찾기' 절", page=PAGE)
def _ablation(ctx, changes):
    import torch

    from ..attention import get_bert

    batch, out, stats = _corpus(ctx)
    bert = get_bert(ctx.model)
    heads = bert.config.num_attention_heads
    size = bert.config.hidden_size // heads
    layer, pos_head = _positional_head(stats)  # 문제 4.2의 헤드가 있는 층에서만 끈다
    real = batch["attention_mask"].bool()
    base = out.last_hidden_state[real]
    ref = torch.zeros(heads, dtype=torch.float64)
    for head in range(heads):
        def turn_off(module, args, head=head):
            z = args[0].clone()
            z[..., head * size:(head + 1) * size] = 0
            return (z,)

        hook = bert.encoder.layer[layer].attention.output.dense.register_forward_pre_hook(turn_off)
        try:
            with torch.no_grad():
                changed = ctx.model(**batch).last_hidden_state[real]
        finally:
            hook.remove()
        ref[head] = 1 - torch.nn.functional.cosine_similarity(changed, base, dim=-1).mean().item()

    got = as_tensor(changes, "changes")
    layers = bert.config.num_hidden_layers
    if got.shape == (layers, heads):
        raise Problem(f"changes가 모든 층 × 헤드의 [L, A] 배열입니다. 문제 4.2의 헤드가 있는 층 하나에서만 헤드를 끄고, "
                      f"길이 {heads}(헤드 수 A)인 배열을 넣으세요.")
    same_shape(got, ref, "changes", "헤드 수 A")
    if torch.allclose(got, 1 - ref, rtol=1e-3, atol=1e-6) and not torch.allclose(got, ref, rtol=1e-3, atol=1e-6):
        raise Problem("changes에 코사인 유사도 자체를 넣은 것 같습니다. 바뀐 정도는 1에서 코사인 유사도의 평균을 뺀 값입니다.")
    if (got < -1e-6).any():
        raise Problem("changes에 음수가 있습니다. 1 − (코사인 유사도의 평균)은 0 이상입니다.")
    close(got, ref, "changes", rtol=1e-3, atol=1e-6)
    rank = int((ref > ref[pos_head]).sum()) + 1
    place = "가장 큰 변화" if rank == 1 else f"{rank}번째로 큰 변화"
    return (f"앞/뒤 토큰 비율이 가장 큰 {layer + 1}층의 {pos_head}번 헤드를 끄면 출력이 "
            f"{float(ref[pos_head]):.3g}만큼 바뀌고, 이는 그 층의 헤드 {heads}개 가운데 {place}입니다"
            f"(이 층에서 가장 작은 변화 {float(ref.min()):.3g}, 가장 큰 변화 {float(ref.max()):.3g}).")


open_question(
    "4.5", "엔트로피가 작은 헤드", revisit="4장 '헤드 통계: 모든 층 × 헤드' 절", page=PAGE,
    points=[
        "엔트로피가 작다는 것은 가중치가 적은 수의 토큰에 몰린다는 뜻(집중도)일 뿐이다.",
        "[SEP] 하나만 보는 헤드도 엔트로피가 작지만, Clark 등의 해석으로는 사실상 '빈 동작'이다.",
        "앞 토큰만 보는 위치 헤드처럼 엔트로피가 작으면서 정보를 실어 나르는 헤드도 있다.",
        "무엇에 집중하는지는 [CLS]/[SEP]/이웃 비율을, 출력에 얼마나 기여하는지는 헤드를 꺼 보는 실험(문제 4.4)으로 따로 본다.",
    ],
)

open_question(
    "4.6", "한 문장과 문장 쌍의 [SEP] 비율", revisit="4장 '위치 헤드와 [SEP] 헤드 찾기' 절", page=PAGE,
    points=[
        "[SEP]의 개수가 다르다: 한 문장 입력에는 하나, 문장 쌍 입력에는 둘이다.",
        "고르게 나눌 때의 [SEP] 몫은 한 문장에서 1/n, 문장 쌍에서 2/n이고, 문장 쌍은 더 길어 n도 다르다.",
        "그래서 각 입력의 [SEP] 비율은 그 입력의 기준(고르게 나눌 때의 몫)과 견주어 몇 배인지로 읽는다.",
        "Clark 등과 견주려면 입력 형식([CLS] 문단1 [SEP] 문단2 [SEP])과 길이(최대 128토큰)를 맞추고, 층 평균이 절반을 "
        "넘는지를 본다. 모델의 크기와 학습한 글의 차이는 함께 밝힌다.",
    ],
)
