"""테스트 공용 준비물: 작은 무작위 BERT와 토크나이저(번들 체크포인트의 품질과 무관하게 빠르게 돈다)."""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("MPLBACKEND", "Agg")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import pytest
import torch


@pytest.fixture(scope="session")
def mini_tokenizer():
    """번들 미니 BERT의 토크나이저. 저장소에 실린 모델이 없으면 건너뛰지 않고 실패한다."""
    import bertlab as bl

    assert (bl.MINI_DIR / "config.json").exists(), f"번들 미니 BERT가 없습니다: {bl.MINI_DIR}"
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(bl.MINI_DIR)


@pytest.fixture(scope="session")
def tiny_config():
    from transformers import BertConfig

    return BertConfig(
        vocab_size=120,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=64,
        max_position_embeddings=64,
        attn_implementation="eager",
        output_attentions=True,
        output_hidden_states=True,
    )


@pytest.fixture(scope="session")
def tiny_bert(tiny_config):
    """무작위로 초기화한 2층·32차원·4헤드 BertModel (평가 모드)."""
    from transformers import BertModel

    torch.manual_seed(0)
    return BertModel(tiny_config).eval()


@pytest.fixture()
def tiny_batch():
    """길이가 다른 두 문장의 패딩된 배치(두 번째 문장 뒤 3칸이 [PAD])."""
    torch.manual_seed(1)
    ids = torch.randint(5, 120, (2, 9))
    ids[:, 0] = 2
    ids[0, -1] = 3
    ids[1, 5] = 3
    ids[1, 6:] = 0
    mask = (ids != 0).long()
    mask[1, 6:] = 0
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": torch.zeros_like(ids)}
