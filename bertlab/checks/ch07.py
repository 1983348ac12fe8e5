"""7장 BERT 밑바닥부터 구현하기의 연습문제 검사(`bl.check("7.1", ...)`).

기준값은 모두 커널의 모델(``ctx.model``, ``ctx.tokenizer``, ``ctx.mlm``)과 7장의 밑바닥 구현(`bertlab.scratch`)으로 그 자리에서
계산합니다. 그래서 미니 BERT든 mBERT든 같은 검사가 맞습니다. 문장과 시드만은 연습문제 준비 셀과 같은 것을 씁니다.
"""

from __future__ import annotations

import math

from . import Problem, as_tensor, close, exercise, open_question, scalar

PAGE = "notebooks/07_bert_from_scratch"
# 연습문제 준비 셀(태그 exercise-setup)과 같아야 합니다.
PAIRS = (("배 타고 배 먹으니 배 부르다.", "좋아요"), ("오늘은 바다가 잔잔했다.", "또 살게요"))  # 문장 A들, 문장 B들
MLM_SENTENCES = 100  # 문제 7.5: 일상 글의 처음 몇 문장을 가리는지
MLM_SEED = 0  # 문제 7.5: mask_tokens의 난수 시드




# ----------------------------------------------------------------------------- 7.1


@exercise("7.1", "파라미터 수를 손으로", fields=("by_hand",),
          revisit="7장 '가중치 옮겨 담기와 검증' 절", page=PAGE)
def _param_count(ctx, by_hand):
    from ..scratch import Config

    c = Config.from_hf(ctx.model.config)
    ref = sum(p.numel() for p in ctx.model.parameters())  # transformers BertModel = 밑바닥 Bert (본문의 assert)
    value = scalar(by_hand, "by_hand")
    if value != int(value):
        raise Problem("by_hand는 파라미터의 개수라 정수입니다.")
    value = int(value)
    h, f, n = c.hidden_size, c.intermediate_size, c.num_layers
    if value == ref:
        return (f"이 모델의 파라미터는 {ref:,}개이고, 그 가운데 토큰 임베딩 표(어휘 수 × 은닉 크기)가 "
                f"{c.vocab_size * h / ref:.0%}를 차지합니다.")
    missing = ref - value
    parts = [
        (h * h + h, "풀러(Pooler)의 선형 층(가중치와 편향)"),
        (2 * h, "임베딩 뒤의 LayerNorm(가중치와 편향)"),
        (c.max_position * h, "위치 임베딩 표"),
        (c.type_vocab_size * h, "세그먼트 임베딩 표"),
        (n * 4 * h, "층마다 있는 LayerNorm 두 개의 가중치와 편향, 또는 Q·K·V·출력 투영의 편향 네 개"),
        (n * (h * h + h), "층마다 있는 어텐션의 출력 투영 W_O"),
        (n * (f + h), "층마다 있는 FFN의 편향 두 개(넓히는 층과 되돌리는 층)"),
        (c.vocab_size * h, "토큰 임베딩 표(어휘 수 × 은닉 크기)"),
    ]
    known: dict[int, list[str]] = {}
    for size, part in parts:
        known.setdefault(size, []).append(part)
    if missing in known:
        raise Problem(f"by_hand가 실제보다 적습니다. 빠뜨린 부품이 없는지 보세요: {' 또는 '.join(known[missing])}.")
    if -missing in known:
        raise Problem("by_hand가 실제보다 많습니다. 같은 부품을 두 번 셌는지 확인하세요.")
    close(value, ref, "by_hand", rtol=0, atol=0.5)  # 자릿수가 다르면 그렇게 알린다
    raise Problem("by_hand가 실제 파라미터 수와 다릅니다(자릿수는 맞음). 임베딩, 층 하나, 풀러로 나누어 다시 세어 보세요.")


# ----------------------------------------------------------------------------- 7.2, 7.3

open_question(
    "7.2", "학습 모드와 평가 모드의 드롭아웃", revisit="7장 '`Encoder`, `Pooler`, `Bert`: 이어 붙이기' 절", page=PAGE,
    points=[
        "학습 모드(model.train())에서는 드롭아웃이 실행할 때마다 다른 성분을 0으로 만들고 나머지를 1/(1-p)배 키워, 같은 배치를 "
        "두 번 넣어도 출력이 다르다.",
        "평가 모드(model.eval())에서는 드롭아웃이 아무 일도 하지 않아 두 번의 출력이 똑같다. transformers와 값을 견줄 수 있었던 "
        "것도 두 모델이 평가 모드였기 때문이다.",
        "SelfAttention이 돌려주는 확률은 드롭아웃 전의 값이라, 반환값만으로는 어텐션 드롭아웃을 볼 수 없다.",
        "나머지 드롭아웃의 비율을 0으로 두고 어텐션 드롭아웃만 켠 채 학습 모드로 두 번 실행해 출력이 다르면, 그 차이는 어텐션 "
        "드롭아웃에서 온 것이다.",
    ],
)

open_question(
    "7.3", "고른 자리를 모두 [MASK]로 바꾸면", revisit="7장 '사전학습 과제 1: 가린 단어 맞히기(MLM)' 절", page=PAGE,
    points=[
        "파인튜닝과 실제 사용의 입력에는 [MASK]가 나오지 않는다: 사전학습과 사용 환경이 어긋난다.",
        "모두 [MASK]면 모델은 [MASK] 자리에서만 예측하면 되므로, [MASK]가 아닌 토큰의 표현을 '이 토큰은 맞다'는 가정 위에서 "
        "만들어도 손실이 줄어든다.",
        "10%를 무작위 토큰으로, 10%를 그대로 두면, 보이는 토큰도 틀렸을 수 있으므로 모델이 모든 자리에서 문맥으로 표현을 "
        "만들어야 한다.",
    ],
)


# ----------------------------------------------------------------------------- 7.4


@exercise("7.4", "0/1 마스크를 더한 [CLS] 벡터", fields=("wrong_gap", "right_gap"),
          revisit="7장 '`SelfAttention`: 멀티헤드 셀프 어텐션' 절", page=PAGE)
def _cls_gap(ctx, wrong_gap, right_gap):
    import torch

    from ..scratch import Bert

    ours = Bert.from_transformers(ctx.model)
    batch = ctx.tokenizer(list(PAIRS[0]), list(PAIRS[1]), padding=True, return_tensors="pt")
    single = ctx.tokenizer([PAIRS[0][1]], [PAIRS[1][1]], return_tensors="pt")
    with torch.no_grad():
        alone = ours(**single).last_hidden_state[0, 0]
        right = ours(**batch).last_hidden_state[1, 0]
        x = ours.embeddings(batch["input_ids"], batch["token_type_ids"])
        x, _, _ = ours.encoder(x, batch["attention_mask"][:, None, None, :].float())
        wrong = x[1, 0]
    ref_right = float((right - alone).abs().max())
    ref_wrong = float((wrong - alone).abs().max())

    got_right, got_wrong = scalar(right_gap, "right_gap"), scalar(wrong_gap, "wrong_gap")
    if got_right < 0 or got_wrong < 0:
        raise Problem("차이의 절댓값 가운데 가장 큰 값이라 음수일 수 없습니다. .abs().max()를 썼는지 확인하세요.")
    if got_right > max(1e-3, 10 * ref_right):
        raise Problem("right_gap이 반올림 오차보다 큽니다. 올바른 마스크라면 [PAD]가 붙은 배치에서도 혼자 넣었을 때와 같아야 "
                      "합니다. 둘째 문장 쌍(1번)의 [CLS](0번 위치)를 견주었는지, 혼자 넣을 때도 같은 문장 쌍을 넣었는지 "
                      "확인하세요.")
    if got_wrong <= max(1e-3, 10 * ref_right) < ref_wrong:
        raise Problem("wrong_gap이 반올림 오차 수준입니다. 0/1 마스크를 그대로 더한 계산(attention_mask[:, None, None, :]를 "
                      "더하는 마스크로 바꾸지 않고 인코더에 넘김)을 썼는지 확인하세요.")
    close(got_wrong, ref_wrong, "wrong_gap", rtol=1e-3, atol=1e-6)
    return (f"0/1 마스크를 그대로 더하면 [PAD]가 붙은 문장의 [CLS] 벡터가 혼자 넣었을 때와 최대 {ref_wrong:.3f}만큼 달라지고, "
            f"올바른 마스크는 반올림 오차({ref_right:.0e}) 안에서 같습니다.")


# ----------------------------------------------------------------------------- 7.5


def _masked_everyday(tokenizer):
    """준비 셀과 같은 입력: 일상 글의 처음 MLM_SENTENCES문장, 고른 자리는 모두 [MASK]."""
    import torch

    from .. import data
    from ..scratch import mask_tokens

    sentences = [s for d in data.read_documents(data.TEXT_DIR / "everyday_ko.txt") for s in d]
    enc = tokenizer(sentences[:MLM_SENTENCES], padding=True, truncation=True, max_length=64, return_tensors="pt")
    masked_ids, labels = mask_tokens(enc["input_ids"], tokenizer, torch.Generator().manual_seed(MLM_SEED), all_mask=True)
    return sentences, enc, masked_ids, labels


@exercise("7.5", "사전학습한 모델과 빈도만 아는 모델의 MLM 손실", fields=("mlm_loss", "freq_loss"),
          revisit="7장 '몇 걸음 사전학습해 보기' 절", page=PAGE)
def _mlm_vs_frequency(ctx, mlm_loss, freq_loss):
    import torch
    import torch.nn.functional as F

    tokenizer = ctx.tokenizer
    sentences, enc, masked_ids, labels = _masked_everyday(tokenizer)
    picked = labels != -100
    with torch.no_grad():
        hidden = ctx.mlm.bert(input_ids=masked_ids, attention_mask=enc["attention_mask"],
                              token_type_ids=enc["token_type_ids"]).last_hidden_state
        ref_mlm = float(F.cross_entropy(ctx.mlm.cls(hidden[picked]), labels[picked]))
    flat = [t for ids in tokenizer(sentences, add_special_tokens=False)["input_ids"] for t in ids]
    counts = torch.bincount(torch.tensor(flat), minlength=len(tokenizer)).double()
    ref_freq = float(-(counts[labels[picked]] / counts.sum()).log().mean())
    ln_vocab = math.log(len(tokenizer))

    got_mlm, got_freq = scalar(mlm_loss, "mlm_loss"), scalar(freq_loss, "freq_loss")
    for name, got, ref in (("mlm_loss", got_mlm, ref_mlm), ("freq_loss", got_freq, ref_freq)):
        if ref > 0 and abs(got * math.log(2) - ref) < 1e-3 * ref:
            raise Problem(f"{name}을(를) 밑이 2인 로그(비트)로 잰 것 같습니다. 교차 엔트로피는 자연로그(ln)로 잽니다.")
    if abs(got_mlm - ref_mlm) > 1e-3 * ref_mlm:
        with torch.no_grad():
            keep = enc["attention_mask"].bool()
            every = float(F.cross_entropy(ctx.mlm.cls(hidden[keep]), enc["input_ids"][keep]))
        if abs(got_mlm - every) < 1e-3 * every:
            raise Problem("mlm_loss를 모든 자리에서 계산했습니다. 손실은 가린 자리(labels가 -100이 아닌 곳)에서만 잽니다.")
    close(got_mlm, ref_mlm, "mlm_loss", rtol=1e-3, atol=1e-5)
    close(got_freq, ref_freq, "freq_loss", rtol=1e-3, atol=1e-5)
    if ref_mlm < ref_freq:
        where = "빈도만 아는 모델보다 낮습니다: 이 모델은 빈도 말고도 문맥을 씁니다"
    else:
        where = "빈도만 아는 모델보다 낮지 않습니다: 이 모델은 아직 빈도 이상을 배우지 못했습니다"
    return f"ln(어휘 수) {ln_vocab:.2f}, 빈도만 아는 모델 {ref_freq:.2f}, 이 모델 {ref_mlm:.2f}. 이 모델의 손실은 {where}."
