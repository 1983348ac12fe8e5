"""bertlab.models와 bertlab.env: 모델 선택(오프라인 판단 시간 포함), 오류 경로, 번들 모델의 형태."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import bertlab as bl
from bertlab import models

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _clean_probe(monkeypatch):
    models._probe_cache.clear()
    yield
    models._probe_cache.clear()


def _offline(monkeypatch, tmp_path):
    """허브에 닿지 않고 캐시도 빈 상태를 만든다."""
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("BERTLAB_MODEL", raising=False)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.setattr(models, "hub_reachable", lambda timeout=models.PROBE_TIMEOUT_S: False)


def test_import_does_not_import_transformers():
    code = "import sys, bertlab; print('transformers' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_auto_offline_decides_fast_in_a_fresh_process(tmp_path):
    """새 프로세스에서 실제 네트워크 확인까지 포함해 'auto'(직접 고른 경우)가 오프라인이면 미니 모델로 정해진다.

    결정은 5초 미만이어야 한다(확인 시간 제한이 3초라 부하가 있어도 넘지 않는다). 모델 로딩까지의 전체 시간은
    transformers의 46~120초 재시도가 일어나지 않았는지만 넉넉하게(30초) 막는다. 실제 수치는
    `python scripts/bench_offline.py`가 출력한다.
    """
    env = {k: v for k, v in os.environ.items() if k not in {"HF_HUB_OFFLINE", "BERTLAB_MODEL"}}
    env["HF_HUB_CACHE"] = str(tmp_path / "empty-cache")
    # 이 테스트는 오프라인 CI용: 허브에 실제로 닿는 곳에서는 'auto'가 mBERT를 고르므로 건너뛴다
    if models.hub_reachable(timeout=2):
        pytest.skip("허브에 닿는 환경입니다")
    models._probe_cache.clear()
    code = (
        "import time; t=time.perf_counter(); import bertlab as bl; c = bl.models.decide('auto'); "
        "d=time.perf_counter()-t; tok, m = bl.load_bert('auto'); "
        "print(f'DECIDE {d:.3f} TOTAL {time.perf_counter()-t:.2f}'); "
        "import os; print('OFFLINE', os.environ.get('HF_HUB_OFFLINE'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    fields = out.stdout.split("DECIDE")[1].split()
    decide_s, total_s = float(fields[0]), float(fields[2])
    print(f"\n오프라인 'auto': 결정 {decide_s:.3f}s, 로딩까지 {total_s:.2f}s")
    assert "번들 미니 BERT" in out.stdout
    assert "OFFLINE 1" in out.stdout
    assert decide_s < 5.0
    assert total_s < 30.0


def test_default_is_the_bundled_model_even_online(monkeypatch, tmp_path):
    """이름 없이 부르면(모든 장의 `bl.load_bert()`) 허브에 닿아도 번들 미니 BERT: 학생의 숫자가 본문과 같다."""
    _offline(monkeypatch, tmp_path)
    asked = []
    monkeypatch.setattr(models, "hub_reachable", lambda timeout=3.0: asked.append(1) or True)
    choice = models.decide()
    assert choice.is_mini and choice.offline and "기본값" in choice.reason
    assert not asked  # 기본값을 정하려고 네트워크를 묻지도 않는다
    assert "번들 미니 BERT" in models.model_choice_line()


def test_unreachable_mbert_says_how_to_continue(monkeypatch, tmp_path):
    """MODEL = "mbert"(BERTLAB_MODEL=mbert)인데 허브에 닿지 않으면 조용히 미니로 바꾸지 않고 한국어로 이어 갈 길을 알린다."""
    _offline(monkeypatch, tmp_path)
    monkeypatch.setenv("BERTLAB_MODEL", "mbert")
    with pytest.raises(ConnectionError, match="MODEL을 \"mini\"로") as err:
        models.decide()
    assert "load_bert('mini')" in str(err.value)
    assert models.model_choice_line().startswith("열 수 없음")


def test_probe_is_bounded_even_if_dns_hangs(monkeypatch):
    """DNS나 연결이 멈춰도 확인은 timeout만큼만 기다린다."""
    import urllib.request

    def hang(*a, **k):
        time.sleep(30)

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(urllib.request, "urlopen", hang)
    start = time.perf_counter()
    assert models.hub_reachable(timeout=0.5) is False
    assert time.perf_counter() - start < 2.0


def test_hf_hub_offline_skips_probe(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert models.hub_reachable() is False


def test_auto_prefers_cached_mbert(monkeypatch, tmp_path):
    _offline(monkeypatch, tmp_path)
    snap = tmp_path / "empty-cache" / "models--google-bert--bert-base-multilingual-cased" / "snapshots" / "abc"
    snap.mkdir(parents=True)
    (snap / "config.json").write_text("{}")
    (snap / "model.safetensors").write_text("")
    choice = models.decide("auto")
    assert choice.source == models.MBERT_ID and choice.offline


def test_auto_online_picks_mbert(monkeypatch, tmp_path):
    _offline(monkeypatch, tmp_path)
    monkeypatch.setattr(models, "hub_reachable", lambda timeout=3.0: True)
    choice = models.decide("auto")
    assert choice.source == models.MBERT_ID and not choice.offline


def test_env_variable_sets_the_default(monkeypatch, tmp_path):
    _offline(monkeypatch, tmp_path)
    monkeypatch.setenv("BERTLAB_MODEL", "mini")
    choice = models.decide()
    assert choice.is_mini and "BERTLAB_MODEL" in choice.reason
    monkeypatch.setattr(models, "hub_reachable", lambda timeout=3.0: True)
    monkeypatch.setenv("BERTLAB_MODEL", "mbert")
    assert models.decide().source == models.MBERT_ID


def test_unknown_name_is_a_clear_error(monkeypatch, tmp_path):
    _offline(monkeypatch, tmp_path)
    with pytest.raises(ValueError, match="알 수 없는 모델 이름"):
        models.decide("미니 버트")
    with pytest.raises(TypeError, match="문자열"):
        models.decide(3)


def test_missing_local_path(monkeypatch, tmp_path):
    _offline(monkeypatch, tmp_path)
    with pytest.raises(FileNotFoundError, match="없습니다"):
        bl.load_bert(str(tmp_path / "no-such-model"))
    empty = tmp_path / "empty-dir"
    empty.mkdir()
    with pytest.raises(FileNotFoundError, match="config.json"):
        bl.load_bert(str(empty))


def test_unreachable_hub_for_explicit_id(monkeypatch, tmp_path):
    _offline(monkeypatch, tmp_path)
    start = time.perf_counter()
    with pytest.raises(ConnectionError, match="load_bert\\('mini'\\)"):
        bl.load_bert("klue/bert-base")
    with pytest.raises(ConnectionError):
        bl.load_bert("mbert")
    assert time.perf_counter() - start < 5


def test_error_is_short_not_a_long_trace(tmp_path):
    """학생이 보는 오류는 한두 줄이어야 한다(깊은 스택이 아닌)."""
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_HUB_CACHE=str(tmp_path))
    code = "import bertlab as bl\ntry:\n    bl.load_bert('klue/bert-base')\nexcept ConnectionError as e:\n    print(type(e).__name__, e)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert out.stdout.startswith("ConnectionError") and len(out.stdout.splitlines()) <= 2


def test_mini_loads_with_eager_attention_and_outputs():
    tokenizer, model = bl.load_bert("mini", quiet=True)
    cfg = model.config
    assert cfg._attn_implementation == "eager"
    assert cfg.output_attentions and cfg.output_hidden_states
    assert not model.training
    assert next(model.parameters()).dtype.is_floating_point and next(model.parameters()).dtype.itemsize == 4
    enc = tokenizer(["배 타고 배 먹으니 배 부르다.", "나는 밥을 먹었다"], padding=True, return_tensors="pt")
    out = model(**enc)
    assert len(out.hidden_states) == cfg.num_hidden_layers + 1
    assert len(out.attentions) == cfg.num_hidden_layers
    assert out.attentions[0].shape[1] == cfg.num_attention_heads


def test_mini_vocabulary_is_the_trained_one():
    """transformers 5의 함정: 어휘가 5개로 줄어든 토크나이저가 만들어지지 않았는지."""
    tokenizer, model = bl.load_bert("mini", quiet=True)
    assert 8000 <= len(tokenizer) <= 16000
    assert len(tokenizer) == model.config.vocab_size
    assert tokenizer.unk_token_id not in tokenizer("나는 밥을 먹었다")["input_ids"]
    assert tokenizer.tokenize("배 타고") == ["배", "타", "##고"] or "[UNK]" not in tokenizer.tokenize("배 타고")


def test_mini_checkpoint_is_complete_and_small():
    """BertForPreTraining 체크포인트: 25MB 미만, BertModel·BertForMaskedLM으로 읽을 때 새로 초기화되는 가중치가 없다."""
    from transformers import BertForMaskedLM, BertForPreTraining, BertModel

    size = sum(p.stat().st_size for p in bl.MINI_DIR.iterdir()) / 2**20
    assert size < 25, f"{size:.1f} MB"
    for cls in (BertModel, BertForMaskedLM, BertForPreTraining):
        _, info = cls.from_pretrained(bl.MINI_DIR, output_loading_info=True)
        assert [k for k in info["missing_keys"] if "position_ids" not in k] == [], (cls.__name__, info["missing_keys"])


def test_describe(tiny_bert):
    row = bl.describe(tiny_bert).iloc[0]
    assert row["층 수"] == 2 and row["헤드당 크기"] == 8
    with pytest.raises(TypeError, match="BERT 모델"):
        bl.describe("not a model")


def test_setup_is_deterministic_and_registers_font(capsys):
    import matplotlib as mpl
    import torch

    assert bl.setup(seed=3) is None  # 노트북 첫 셀의 마지막 줄이라 아무것도 표시하지 않아야 한다
    info = dict(bl.env.SETUP_INFO)
    a = torch.rand(3)
    bl.setup(seed=3, quiet=True)
    assert torch.equal(a, torch.rand(3))
    assert info["font"] == "NanumGothic"
    assert mpl.rcParams["font.sans-serif"][:2] == ["DejaVu Sans", "NanumGothic"]
    out = capsys.readouterr().out
    assert "모델:" in out and "torch" in out
    with pytest.raises(TypeError, match="seed"):
        bl.setup(seed="0")


def test_korean_plot_has_no_missing_glyphs(recwarn):
    import matplotlib.pyplot as plt

    bl.setup(quiet=True)
    fig, ax = plt.subplots()
    ax.plot([-1, 0, 1])
    ax.set_title("배 타고 배 먹으니 배 부르다 −1")
    fig.canvas.draw()
    plt.close(fig)
    assert not [w for w in recwarn if "Glyph" in str(w.message)]


def test_long_and_empty_sentences_get_korean_messages(tiny_bert):
    """1,600토큰짜리 문장과 빈 문장: 모델 깊숙한 곳의 RuntimeError 대신 길이와 한계를 말하는 한국어 ValueError."""
    import torch

    tokenizer, _ = bl.load_bert("mini", quiet=True)
    limit = tiny_bert.config.max_position_embeddings
    long_text = "배 " * 1598  # [CLS] + 1,598 + [SEP] = 1,600토큰
    with pytest.raises(ValueError, match=rf"토큰 1,600개.*최대 {limit:,}개"):
        bl.encode(tokenizer, long_text, model=tiny_bert)
    for empty in ("", "   \n"):
        with pytest.raises(ValueError, match="문장이 비어 있습니다"):
            bl.encode(tokenizer, empty, model=tiny_bert)
    with pytest.raises(TypeError, match="문자열"):
        bl.encode(tokenizer, None, model=tiny_bert)
    enc = bl.encode(tokenizer, long_text, model=tiny_bert, truncate=True)
    assert enc["input_ids"].shape[-1] == limit
    # 모델을 직접 불러도(학생이 tokenizer(...)를 그대로 넘겨도) 같은 한국어 오류
    bl.models.add_length_guard(tiny_bert)
    ids = torch.ones(1, 1600, dtype=torch.long)
    with pytest.raises(ValueError, match=rf"토큰 1,600개.*최대 {limit:,}개"):
        tiny_bert(input_ids=ids)
    with pytest.raises(ValueError, match="토큰 1,600개"):
        tiny_bert(ids)


def test_load_bert_guards_the_length():
    _, model = bl.load_bert("mini", quiet=True)
    assert model._bertlab_length_guard
    assert bl.models.model_label(bl.MINI_DIR) == "mini (bertlab/assets/mini-bert)"
    assert str(bl.MINI_DIR) not in bl.describe(model).index[0]


def test_fill_mask_gives_top_k_per_mask():
    tokenizer, mlm = bl.load_mlm("mini", quiet=True)
    rows = bl.fill_mask(mlm, tokenizer, "아침에 [MASK] 타고 학교에 갔다. [MASK] 맛있다.", k=3)
    assert len(rows) == 2 and all(len(r) == 3 for r in rows)
    for r in rows:
        probs = [p for _, p in r]
        assert probs == sorted(probs, reverse=True) and 0 < probs[0] <= 1
    with pytest.raises(ValueError, match=r"\[MASK\]이 없습니다"):
        bl.fill_mask(mlm, tokenizer, "가린 곳이 없는 문장")
    with pytest.raises(ValueError, match="비어 있습니다"):
        bl.fill_mask(mlm, tokenizer, " ")
