"""BERT를 PyTorch만으로 밑바닥부터 (7장 'BERT 밑바닥부터 구현하기'에서 한 클래스씩 설명합니다).

transformers의 `BertModel`과 같은 계산을 하되, 읽기 쉽게 이름을 붙였습니다.

    Config → Embeddings → SelfAttention → Layer(어텐션 + FFN, 각각 잔차 + LayerNorm) → Encoder → Pooler → Bert

흔히 잘못 구현하는 방식과 다른 점: FFN의 활성화는 ReLU가 아니라 GELU(erf 정확식)이고,
잔차 연결은 출력 투영과 드롭아웃 *뒤에* 더한 다음 LayerNorm을 적용하며(post-LN),
어텐션 마스크는 0/1을 그대로 더하지 않고 가릴 곳에 큰 음수를 더합니다.

`Bert.from_transformers(hf_model)`은 transformers 모델의 가중치를 이름 대응표로 옮겨 담고,
`PreTraining`은 그 위에 사전학습의 두 과제(MLM, NSP)를 위한 헤드를 얹은 모델입니다.
`mask_tokens`는 MLM의 입력과 라벨을 만듭니다(7장이 설명하고, 미니 BERT 공장의 사전학습도 이 함수를 씁니다).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F

from .attention import additive_mask, merge_heads, split_heads


@dataclass
class Config:
    """모델 크기와 드롭아웃 비율. `from_hf`로 transformers의 BertConfig에서 만들 수 있습니다."""

    vocab_size: int = 30522
    hidden_size: int = 768
    num_layers: int = 12
    num_heads: int = 12
    intermediate_size: int = 3072
    max_position: int = 512
    type_vocab_size: int = 2
    layer_norm_eps: float = 1e-12
    dropout: float = 0.1
    attention_dropout: float = 0.1

    def __post_init__(self):
        if self.hidden_size % self.num_heads:
            raise ValueError(f"hidden_size({self.hidden_size})가 num_heads({self.num_heads})로 나누어떨어져야 합니다.")

    @classmethod
    def from_hf(cls, hf_config) -> "Config":
        act = getattr(hf_config, "hidden_act", "gelu")
        if act != "gelu":
            raise ValueError(f"이 구현은 GELU(erf 정확식, hidden_act='gelu')만 지원합니다 (받은 값: {act!r}).")
        if getattr(hf_config, "position_embedding_type", "absolute") != "absolute":
            raise ValueError("이 구현은 절대 위치 임베딩(position_embedding_type='absolute')만 지원합니다.")
        return cls(
            vocab_size=hf_config.vocab_size, hidden_size=hf_config.hidden_size,
            num_layers=hf_config.num_hidden_layers, num_heads=hf_config.num_attention_heads,
            intermediate_size=hf_config.intermediate_size, max_position=hf_config.max_position_embeddings,
            type_vocab_size=hf_config.type_vocab_size, layer_norm_eps=hf_config.layer_norm_eps,
            dropout=hf_config.hidden_dropout_prob, attention_dropout=hf_config.attention_probs_dropout_prob,
        )


class Embeddings(nn.Module):
    """토큰 + 위치 + 세그먼트 임베딩을 더하고 LayerNorm, 드롭아웃."""

    def __init__(self, c: Config):
        super().__init__()
        self.token = nn.Embedding(c.vocab_size, c.hidden_size)
        self.position = nn.Embedding(c.max_position, c.hidden_size)
        self.segment = nn.Embedding(c.type_vocab_size, c.hidden_size)
        self.norm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)
        self.dropout = nn.Dropout(c.dropout)

    def forward(self, input_ids: torch.Tensor, token_type_ids: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)  # 0, 1, ..., T-1
        x = self.token(input_ids) + self.position(positions) + self.segment(token_type_ids)
        return self.dropout(self.norm(x))


class SelfAttention(nn.Module):
    """멀티헤드 셀프 어텐션: Q·K·V 투영 → 헤드로 나누기 → 점수/√d + 마스크 → softmax → V의 가중합 → 합치기."""

    def __init__(self, c: Config):
        super().__init__()
        self.num_heads, self.head_size = c.num_heads, c.hidden_size // c.num_heads
        self.query = nn.Linear(c.hidden_size, c.hidden_size)
        self.key = nn.Linear(c.hidden_size, c.hidden_size)
        self.value = nn.Linear(c.hidden_size, c.hidden_size)
        self.dropout = nn.Dropout(c.attention_dropout)

    def forward(self, x: torch.Tensor, mask_bias: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        # split_heads, merge_heads: 3장에서 만든 것(bertlab.attention) 그대로
        q, k, v = (split_heads(proj(x), self.num_heads) for proj in (self.query, self.key, self.value))
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.head_size) + mask_bias  # [B, heads, T, T]
        probs = scores.softmax(dim=-1)
        context = self.dropout(probs) @ v  # [B, heads, T, head_size]
        return merge_heads(context), probs  # 헤드를 다시 이어 붙여 [B, T, H]


class Layer(nn.Module):
    """인코더 층 하나: x ← LN(x + Drop(Wₒ·어텐션(x))), x ← LN(x + Drop(W₂·GELU(W₁·x)))."""

    def __init__(self, c: Config):
        super().__init__()
        self.attention = SelfAttention(c)
        self.attention_out = nn.Linear(c.hidden_size, c.hidden_size)  # 헤드를 합친 뒤의 출력 투영 Wₒ
        self.attention_norm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)
        self.ffn_in = nn.Linear(c.hidden_size, c.intermediate_size)  # W₁: 넓히기
        self.ffn_out = nn.Linear(c.intermediate_size, c.hidden_size)  # W₂: 되돌리기
        self.ffn_norm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)
        self.dropout = nn.Dropout(c.dropout)

    def forward(self, x: torch.Tensor, mask_bias: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        context, probs = self.attention(x, mask_bias)
        x = self.attention_norm(x + self.dropout(self.attention_out(context)))
        h = F.gelu(self.ffn_in(x))  # erf를 쓰는 정확한 GELU (BERT의 'gelu')
        x = self.ffn_norm(x + self.dropout(self.ffn_out(h)))
        return x, probs


class Encoder(nn.Module):
    """인코더 층을 차례로 쌓습니다. 층마다의 은닉 상태와 어텐션 확률도 모아 둡니다."""

    def __init__(self, c: Config):
        super().__init__()
        self.layers = nn.ModuleList(Layer(c) for _ in range(c.num_layers))

    def forward(self, x: torch.Tensor, mask_bias: torch.Tensor):
        hidden_states, attentions = [x], []
        for layer in self.layers:
            x, probs = layer(x, mask_bias)
            hidden_states.append(x)
            attentions.append(probs)
        return x, tuple(hidden_states), tuple(attentions)


class Pooler(nn.Module):
    """[CLS] 위치(0번) 벡터 → 선형 → tanh. NSP와 문장 분류가 이 벡터를 씁니다."""

    def __init__(self, c: Config):
        super().__init__()
        self.dense = nn.Linear(c.hidden_size, c.hidden_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(self.dense(x[:, 0]))


@dataclass
class Output:
    last_hidden_state: torch.Tensor  # [B, T, H]
    pooler_output: torch.Tensor  # [B, H]
    hidden_states: tuple  # 임베딩 출력 + 층마다 하나: (L+1)개의 [B, T, H]
    attentions: tuple  # 층마다 [B, heads, T, T]


class Bert(nn.Module):
    """임베딩 → 인코더 → 풀러. 출력은 transformers의 BertModel과 같은 이름의 필드를 가진 `Output`."""

    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        self.embeddings = Embeddings(c)
        self.encoder = Encoder(c)
        self.pooler = Pooler(c)
        self.apply(self._init_weights)

    @staticmethod
    def _init_weights(module: nn.Module) -> None:
        # transformers와 같은 초기화: 정규분포(평균 0, 표준편차 0.02), 편향 0. LayerNorm은 PyTorch 기본값(1과 0).
        # 원래 BERT(TensorFlow)는 같은 표준편차의 잘린 정규분포(truncated normal)를 썼다.
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, std=0.02)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)

    def forward(self, input_ids, attention_mask=None, token_type_ids=None) -> Output:
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        x = self.embeddings(input_ids, token_type_ids)
        x, hidden_states, attentions = self.encoder(x, additive_mask(attention_mask, x.dtype))
        return Output(x, self.pooler(x), hidden_states, attentions)

    @classmethod
    def from_transformers(cls, hf_model) -> "Bert":
        """transformers의 BERT(`BertModel`, `BertForPreTraining`, `BertForSequenceClassification` ...)에서
        설정과 가중치를 가져와 같은 계산을 하는 `Bert`를 만듭니다."""
        model = cls(Config.from_hf(hf_model.config))
        load_weights(model, hf_model)
        return model.eval()


# ---------------------------------------------------------------------------
# transformers 가중치 옮겨 담기: 우리 이름 → transformers 이름
# ---------------------------------------------------------------------------


def name_map(num_layers: int) -> dict[str, str]:
    """`Bert`의 파라미터 이름 → transformers `BertModel`의 파라미터 이름."""
    m = {
        "embeddings.token.weight": "embeddings.word_embeddings.weight",
        "embeddings.position.weight": "embeddings.position_embeddings.weight",
        "embeddings.segment.weight": "embeddings.token_type_embeddings.weight",
        "embeddings.norm.weight": "embeddings.LayerNorm.weight",
        "embeddings.norm.bias": "embeddings.LayerNorm.bias",
        "pooler.dense.weight": "pooler.dense.weight",
        "pooler.dense.bias": "pooler.dense.bias",
    }
    per_layer = {
        "attention.query": "attention.self.query",
        "attention.key": "attention.self.key",
        "attention.value": "attention.self.value",
        "attention_out": "attention.output.dense",
        "attention_norm": "attention.output.LayerNorm",
        "ffn_in": "intermediate.dense",
        "ffn_out": "output.dense",
        "ffn_norm": "output.LayerNorm",
    }
    for i in range(num_layers):
        for ours, theirs in per_layer.items():
            for p in ("weight", "bias"):
                m[f"encoder.layers.{i}.{ours}.{p}"] = f"encoder.layer.{i}.{theirs}.{p}"
    return m


def _bert_state_dict(source) -> dict[str, torch.Tensor]:
    """transformers 모델이나 state_dict에서 BertModel 부분의 가중치만, 'bert.' 접두어를 떼고 꺼냅니다."""
    if isinstance(source, nn.Module):
        source = source.state_dict()
    if not isinstance(source, dict):
        raise TypeError(f"transformers BERT 모델이나 state_dict가 필요합니다 (받은 값: {type(source).__name__}).")
    if any(k.startswith("bert.") for k in source):
        return {k[len("bert."):]: v for k, v in source.items() if k.startswith("bert.")}
    return dict(source)


def load_weights(model: Bert, source) -> Bert:
    """`source`(transformers BERT 모델이나 그 state_dict)의 가중치를 `model`에 복사합니다.

    빠진 가중치나 모양이 다른 가중치가 하나라도 있으면 무엇이 문제인지 적은 ValueError를 냅니다.
    """
    theirs = _bert_state_dict(source)
    mapping = name_map(model.config.num_layers)
    ours = model.state_dict()
    missing = [t for t in mapping.values() if t not in theirs]
    if missing:
        raise ValueError(
            f"가중치 {len(missing)}개가 원본에 없습니다 (예: {missing[:3]}). "
            f"층 수({model.config.num_layers})나 모델 종류가 맞는지 확인하세요."
        )
    bad = [
        f"{t}: 원본 {tuple(theirs[t].shape)} ≠ 우리 {tuple(ours[o].shape)}"
        for o, t in mapping.items()
        if theirs[t].shape != ours[o].shape
    ]
    if bad:
        raise ValueError(f"모양이 맞지 않는 가중치가 {len(bad)}개 있습니다: {bad[:3]}. 설정(Config)이 원본 모델과 같아야 합니다.")
    with torch.no_grad():
        for o, t in mapping.items():
            ours[o].copy_(theirs[t])
    return model


# ---------------------------------------------------------------------------
# 사전학습 헤드: MLM(가린 토큰 맞히기)과 NSP(다음 문장인지 맞히기)
# ---------------------------------------------------------------------------


class PreTraining(nn.Module):
    """사전학습용 모델: `Bert` 위에 두 헤드.

    - MLM 헤드: 선형 → GELU → LayerNorm → 어휘 점수. 어휘 점수를 내는 가중치는 토큰 임베딩 행렬을
      그대로 다시 씁니다(가중치 공유, weight tying).
    - NSP 헤드: 풀러 출력 → 점수 2개 (0 = B가 A의 다음 문장, 1 = 무작위 문장; transformers와 같은 약속).
    """

    def __init__(self, c: Config):
        super().__init__()
        self.bert = Bert(c)
        self.mlm_transform = nn.Linear(c.hidden_size, c.hidden_size)
        self.mlm_norm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)
        self.mlm_bias = nn.Parameter(torch.zeros(c.vocab_size))
        self.nsp = nn.Linear(c.hidden_size, 2)
        for module in (self.mlm_transform, self.nsp):
            Bert._init_weights(module)

    def mlm_logits(self, hidden: torch.Tensor) -> torch.Tensor:
        h = self.mlm_norm(F.gelu(self.mlm_transform(hidden)))
        return h @ self.bert.embeddings.token.weight.T + self.mlm_bias  # [..., vocab]

    def forward(self, input_ids, attention_mask=None, token_type_ids=None):
        """``(MLM 점수 [B, T, vocab], NSP 점수 [B, 2], Bert 출력)``을 돌려줍니다."""
        out = self.bert(input_ids, attention_mask, token_type_ids)
        return self.mlm_logits(out.last_hidden_state), self.nsp(out.pooler_output), out

    @classmethod
    def from_transformers(cls, hf_model) -> "PreTraining":
        """transformers `BertForPreTraining`에서 본체와 두 헤드의 가중치를 모두 가져옵니다."""
        model = cls(Config.from_hf(hf_model.config))
        load_weights(model.bert, hf_model)
        sd = hf_model.state_dict()
        mapping = {
            "mlm_transform.weight": "cls.predictions.transform.dense.weight",
            "mlm_transform.bias": "cls.predictions.transform.dense.bias",
            "mlm_norm.weight": "cls.predictions.transform.LayerNorm.weight",
            "mlm_norm.bias": "cls.predictions.transform.LayerNorm.bias",
            "mlm_bias": "cls.predictions.bias" if "cls.predictions.bias" in sd else "cls.predictions.decoder.bias",
            "nsp.weight": "cls.seq_relationship.weight",
            "nsp.bias": "cls.seq_relationship.bias",
        }
        missing = [t for t in mapping.values() if t not in sd]
        if missing:
            raise ValueError(f"사전학습 헤드 가중치가 없습니다 (예: {missing[:2]}). BertForPreTraining 모델을 주세요.")
        decoder = sd.get("cls.predictions.decoder.weight")
        if decoder is not None and not torch.equal(decoder, sd["bert.embeddings.word_embeddings.weight"]):
            raise ValueError("이 모델은 MLM 출력 가중치를 토큰 임베딩과 공유하지 않습니다 (tie_word_embeddings=False).")
        ours = model.state_dict()
        with torch.no_grad():
            for o, t in mapping.items():
                if sd[t].shape != ours[o].shape:
                    raise ValueError(f"모양이 맞지 않습니다: {t} 원본 {tuple(sd[t].shape)} ≠ 우리 {tuple(ours[o].shape)}")
                ours[o].copy_(sd[t])
        return model.eval()


# ---------------------------------------------------------------------------
# MLM 입력 만들기: 가릴 자리를 고르고 80/10/10으로 바꾸기
# ---------------------------------------------------------------------------


def mask_tokens(
    input_ids: torch.Tensor,
    tokenizer,
    generator: torch.Generator,
    prob: float = 0.15,
    all_mask: bool = False,
    continuation: torch.Tensor | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """MLM 마스킹. 특수 토큰이 아닌 위치의 `prob`를 고르고, 고른 위치를 80 % [MASK], 10 % 무작위, 10 % 그대로.

    `all_mask=True`면 고른 위치를 모두 [MASK]로 바꿉니다(평가용). 돌려주는 labels는 고르지 않은 곳이 -100.
    `continuation`(어휘 id마다 '##' 조각인지를 담은 bool 텐서, `continuation_ids`)을 주면 통단어 마스킹:
    단어(첫 조각 + 뒤따르는 ## 조각들)를 `prob`의 확률로 통째로 고릅니다. 한국어에서는 '다리 ##를'처럼
    어절이 통째로 가려지므로, 모델이 붙어 있는 조사 대신 문장의 다른 말에서 단서를 찾아야 합니다.
    """
    special = torch.tensor(tokenizer.all_special_ids)
    candidates = ~torch.isin(input_ids, special)
    draw = torch.rand(input_ids.shape, generator=generator) < prob
    if continuation is None:
        selected = draw & candidates
        starts = candidates
    else:
        is_cont = continuation[input_ids] & candidates
        word = torch.cumsum((~is_cont).long(), dim=1)  # 같은 단어의 조각은 같은 번호
        starts = ~is_cont & candidates
        # 단어 번호마다 첫 조각의 추첨 결과를 모아(## 조각은 0을 더함) 같은 단어의 모든 조각에 나눠 준다
        chosen = torch.zeros(input_ids.shape[0], input_ids.shape[1] + 1, dtype=torch.long)
        chosen.scatter_add_(1, word, (draw & starts).long())
        selected = chosen.gather(1, word).bool() & candidates
    # 문장마다 최소 한 위치는 고른다
    none = selected.sum(1) == 0
    if none.any():
        for row in torch.nonzero(none).flatten().tolist():
            cand = torch.nonzero(starts[row]).flatten()
            if len(cand):
                pick = cand[torch.randint(len(cand), (1,), generator=generator)]
                if continuation is None:
                    selected[row, pick] = True
                else:
                    selected[row] = (word[row] == word[row, pick]) & candidates[row]
    labels = torch.where(selected, input_ids, torch.full_like(input_ids, -100))
    inputs = input_ids.clone()
    if all_mask:
        inputs[selected] = tokenizer.mask_token_id
        return inputs, labels
    r = torch.rand(input_ids.shape, generator=generator)
    inputs[selected & (r < 0.8)] = tokenizer.mask_token_id
    random_pos = selected & (r >= 0.8) & (r < 0.9)
    inputs[random_pos] = torch.randint(len(special), len(tokenizer), (int(random_pos.sum()),), generator=generator)
    return inputs, labels


def continuation_ids(tokenizer) -> torch.Tensor:
    """어휘 id마다 WordPiece 이어 붙는 조각('##'로 시작)인지: 통단어 마스킹(`mask_tokens`)에 씁니다."""
    tokens = tokenizer.convert_ids_to_tokens(list(range(len(tokenizer))))
    return torch.tensor([t.startswith("##") for t in tokens])
