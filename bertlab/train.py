"""문장 분류 파인튜닝: 데이터 로더, 학습 루프, 평가, 짝지은 비교 (6장 '파인튜닝: 문장 분류'에서 만들고 설명합니다).

    tokenizer, model = load_classifier(num_labels=2)
    train_loader = make_loader(tokenizer, data["train"], batch_size=32, shuffle=True)
    result = train_classifier(model, train_loader, epochs=3, lr=1e-4)
    report = evaluate(model, make_loader(tokenizer, data["test"]))
    report.accuracy, report.confusion

한 에포크는 `train_epoch`(6장이 한 줄씩 설명하는 루프)이고, `train_classifier`가 그 둘레에서 검증, 가장 좋은 에포크로
되돌리기, 일찍 멈추기, 기록을 맡습니다. 학습은 AdamW(편향과 LayerNorm에는 가중치 감쇠를 걸지 않음) + 선형 워밍업·학습률
감소 스케줄이고, 시드를 고정하면 같은 컴퓨터에서 같은 결과가 나옵니다. CUDA GPU가 있으면 GPU에서 돕니다.
두 분류기를 같은 문장들로 채점했으면 `mcnemar(a_correct, b_correct)`로 차이가 우연인지 봅니다.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import pandas as pd
import torch

from . import models

LABEL_NAMES = ("부정", "긍정")


BIG_MODEL_PARAMS = 50_000_000  # 이보다 크면(BERT-base: 1억 1천만 ~ mBERT: 1억 7,800만) CPU에서는 미니 BERT로 바꾼다


def default_device() -> torch.device:
    """CUDA GPU가 있으면 그것을, 없으면 CPU를 씁니다."""
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


@dataclass(frozen=True)
class RunPlan:
    """`plan_runs`의 결정: 파인튜닝과 비교 실험에 쓸 모델 이름(``main``), 바꾼 이유(없으면 "")."""

    main: str
    reason: str


def plan_runs(model, name: str | None = None, *, cuda: bool | None = None, max_cpu_params: int = BIG_MODEL_PARAMS) -> RunPlan:
    """6장의 실험을 어느 모델로 돌릴지 정합니다. ``model``은 `load_bert(name)`로 연 모델입니다.

    GPU가 있거나 파라미터가 ``max_cpu_params`` 이하면 모두 ``name`` 그대로입니다. GPU 없이 그보다 큰 모델
    (BERT-base 크기)이면 파인튜닝도 비교 실험(무작위 초기화, 학습 곡선, 얼린 인코더)도 번들 미니 BERT(``"mini"``)로
    돌리고, 왜 바꾸는지 한국어 한 줄(``reason``)로 알립니다. 학습 계산량은 파라미터 수에 거의 비례하므로 CPU에서는
    너무 오래 걸리기 때문입니다. ``cuda``를 주지 않으면 `torch.cuda.is_available()`을 봅니다.
    """
    n_params = sum(p.numel() for p in model.parameters())
    cuda = torch.cuda.is_available() if cuda is None else cuda
    if cuda or n_params <= max_cpu_params:
        return RunPlan(name, "")
    return RunPlan("mini", (
        f"이 모델은 파라미터가 {n_params:,}개(기준 {max_cpu_params:,}개 초과)이고 GPU가 없어, 파인튜닝과 비교 실험은"
        " 번들 미니 BERT로 돌립니다. 학습 계산량은 파라미터 수에 거의 비례해 CPU에서는 너무 오래 걸립니다."
    ))


# -------------------- 모델 --------------------------------------------------


def load_classifier(
    name: str | None = None,
    *,
    num_labels: int = 2,
    head: str = "sequence",
    pretrained: bool = True,
    seed: int = 0,
    quiet: bool = False,
):
    """토크나이저와 분류 모델을 돌려줍니다: ``tokenizer, model = load_classifier()``.

    ``head="sequence"``(기본값)면 문장 분류용 `BertForSequenceClassification`, ``head="token"``이면
    토큰마다 라벨을 붙이는 `BertForTokenClassification`입니다.
    이름은 `bertlab.load_bert`와 같은 규칙으로 풉니다(없으면 BERTLAB_MODEL 또는 번들 미니 BERT, "mini", "mbert", "auto", 허브 id, 로컬 디렉터리).
    인코더(BERT 본체와 풀러)는 사전학습 가중치로, 분류 헤드(``classifier``)는 시드 ``seed``로 새로 초기화합니다.
    ``pretrained=False``면 같은 구조의 모델 전체를 무작위로 초기화합니다 (사전학습의 효과를 재는 비교 실험용).
    """
    if not isinstance(num_labels, int) or isinstance(num_labels, bool) or num_labels < 2:
        raise ValueError(f"num_labels는 2 이상의 정수여야 합니다 (받은 값: {num_labels!r}).")
    if head not in ("sequence", "token"):
        raise ValueError(f"head는 'sequence'(문장 분류) 또는 'token'(토큰 분류)이어야 합니다 (받은 값: {head!r}).")
    choice = models.decide(name)
    source = models.resolve(name)  # 오프라인이면 transformers를 불러오기 전에 HF_HUB_OFFLINE을 켠다

    from transformers import AutoConfig, AutoTokenizer, BertForSequenceClassification, BertForTokenClassification
    from transformers.utils import logging as hf_logging

    model_class = BertForSequenceClassification if head == "sequence" else BertForTokenClassification
    verbosity, bars = hf_logging.get_verbosity(), hf_logging.is_progress_bar_enabled()
    hf_logging.set_verbosity_error()  # '새로 초기화된 가중치' 경고는 아래에서 우리 말로 알린다
    hf_logging.disable_progress_bar()  # 'Loading weights' 진행 막대도 끈다
    try:
        tokenizer = AutoTokenizer.from_pretrained(source, local_files_only=choice.offline)
        torch.manual_seed(seed)
        if pretrained:
            model, info = model_class.from_pretrained(source, num_labels=num_labels, local_files_only=choice.offline,
                                                      output_loading_info=True)
            new = sorted(k for k in info["missing_keys"] if "position_ids" not in k)
        else:
            config = AutoConfig.from_pretrained(source, num_labels=num_labels, local_files_only=choice.offline)
            model = model_class(config)
            new = ["(모든 가중치)"]
    except OSError as err:
        raise models.ModelLoadError(
            f"모델('{source}')을 불러오지 못했습니다: {str(err).splitlines()[0]}\n"
            "모델 이름을 확인하거나, 인터넷 연결을 확인하거나, load_classifier('mini')를 쓰세요."
        ) from None
    finally:
        hf_logging.set_verbosity(verbosity)
        if bars:
            hf_logging.enable_progress_bar()
    not_head = [k for k in new if not k.startswith("classifier.") and k != "(모든 가중치)"]
    if not_head:
        print(f"주의: 체크포인트에 없어 새로 초기화된 인코더 가중치 {len(not_head)}개: {not_head[:4]} ...", file=sys.stderr)
    if head == "sequence" and num_labels == 2:
        model.config.id2label = dict(enumerate(LABEL_NAMES))
        model.config.label2id = {v: k for k, v in model.config.id2label.items()}
    if not quiet:
        init = "사전학습 가중치" if pretrained else "무작위 초기화(사전학습 없음)"
        print(f"분류 모델: {models.model_label(choice.source)} · {init} · 새로 초기화한 가중치: {', '.join(new)}")
    models.add_length_guard(model)
    return tokenizer, model


def freeze_encoder(model) -> int:
    """BERT 본체(임베딩·인코더·풀러)를 얼리고 분류 헤드만 학습하게 합니다. 학습할 파라미터 수를 돌려줍니다."""
    base = getattr(model, "base_model", None)
    if base is None or base is model:
        raise TypeError(f"분류 헤드가 달린 모델(BertForSequenceClassification 등)이 필요합니다 (받은 값: {type(model).__name__}).")
    for p in base.parameters():
        p.requires_grad_(False)
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def count_trainable(model) -> int:
    """학습되는(requires_grad) 파라미터 수."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


# -------------------- 데이터 -------------------------------------------------


class Collator:
    """문장 목록을 배치 하나로: 배치 안에서 가장 긴 문장에 맞춰 패딩하고 `max_length`에서 자릅니다."""

    def __init__(self, tokenizer, max_length: int = 64):
        self.tokenizer, self.max_length = tokenizer, max_length

    def __call__(self, items: list[tuple[str, int]]) -> dict[str, torch.Tensor]:
        texts, labels = [t for t, _ in items], [y for _, y in items]
        batch = dict(self.tokenizer(texts, padding=True, truncation=True, max_length=self.max_length, return_tensors="pt"))
        if all(y is not None for y in labels):
            batch["labels"] = torch.tensor(labels, dtype=torch.long)
        return batch


class LengthBuckets(torch.utils.data.Sampler):
    """길이가 비슷한 문장끼리 배치를 만드는 배치 샘플러: 섞은 뒤 ``batch_size * 16``개씩 길이순으로 정렬해 배치로
    자르고, 배치의 순서를 다시 섞습니다. 배치 안의 [PAD]가 줄어 계산이 줄고, 순서는 ``generator``의 시드를 따릅니다."""

    def __init__(self, lengths: Sequence[int], batch_size: int, generator: torch.Generator):
        self.lengths, self.batch_size, self.generator = list(lengths), batch_size, generator

    def __iter__(self):
        order = torch.randperm(len(self.lengths), generator=self.generator).tolist()
        chunk = self.batch_size * 16
        batches = []
        for start in range(0, len(order), chunk):
            part = sorted(order[start : start + chunk], key=lambda i: self.lengths[i])
            batches += [part[i : i + self.batch_size] for i in range(0, len(part), self.batch_size)]
        for k in torch.randperm(len(batches), generator=self.generator).tolist():
            yield batches[k]

    def __len__(self) -> int:
        return math.ceil(len(self.lengths) / self.batch_size)


def make_loader(
    tokenizer,
    data: pd.DataFrame | Sequence[str],
    labels: Sequence[int] | None = None,
    *,
    batch_size: int = 32,
    max_length: int = 64,
    shuffle: bool = False,
    bucket: bool = False,
    sort_by_length: bool = False,
    seed: int = 0,
) -> torch.utils.data.DataLoader:
    """`text`, `label` 열이 있는 DataFrame(또는 문장 목록과 라벨 목록)을 DataLoader로 만듭니다.

    ``shuffle=True``면 시드 ``seed``의 생성기로 섞으므로 순서가 매번 같습니다. ``bucket=True``(``shuffle=True``와 함께)면
    길이가 비슷한 문장끼리 배치를 만들어(`LengthBuckets`) [PAD]를 줄입니다.
    ``sort_by_length=True``(평가용, ``shuffle=False``와 함께)면 문장을 길이순으로 묶어 [PAD]를 줄이고, 원래 순서를
    ``loader.order``에 남깁니다. `evaluate`와 `predict_logits`는 결과를 원래 문장 순서로 되돌려 돌려줍니다.
    """
    if isinstance(data, pd.DataFrame):
        if "text" not in data.columns:
            raise ValueError(f"DataFrame에 'text' 열이 없습니다 (있는 열: {list(data.columns)}).")
        texts = data["text"].astype(str).tolist()
        if labels is None and "label" in data.columns:
            labels = data["label"].astype(int).tolist()
    elif isinstance(data, str):
        raise TypeError("문장 하나가 아니라 문장 목록을 주세요: make_loader(tokenizer, ['문장1', '문장2']).")
    else:
        texts = [str(t) for t in data]
    if labels is not None and len(labels) != len(texts):
        raise ValueError(f"문장 수({len(texts)})와 라벨 수({len(labels)})가 다릅니다.")
    if not texts:
        raise ValueError("문장이 하나도 없습니다.")
    if bucket and not shuffle:
        raise ValueError("bucket=True는 학습용 로더(shuffle=True)에서만 씁니다.")
    if sort_by_length and shuffle:
        raise ValueError("sort_by_length=True는 평가용 로더(shuffle=False)에서만 씁니다. 학습용은 bucket=True를 쓰세요.")
    items = list(zip(texts, labels if labels is not None else [None] * len(texts)))
    generator = torch.Generator().manual_seed(seed) if shuffle else None
    collate = Collator(tokenizer, max_length)
    if sort_by_length:
        lengths = [len(ids) for ids in tokenizer(texts, truncation=True, max_length=max_length)["input_ids"]]
        order = np.argsort(lengths, kind="stable")
        loader = torch.utils.data.DataLoader([items[i] for i in order], batch_size, collate_fn=collate)
        loader.order = order  # 로더의 i번째 문장 = 원래의 order[i]번째 문장
        return loader
    if not bucket:
        return torch.utils.data.DataLoader(items, batch_size, shuffle=shuffle, generator=generator, collate_fn=collate)
    lengths = [len(ids) for ids in tokenizer(texts, truncation=True, max_length=max_length)["input_ids"]]
    sampler = LengthBuckets(lengths, batch_size, generator)
    return torch.utils.data.DataLoader(items, batch_sampler=sampler, collate_fn=collate, generator=generator)


# -------------------- 학습 --------------------------------------------------


@dataclass
class TrainResult:
    """`train_classifier`의 결과: 스텝별 기록, 에포크별 기록, 걸린 시간(초), 에포크마다의 검증 결과."""

    history: pd.DataFrame  # step, epoch, loss, lr (그 스텝에 쓴 학습률)
    epochs: pd.DataFrame  # epoch, train_loss, (val_loss, val_accuracy)
    seconds: float
    device: str = "cpu"
    steps: int = 0
    best_epoch: int | None = None  # keep_best=True일 때 되돌린 가중치의 에포크
    val_reports: list = field(default_factory=list)  # 에포크마다 검증 세트의 EvalResult (문장별 예측 포함)


def linear_schedule(step: int, *, total_steps: int, warmup_steps: int) -> float:
    """학습률 배율: 0에서 1까지 선형으로 올린 뒤(워밍업) 마지막 스텝에서 0이 되도록 선형으로 내립니다."""
    if step < warmup_steps:
        return (step + 1) / warmup_steps
    return max(0.0, (total_steps - step) / max(1, total_steps - warmup_steps))


def make_optimizer(model, *, lr: float, weight_decay: float = 0.01) -> torch.optim.AdamW:
    """AdamW. BERT의 관례대로 편향과 LayerNorm 가중치에는 가중치 감쇠를 걸지 않습니다. 얼린 파라미터는 뺍니다."""
    decay, no_decay = [], []
    for name, p in ((n, p) for n, p in model.named_parameters() if p.requires_grad):
        (no_decay if p.ndim < 2 or "LayerNorm" in name or "norm" in name.lower() else decay).append(p)
    if not decay and not no_decay:
        raise ValueError("학습할 파라미터가 없습니다 (모두 얼려 있음).")
    groups = [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
    return torch.optim.AdamW([g for g in groups if g["params"]], lr=lr)


def train_epoch(model, loader, optimizer, scheduler=None, *, clip=1.0, device=None, log=None) -> float:
    """학습 세트를 한 번 훑습니다(한 에포크). 배치마다 한 스텝을 밟고 스텝 손실의 평균을 돌려줍니다.
    ``log``에 리스트를 주면 스텝마다 (손실, 그 스텝에 쓴 학습률)을 덧붙입니다."""
    device = device or next(model.parameters()).device
    model.train()                                   # 드롭아웃을 켠다
    losses = []
    for batch in loader:
        batch = {k: v.to(device) for k, v in batch.items()}
        loss = model(**batch).loss                  # 순전파: labels가 있으면 교차 엔트로피까지
        optimizer.zero_grad()                       # 지난 스텝의 기울기를 지운다
        loss.backward()                             # 역전파: 모든 파라미터의 기울기
        if clip is not None:                        # 기울기 전체의 노름을 clip 이하로
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        lr = optimizer.param_groups[0]["lr"]
        optimizer.step()                            # AdamW 한 걸음
        if scheduler is not None:
            scheduler.step()                        # 다음 스텝의 학습률(워밍업, 학습률 감소)
        losses.append(loss.item())
        if log is not None:
            log.append((losses[-1], lr))
    return sum(losses) / len(losses)


def train_classifier(
    model,
    train_loader: torch.utils.data.DataLoader,
    *,
    epochs: int = 3,
    lr: float = 5e-5,
    weight_decay: float = 0.01,
    warmup_ratio: float = 0.1,
    max_grad_norm: float = 1.0,
    eval_loader: torch.utils.data.DataLoader | None = None,
    keep_best: bool = False,
    patience: int | None = None,
    seed: int = 0,
    device: str | torch.device | None = None,
    verbose: bool = True,
) -> TrainResult:
    """분류 모델을 학습합니다: 에포크마다 `train_epoch`을 한 번 부르고, 그 둘레에서 검증, 가장 좋은 에포크로 되돌리기,
    일찍 멈추기, 기록을 맡습니다. ``verbose=True``면 에포크마다 한 줄씩 요약을 출력합니다(진행 막대는 없음).

    ``eval_loader``(검증 세트)를 주면 에포크가 끝날 때마다 검증 손실과 정확도를 재고, 그 결과(문장별 예측 포함)를
    ``val_reports``에 남깁니다. ``keep_best=True``면 학습이 끝난 뒤 검증 정확도가 가장 높았던 에포크(같으면 앞의 것)의
    가중치로 되돌리고, ``patience``를 주면 검증 정확도가 그 에포크 수만큼 잇달아 나아지지 않을 때 일찍 멈춥니다.
    학습률 스케줄은 언제나 ``epochs`` 전체를 기준으로 짭니다(AdamW + 선형 워밍업·학습률 감소).
    ``seed``가 드롭아웃과 (``shuffle=True``인 로더의) 섞는 순서를 정하므로, 같은 시드면 같은 결과가 나옵니다.
    """
    if not isinstance(epochs, int) or epochs < 1:
        raise ValueError(f"epochs는 1 이상의 정수여야 합니다 (받은 값: {epochs!r}).")
    if not lr > 0:
        raise ValueError(f"학습률 lr은 양수여야 합니다 (받은 값: {lr!r}).")
    if not 0 <= warmup_ratio < 1:
        raise ValueError(f"warmup_ratio는 0 이상 1 미만이어야 합니다 (받은 값: {warmup_ratio!r}).")
    if (keep_best or patience is not None) and eval_loader is None:
        raise ValueError("keep_best와 patience는 검증 세트로 고르므로 eval_loader가 필요합니다.")
    device = torch.device(device) if device is not None else default_device()
    torch.manual_seed(seed)  # 드롭아웃
    if getattr(train_loader, "generator", None) is not None:
        train_loader.generator.manual_seed(seed)  # 섞는 순서: 같은 로더로 다시 학습해도 같은 순서
    model.to(device)
    optimizer = make_optimizer(model, lr=lr, weight_decay=weight_decay)
    total_steps = epochs * len(train_loader)
    warmup_steps = max(1, math.ceil(warmup_ratio * total_steps))
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: linear_schedule(s, total_steps=total_steps, warmup_steps=warmup_steps)
    )
    history, epoch_rows, reports = [], [], []
    best = (-1.0, 0, None)  # (검증 정확도, 에포크, 가중치)
    start = time.perf_counter()
    for epoch in range(1, epochs + 1):
        log = []
        row = {"epoch": epoch, "train_loss": train_epoch(model, train_loader, optimizer, scheduler,
                                                          clip=max_grad_norm, device=device, log=log)}
        history += [{"step": len(history) + i + 1, "epoch": epoch, "loss": loss, "lr": step_lr}
                    for i, (loss, step_lr) in enumerate(log)]
        line = f"에포크 {epoch}: 학습 손실 {row['train_loss']:.4f}"
        if eval_loader is not None:
            report = evaluate(model, eval_loader, device=device)
            reports.append(report)
            row.update(val_loss=report.loss, val_accuracy=report.accuracy)
            line += f" · 검증 손실 {report.loss:.4f} · 검증 정확도 {report.accuracy:.1%}"
            if report.accuracy > best[0]:
                state = {k: v.detach().clone() for k, v in model.state_dict().items()} if keep_best else None
                best = (report.accuracy, epoch, state)
        epoch_rows.append(row)
        if verbose:
            print(line, flush=True)
        if patience is not None and epoch - best[1] >= patience:
            break
    if keep_best:
        model.load_state_dict(best[2])
    model.eval()
    return TrainResult(pd.DataFrame(history), pd.DataFrame(epoch_rows), time.perf_counter() - start, str(device),
                       len(history), best[1] if keep_best else None, reports)


# -------------------- 짝지은 비교 ---------------------------------------------


class McNemar(NamedTuple):
    """`mcnemar`의 결과: A만 맞힌 문장 수, B만 맞힌 문장 수, 정확 이항 검정의 양쪽 p값."""

    a_only: int
    b_only: int
    p_value: float


def _correct_vector(values, name: str) -> np.ndarray:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise TypeError(f"{name}에는 문장마다 맞았는지(True/False 또는 1/0)를 담은 배열을 주세요 (받은 값: {type(values).__name__}).")
    if isinstance(values, torch.Tensor):
        values = values.detach().cpu().numpy()
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name}은(는) 1차원 배열이어야 합니다 (받은 모양: {arr.shape}).")
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.bool_) or np.issubdtype(arr.dtype, np.number)):
        raise TypeError(f"{name}에는 True/False 또는 1/0만 넣으세요 (받은 자료형: {arr.dtype}).")
    if not np.isin(arr, (0, 1)).all():
        raise ValueError(f"{name}에 0/1(틀림/맞음)이 아닌 값이 있습니다: 예측 라벨이나 확률이 아니라 "
                         "'예측 == 정답'처럼 문장마다 맞았는지를 주세요.")
    return arr.astype(bool)


def mcnemar(a_correct, b_correct) -> McNemar:
    """두 분류기 A, B를 **같은** 문장들로 채점했을 때의 맥니마 검정(정확 이항 검정, 양쪽).

    ``a_correct[i]``, ``b_correct[i]``는 문장 i를 A, B가 맞혔는지입니다. 둘 다 맞히거나 둘 다 틀린 문장은 차이에 대해
    아무것도 말하지 않으므로 버리고, 한쪽만 맞힌 문장 수 ``a_only``(A만)와 ``b_only``(B만)만 봅니다. 두 분류기가 같은
    정도로 정확하다면 한쪽만 맞힌 문장 n = a_only + b_only개는 동전 던지기처럼 반반으로 갈립니다. p값은 그 가정 아래에서
    지금만큼 또는 더 한쪽으로 치우칠 확률 ``min(1, 2 · P(Binomial(n, 1/2) ≤ min(a_only, b_only)))``이고, n = 0이면 1입니다.
    """
    a = _correct_vector(a_correct, "a_correct")
    b = _correct_vector(b_correct, "b_correct")
    if len(a) != len(b):
        raise ValueError(f"두 분류기를 같은 문장들로 채점해야 합니다: a_correct는 {len(a)}개, b_correct는 {len(b)}개입니다.")
    if len(a) == 0:
        raise ValueError("채점한 문장이 하나도 없습니다.")
    a_only, b_only = int((a & ~b).sum()), int((~a & b).sum())
    n, k = a_only + b_only, min(a_only, b_only)
    tail = sum(math.comb(n, i) for i in range(k + 1))  # 정수로 세어 큰 n에서도 반올림 오차가 없다
    return McNemar(a_only, b_only, min(1.0, 2 * tail / 2**n))


# -------------------- 평가와 예측 ----------------------------------------------


@dataclass
class EvalResult:
    """`evaluate`의 결과. ``confusion[i, j]``는 정답이 i인데 j로 예측한 문장 수."""

    accuracy: float
    loss: float
    confusion: np.ndarray
    predictions: np.ndarray
    probabilities: np.ndarray  # 문장마다 라벨별 확률 (softmax)
    labels: np.ndarray

    def confusion_frame(self, names: Sequence[str] = LABEL_NAMES) -> pd.DataFrame:
        """혼동 행렬을 행 = 정답, 열 = 예측인 표로."""
        names = list(names)[: len(self.confusion)]
        return pd.DataFrame(self.confusion, index=pd.Index([f"정답 {n}" for n in names]),
                            columns=pd.Index([f"예측 {n}" for n in names]))


@torch.no_grad()
def predict_logits(model, loader, *, device: str | torch.device | None = None) -> tuple[torch.Tensor, torch.Tensor | None]:
    """모든 배치의 로짓과 (있으면) 정답 라벨을 원래 문장 순서로 모아 돌려줍니다. 모델은 평가 모드로 둡니다."""
    device = torch.device(device) if device is not None else next(model.parameters()).device
    model.eval()
    logits, labels = [], []
    for batch in loader:
        y = batch.pop("labels", None)
        batch = {k: v.to(device) for k, v in batch.items()}
        logits.append(model(**batch).logits.float().cpu())
        if y is not None:
            labels.append(y)
    logits, labels = torch.cat(logits), (torch.cat(labels) if labels else None)
    order = getattr(loader, "order", None)
    if order is not None:  # sort_by_length=True로 만든 로더: 길이순을 원래 순서로 되돌린다
        back = torch.as_tensor(np.argsort(order))
        logits, labels = logits[back], (labels[back] if labels is not None else None)
    return logits, labels


def evaluate(model, loader, *, device: str | torch.device | None = None) -> EvalResult:
    """정확도, 평균 손실, 혼동 행렬, 예측과 확률을 계산합니다. ``loader``에는 정답 라벨이 있어야 합니다."""
    logits, labels = predict_logits(model, loader, device=device)
    if labels is None:
        raise ValueError("평가하려면 정답 라벨이 있어야 합니다: make_loader(tokenizer, df)에 'label' 열을 주세요.")
    n = logits.shape[-1]
    pred = logits.argmax(-1)
    confusion = torch.zeros(n, n, dtype=torch.long)
    confusion.index_put_((labels, pred), torch.ones_like(labels), accumulate=True)
    return EvalResult(accuracy=int((pred == labels).sum()) / len(labels),
                      loss=torch.nn.functional.cross_entropy(logits, labels).item(), confusion=confusion.numpy(),
                      predictions=pred.numpy(), probabilities=logits.softmax(-1).numpy(), labels=labels.numpy())


def predict(model, tokenizer, texts: Sequence[str] | str, *, max_length: int = 64) -> pd.DataFrame:
    """새 문장들의 예측: 문장, 예측 라벨 이름, 긍정 확률(두 라벨일 때)을 표로 돌려줍니다."""
    if isinstance(texts, str):
        texts = [texts]
    logits, _ = predict_logits(model, make_loader(tokenizer, list(texts), max_length=max_length, sort_by_length=True))
    probs = logits.softmax(-1)
    id2label = getattr(model.config, "id2label", None) or {}
    out = pd.DataFrame({"문장": list(texts), "예측": [id2label.get(i, str(i)) for i in probs.argmax(-1).tolist()]})
    if probs.shape[-1] == 2:
        out["긍정 확률"] = probs[:, 1].numpy()
    return out


# -------------------- 그림 --------------------------------------------------


def plot_loss(result: TrainResult, *, ax=None, smooth: int = 10, title: str | None = None):
    """스텝별 학습 손실(옅은 선)과 이동 평균(진한 선)을 그립니다."""
    import matplotlib.pyplot as plt

    ax = ax if ax is not None else plt.subplots(figsize=(6.4, 3.4))[1]
    h = result.history
    ax.plot(h["step"], h["loss"], color="tab:blue", alpha=0.3, lw=1, label="스텝별 손실")
    ax.plot(h["step"], h["loss"].rolling(smooth, min_periods=1).mean(), color="tab:blue", lw=2,
            label=f"이동 평균({smooth} 스텝)")
    ax.set(xlabel="스텝", ylabel="교차 엔트로피 손실", title=title or "학습 손실")
    ax.legend()
    ax.grid(alpha=0.3)
    return ax


def plot_confusion(report: EvalResult, *, names: Sequence[str] = LABEL_NAMES, ax=None, title: str | None = None):
    """혼동 행렬 그림: 행 = 정답, 열 = 예측, 칸마다 문장 수."""
    import matplotlib.pyplot as plt

    ax = ax if ax is not None else plt.subplots(figsize=(3.8, 3.4))[1]
    cm = report.confusion
    ax.imshow(cm, cmap="Blues")
    for i in range(cm.shape[0]):
        for j in range(cm.shape[1]):
            ax.text(j, i, str(cm[i, j]), ha="center", va="center",
                    color="white" if cm[i, j] > cm.max() / 2 else "black", fontsize=13)
    names = list(names)[: cm.shape[0]]
    ax.set_xticks(range(len(names)), names)
    ax.set_yticks(range(len(names)), names)
    ax.set(xlabel="예측", ylabel="정답", title=title or f"혼동 행렬 (정확도 {report.accuracy:.1%})")
    return ax
