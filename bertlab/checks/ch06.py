"""6장 파인튜닝: 문장 분류의 연습문제 검사(`bl.check("6.1", ...)`).

기준값은 모두 커널의 토크나이저와 모델(``ctx.tokenizer``, ``ctx.model``: 연습문제 준비 셀이 `bl.load_bert`로 연 인코더)로
그 자리에서 계산합니다. 그래서 미니 BERT든 mBERT든 같은 검사가 맞습니다. 데이터의 부분집합, 학습 설정, 토큰 분류의 어절은
연습문제 준비 셀(태그 exercise-setup)과 같은 것을 여기서도 만듭니다.
"""

from __future__ import annotations

from . import Problem, as_tensor, close, exercise, open_question, scalar

PAGE = "notebooks/06_finetuning"
# 연습문제 준비 셀과 같아야 합니다.
WORDS = ("지난", "주말", "김민수", "씨는", "서울", "대공원에서", "아기", "판다를", "봤다.")
PER_LABEL = 128  # small_train, small_val: 라벨마다 128문장(시드 0)
PROBE_PER_LABEL = 300  # probe_train: 라벨마다 300문장(시드 1)
CUT_AT = 8  # 문제 6.1의 max_length




def _max_len(model) -> int:
    return min(64, model.config.max_position_embeddings)


def _base_lr(model) -> float:
    return 5e-4 if model.config.hidden_size <= 256 else 5e-5


def _splits():
    from ..data import load_bundled

    data = load_bundled()
    small_train = data["train"].groupby("label").sample(n=PER_LABEL, random_state=0).sort_index()
    small_val = data["validation"].groupby("label").sample(n=PER_LABEL, random_state=0).sort_index()
    probe_train = data["train"].groupby("label").sample(n=PROBE_PER_LABEL, random_state=1).sort_index()
    return data["train"], small_train, small_val, probe_train


# ----------------------------------------------------------------------------- 6.1

@exercise("6.1", "max_length=8로 자르면", fields=("share_cut",),
          revisit="6장 '토큰화: 패딩, 자르기, 어텐션 마스크' 절", page=PAGE)
def _cut(ctx, share_cut):
    import numpy as np

    train = _splits()[0]
    pieces = np.array([len(ctx.tokenizer.tokenize(t)) for t in train["text"]])
    ref = float(np.mean(pieces + 2 > CUT_AT))
    share = scalar(share_cut, "share_cut")
    if not 0.0 <= share <= 1.0:
        raise Problem("share_cut은 비율이라 0과 1 사이입니다. 백분율(%)이 아니라 잘리는 문장 수를 전체 문장 수로 나눈 값을 넣으세요.")
    without_special = float(np.mean(pieces > CUT_AT))
    if abs(share - without_special) < 1e-9 and abs(without_special - ref) > 1e-9:
        raise Problem("[CLS]와 [SEP]도 max_length의 자리를 차지합니다. tokenize()가 세지 않는 두 자리를 더해 8과 견주세요.")
    at_least = float(np.mean(pieces + 2 >= CUT_AT))
    if abs(share - at_least) < 1e-9 and abs(at_least - ref) > 1e-9:
        raise Problem("토큰이 정확히 8개인 문장은 잘리지 않습니다. 8을 넘는 문장만 세세요.")
    close(share, ref, "share_cut", rtol=0, atol=1e-9)
    return f"학습 세트의 {ref:.1%}가 잘립니다. 한국어 리뷰는 평가가 문장 끝에 오는 일이 많아 이렇게 짧게 자르면 판단의 근거가 사라집니다."


# ----------------------------------------------------------------------------- 6.2

def _lr_run(ctx, lr: float, small_train, small_val):
    """준비 셀과 같은 작은 실험: 사전학습 모델을 small_train으로 1에포크 학습하고 small_val로 잰다."""
    from ..train import evaluate, load_classifier, make_loader, train_classifier

    _, model = load_classifier(ctx.model.name_or_path, num_labels=2, quiet=True)
    loader = make_loader(ctx.tokenizer, small_train, batch_size=32, max_length=_max_len(ctx.model), shuffle=True, bucket=True)
    result = train_classifier(model, loader, epochs=1, lr=lr, seed=0, verbose=False)
    report = evaluate(model, make_loader(ctx.tokenizer, small_val, batch_size=64, max_length=_max_len(ctx.model), sort_by_length=True))
    return float(report.predictions.mean()), float(result.epochs["train_loss"].iloc[-1])


@exercise("6.2", "학습률을 10배 키우거나 줄이면", fields=("pos_share_big", "loss_small"),
          revisit="6장 '학습률은 얼마로: 검증 세트에 묻는다' 절", page=PAGE)
def _lr(ctx, pos_share_big, loss_small):
    _, small_train, small_val, _ = _splits()
    base = _base_lr(ctx.model)
    big_share, big_loss = _lr_run(ctx, base * 10, small_train, small_val)
    small_share, small_loss = _lr_run(ctx, base / 10, small_train, small_val)

    share, loss = scalar(pos_share_big, "pos_share_big"), scalar(loss_small, "loss_small")
    if not 0.0 <= share <= 1.0:
        raise Problem("pos_share_big은 비율이라 0과 1 사이입니다. 검증 문장 가운데 긍정(1)으로 예측한 문장의 비율을 넣으세요.")
    if loss <= 0:
        raise Problem("loss_small은 교차 엔트로피 손실이라 0보다 큽니다.")
    if abs(loss - big_loss) < 1e-6 and abs(big_loss - small_loss) > 1e-6:
        raise Problem("loss_small에 큰 학습률(BASE_LR * 10)로 학습한 쪽의 손실을 넣었습니다. BASE_LR / 10으로 학습한 쪽의 손실이어야 합니다.")
    tol = 1.5 / len(small_val)
    if abs(share - small_share) < tol <= abs(big_share - small_share):
        raise Problem("pos_share_big에 작은 학습률(BASE_LR / 10)로 학습한 쪽의 비율을 넣었습니다. 큰 학습률(BASE_LR * 10) 쪽이어야 합니다.")
    close(share, big_share, "pos_share_big", rtol=0, atol=tol)
    close(loss, small_loss, "loss_small", rtol=1e-3, atol=1e-4)
    collapsed = big_share in (0.0, 1.0)
    return ("큰 학습률에서는 " + ("모든 검증 문장을 한 라벨로 찍는 모델이 되었고" if collapsed else
                              f"검증 문장의 {big_share:.0%}를 긍정으로 예측했고")
            + f", 작은 학습률에서는 학습 손실이 {small_loss:.3f}에 머물렀습니다(찍기의 손실 ln 2 ≈ 0.693).")


# ----------------------------------------------------------------------------- 6.3

@exercise("6.3", "모든 조각을 채점하면", fields=("n_all",),
          revisit="6장 '토큰 분류 맛보기: 라벨을 WordPiece 조각에 맞추기' 절", page=PAGE)
def _all_pieces(ctx, n_all):
    enc = ctx.tokenizer(list(WORDS), is_split_into_words=True)
    word_ids = enc.word_ids(0)
    ref = sum(w is not None for w in word_ids)
    value = scalar(n_all, "n_all")
    if value != int(value):
        raise Problem("n_all은 채점하는 자리의 수라 정수입니다.")
    if int(value) == ref + 2:
        raise Problem("[CLS]와 [SEP]까지 셌습니다. 특수 토큰은 라벨이 -100이라 채점하지 않습니다.")
    if int(value) == len(WORDS) and ref != len(WORDS):
        raise Problem("어절 수와 같습니다. 그것은 '첫 조각만 채점'일 때의 자리 수입니다. 뒷조각(##)도 모두 세세요.")
    if int(value) != ref:
        raise Problem("채점하는 자리 수가 다릅니다. word_ids()가 None이 아닌 조각(어절에서 온 조각)을 모두 세세요.")
    return f"어절 {len(WORDS)}개가 조각 {ref}개로 나뉘므로, 모든 조각을 채점하면 {ref}자리를 채점합니다."


# ----------------------------------------------------------------------------- 6.4

def _layer_accuracies(ctx):
    import numpy as np
    import torch
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    _, _, small_val, probe_train = _splits()
    max_len = _max_len(ctx.model)

    @torch.no_grad()
    def layer_means(texts):
        parts = []
        for start in range(0, len(texts), 64):
            enc = ctx.tokenizer(texts[start:start + 64], padding=True, truncation=True, max_length=max_len, return_tensors="pt")
            hs = ctx.model(**enc, output_hidden_states=True).hidden_states
            mask = enc["attention_mask"].unsqueeze(-1).float()
            parts.append(torch.stack([(h * mask).sum(1) / mask.sum(1) for h in hs]))
        return torch.cat(parts, dim=1).numpy()

    z_train, z_val = layer_means(probe_train["text"].tolist()), layer_means(small_val["text"].tolist())
    accs = []
    for layer in range(z_train.shape[0]):
        probe = make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=5000))
        probe.fit(z_train[layer], probe_train["label"].to_numpy())
        accs.append(probe.score(z_val[layer], small_val["label"].to_numpy()))
    return np.array(accs), len(small_val)


@exercise("6.4", "층마다 선형 탐침", fields=("layer_acc",),
          revisit="6장 '실험 2: 인코더를 얼리면 (선형 탐침)' 절", page=PAGE)
def _layers(ctx, layer_acc):
    ref, n_val = _layer_accuracies(ctx)
    L = ctx.model.config.num_hidden_layers
    values = as_tensor(layer_acc, "layer_acc").flatten()
    if values.numel() == L:
        raise Problem(f"값이 {L}개입니다. 임베딩 출력(0번 은닉 상태)도 넣어 L+1 = {L + 1}개여야 합니다.")
    if values.numel() != L + 1:
        raise Problem(f"layer_acc에는 임베딩 출력부터 마지막 층까지 L+1 = {L + 1}개의 정확도가 들어가야 합니다(받은 개수: {values.numel()}).")
    if float(values.max()) > 1.0 or float(values.min()) < 0.0:
        raise Problem("정확도는 0과 1 사이입니다. 백분율이 아니라 probe.score()의 값을 넣으세요.")
    close(values, as_tensor(ref, "기준값"), "layer_acc", rtol=0, atol=1.5 / n_val)
    best = int(ref.argmax())
    where = "임베딩 출력" if best == 0 else f"{best}층"
    return f"검증 정확도가 가장 높은 특징은 {where}의 평균({ref[best]:.1%})입니다. 찍기는 50%입니다."


# ----------------------------------------------------------------------------- 글로 답하는 문제

open_question(
    "6.5", "전체 학습 세트로 학습하면", revisit="6장 '실험 1: 사전학습은 언제 가장 도움이 될까 (학습 곡선)' 절", page=PAGE,
    points=[
        "학습 곡선에서 학습 문장을 늘릴 때 정확도가 얼마나 올랐는지(로그 눈금의 기울기)로 네 배쯤 늘릴 때의 변화를 어림했다.",
        "곡선이 평평해졌다면 데이터보다 모델의 크기나 사전학습이 한계라는 뜻이라고 적었다.",
        "에포크와 학습률은 검증 세트로 다시 고르고, 테스트 세트는 마지막에 한 번만 쓴다.",
        "부분집합과 전체로 학습한 두 모델은 같은 테스트 문장으로 채점하므로 맥니마 검정으로 견준다.",
        "시드 하나로 잰 차이는 학습의 무작위성(초기화, 섞는 순서, 드롭아웃)도 담고 있어, 시드를 바꿔 다시 재야 믿을 수 있다.",
    ],
)

open_question(
    "6.6", "두 정확도에 따로 구간을 그리면", revisit="6장 '간단한 기준선과 견주기' 절", page=PAGE,
    points=[
        "두 분류기는 같은 문장들로 채점했으므로 두 정확도는 서로 독립이 아니다. 따로 그린 구간은 이 짝을 무시한다.",
        "둘 다 맞히거나 둘 다 틀린 문장은 차이에 대해 아무것도 말하지 않고, 한쪽만 맞힌 문장(b, c)만 차이를 만든다.",
        "따로 그린 구간은 보통 너무 넓어서, 맥니마 검정이 가르는 차이도 '겹친다'며 놓치기 쉽다.",
        "p값이 0.05보다 크면 차이가 없다는 증거가 아니라, 이 문장 수로는 가를 수 없다는 뜻이다.",
        "p값이 작아도 차이의 크기(%p)는 따로 보고해야 한다.",
    ],
)
