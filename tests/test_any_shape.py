"""모든 장이 미니 BERT가 아닌 모양의 BERT로도 끝까지 도는지: 12층·12헤드·위치 512개·다른 어휘 수의 무작위 BERT.

mBERT(12층, 12헤드, 위치 512개, 어휘 119,547개)나 klue/bert-base 같은 모델로 바꾼 학생이 만나는 길을 인터넷 없이 흉내 냅니다.
가중치는 무작위이고 은닉 크기는 48(헤드당 4)로 줄여 빠르게 돕니다. 토크나이저는 번들 어휘 뒤에 `[unused0]`…를 덧붙여
어휘 수만 다르게 했습니다(토큰화 결과는 같음). 장 안의 숫자는 모델마다 다르므로, 여기서는 각 장의 `assert`가 모두
통과하는지(곧 장이 모델의 크기를 `model.config`에서 읽는지)를 봅니다. 노트북은 `BERTLAB_MODEL=<임시 폴더>`로 실행합니다.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SHAPE = dict(num_hidden_layers=12, num_attention_heads=12, hidden_size=48, intermediate_size=96, max_position_embeddings=512)
EXTRA_TOKENS = 84  # 어휘 수를 번들 모델과 다르게(9,516 → 9,600)


def make_random_bert(out: Path, seed: int = 0, **shape) -> Path:
    """번들 토크나이저에 토큰을 덧붙이고, 그 어휘 수에 맞춘 무작위 `BertForPreTraining`을 `out`에 저장합니다."""
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForPreTraining

    from bertlab import MINI_DIR

    out.mkdir(parents=True, exist_ok=True)
    tok = json.loads((MINI_DIR / "tokenizer.json").read_text(encoding="utf-8"))
    vocab = tok["model"]["vocab"]
    for i in range(EXTRA_TOKENS):
        vocab[f"[unused{i}]"] = len(vocab)
    (out / "tokenizer.json").write_text(json.dumps(tok, ensure_ascii=False), encoding="utf-8")
    cfg = json.loads((MINI_DIR / "tokenizer_config.json").read_text(encoding="utf-8"))
    cfg["model_max_length"] = shape.get("max_position_embeddings", SHAPE["max_position_embeddings"])
    (out / "tokenizer_config.json").write_text(json.dumps(cfg, ensure_ascii=False), encoding="utf-8")
    tokenizer = AutoTokenizer.from_pretrained(out)
    torch.manual_seed(seed)
    config = BertConfig(vocab_size=len(tokenizer), **{**SHAPE, **shape})
    BertForPreTraining(config).eval().save_pretrained(out)
    return out


@pytest.fixture(scope="module")
def random_bert(tmp_path_factory) -> Path:
    return make_random_bert(tmp_path_factory.mktemp("random-bert-12x12"))


def test_random_bert_has_the_asked_shape(random_bert):
    import bertlab as bl

    tokenizer, model = bl.load_bert(str(random_bert), quiet=True)
    c = model.config
    assert (c.num_hidden_layers, c.num_attention_heads, c.max_position_embeddings) == (12, 12, 512)
    assert len(tokenizer) == c.vocab_size == 9516 + EXTRA_TOKENS
    assert bl.describe(model).index[0] == f"로컬: {random_bert.name}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_chapter_runs_with_another_bert_shape(path, random_bert):
    from nbclient import NotebookClient

    from bertlab.course.colab import with_fast_settings

    nb = with_fast_settings(nbformat.read(str(path), as_version=4))  # 매개변수 셀의 시험용 빠른 설정
    env = {**os.environ, "BERTLAB_MODEL": str(random_bert), "HF_HUB_OFFLINE": "1", "MPLBACKEND": "Agg",
           "BERTLAB_FAST": "1"}  # 아직 매개변수 셀로 옮기지 않은 장을 위한 옛 스위치(옮기면 지움)
    client = NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    client.execute(env=env)
