"""bertlab.train: 데이터 로더, 학습률 스케줄, 학습·평가 루프를 아주 작은 무작위 모델로 빠르게 확인한다."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import torch
from transformers import BertConfig, BertForPreTraining, BertForSequenceClassification, BertTokenizer

from bertlab import data as D
from bertlab import train as T


@pytest.fixture(autouse=True)
def one_thread():
    """아주 작은 모델은 스레드 하나로 충분하다. 다른 작업과 CPU를 나눌 때 스레드 둘은 서로를 기다리느라 수십 배 느려진다."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def syllable_tokenizer():
    """번들 데이터의 글자로 만든 음절 WordPiece 토크나이저 (번들 미니 BERT 없이도 돈다)."""
    texts = pd.concat(D.load_bundled().values())["text"]
    chars = sorted(set("".join(texts)) - {" "})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + chars + ["##" + c for c in chars]
    return BertTokenizer(vocab={w: i for i, w in enumerate(vocab)}, do_lower_case=False, strip_accents=False)


def _tiny_classifier(vocab_size: int, seed: int = 0, dropout: float = 0.1):
    torch.manual_seed(seed)
    config = BertConfig(
        vocab_size=vocab_size, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
        max_position_embeddings=64, num_labels=2, hidden_dropout_prob=dropout, attention_probs_dropout_prob=dropout,
    )
    return BertForSequenceClassification(config)


@pytest.fixture()
def small_data():
    d = D.load_bundled()
    return d["train"].iloc[:48].reset_index(drop=True), d["test"].iloc[:40].reset_index(drop=True)


def test_loader_pads_truncates_and_shuffles_deterministically(syllable_tokenizer, small_data):
    train, _ = small_data
    loader = T.make_loader(syllable_tokenizer, train, batch_size=8, max_length=10)
    batch = next(iter(loader))
    assert set(batch) == {"input_ids", "token_type_ids", "attention_mask", "labels"}
    assert batch["input_ids"].shape[0] == 8 and batch["input_ids"].shape[1] <= 10
    assert batch["labels"].tolist() == train["label"].iloc[:8].tolist()
    assert (batch["input_ids"][:, 0] == syllable_tokenizer.cls_token_id).all()
    padded = batch["attention_mask"] == 0
    assert (batch["input_ids"][padded] == syllable_tokenizer.pad_token_id).all()
    first = [b["labels"].tolist() for b in T.make_loader(syllable_tokenizer, train, shuffle=True, seed=3)]
    again = [b["labels"].tolist() for b in T.make_loader(syllable_tokenizer, train, shuffle=True, seed=3)]
    assert first == again


def test_loader_errors(syllable_tokenizer):
    with pytest.raises(ValueError, match="'text' 열"):
        T.make_loader(syllable_tokenizer, pd.DataFrame({"sentence": ["좋아요"]}))
    with pytest.raises(ValueError, match="라벨 수"):
        T.make_loader(syllable_tokenizer, ["좋아요", "싫어요"], [1])
    with pytest.raises(TypeError, match="문장 목록"):
        T.make_loader(syllable_tokenizer, "좋아요")
    with pytest.raises(ValueError, match="하나도 없습니다"):
        T.make_loader(syllable_tokenizer, [])


def test_linear_schedule_warms_up_then_decays():
    lrs = [T.linear_schedule(s, total_steps=10, warmup_steps=2) for s in range(10)]
    assert lrs[0] == pytest.approx(0.5) and lrs[1] == pytest.approx(1.0)
    assert all(a >= b for a, b in zip(lrs[1:], lrs[2:]))
    assert T.linear_schedule(10, total_steps=10, warmup_steps=2) == 0.0


def test_training_learns_and_is_deterministic(syllable_tokenizer, small_data):
    train, _ = small_data
    loader = T.make_loader(syllable_tokenizer, train.iloc[:16], batch_size=8, shuffle=True)
    results = []
    for _ in range(2):
        model = _tiny_classifier(len(syllable_tokenizer), dropout=0.0)
        results.append(T.train_classifier(model, loader, epochs=25, lr=3e-3, warmup_ratio=0.1, progress=False))
    a, b = results
    pd.testing.assert_frame_equal(a.history, b.history)  # 같은 시드 → 같은 손실
    assert a.steps == 50 and len(a.epochs) == 25 and a.seconds > 0
    assert a.history["loss"].iloc[-4:].mean() < a.history["loss"].iloc[:4].mean()
    report = T.evaluate(model, T.make_loader(syllable_tokenizer, train.iloc[:16]))
    assert report.accuracy == 1.0  # 16문장은 외울 수 있어야 한다


def test_dropout_and_shuffle_follow_the_seed(syllable_tokenizer, small_data):
    loader = T.make_loader(syllable_tokenizer, small_data[0], batch_size=8, shuffle=True)
    runs = []
    for seed in (0, 0, 1):
        model = _tiny_classifier(len(syllable_tokenizer), dropout=0.1)
        runs.append(T.train_classifier(model, loader, epochs=1, lr=1e-3, seed=seed, progress=False).history)
    pd.testing.assert_frame_equal(runs[0], runs[1])
    assert not runs[0]["loss"].equals(runs[2]["loss"])


def test_evaluate_reports_consistent_numbers(syllable_tokenizer, small_data, capsys):
    train, test = small_data
    model = _tiny_classifier(len(syllable_tokenizer))
    result = T.train_classifier(
        model, T.make_loader(syllable_tokenizer, train, batch_size=16), epochs=1, lr=1e-3,
        eval_loader=T.make_loader(syllable_tokenizer, test), progress=True,
    )
    out = capsys.readouterr().out
    assert "에포크 1" in out and "검증 정확도" in out
    assert {"val_loss", "val_accuracy"} <= set(result.epochs.columns)
    report = T.evaluate(model, T.make_loader(syllable_tokenizer, test, batch_size=7))
    assert report.confusion.sum() == len(test)
    assert report.accuracy == pytest.approx(np.trace(report.confusion) / len(test))
    assert report.accuracy == pytest.approx(result.epochs["val_accuracy"].iloc[-1])
    assert report.predictions.shape == (len(test),)
    np.testing.assert_allclose(report.probabilities.sum(1), 1.0, rtol=1e-5)
    assert report.confusion_frame().shape == (2, 2)
    table = T.predict(model, syllable_tokenizer, ["정말 좋아요", "최악"])
    assert list(table.columns) == ["문장", "예측", "긍정 확률"] and len(table) == 2
    with pytest.raises(ValueError, match="정답 라벨"):
        T.evaluate(model, T.make_loader(syllable_tokenizer, ["좋아요"]))


def test_frozen_encoder_stays_fixed(syllable_tokenizer, small_data):
    train, _ = small_data
    model = _tiny_classifier(len(syllable_tokenizer))
    n = T.freeze_encoder(model)
    assert n == sum(p.numel() for p in model.classifier.parameters()) == T.count_trainable(model)
    before = {k: v.clone() for k, v in model.bert.state_dict().items()}
    head_before = model.classifier.weight.clone()
    T.train_classifier(model, T.make_loader(syllable_tokenizer, train, batch_size=16), epochs=1, lr=1e-2, progress=False)
    for k, v in model.bert.state_dict().items():
        torch.testing.assert_close(v, before[k], rtol=0, atol=0)
    assert not torch.equal(model.classifier.weight, head_before)
    with pytest.raises(TypeError):
        T.freeze_encoder(model.bert)


def test_training_argument_errors(syllable_tokenizer, small_data):
    loader = T.make_loader(syllable_tokenizer, small_data[0])
    model = _tiny_classifier(len(syllable_tokenizer))
    with pytest.raises(ValueError, match="epochs"):
        T.train_classifier(model, loader, epochs=0)
    with pytest.raises(ValueError, match="학습률"):
        T.train_classifier(model, loader, lr=0)
    for p in model.parameters():
        p.requires_grad_(False)
    with pytest.raises(ValueError, match="학습할 파라미터"):
        T.train_classifier(model, loader, progress=False)


def test_load_classifier_from_local_directory(syllable_tokenizer, tmp_path):
    torch.manual_seed(123)  # load_classifier(seed=0)의 무작위 초기화와 달라야 비교가 된다
    config = BertConfig(
        vocab_size=len(syllable_tokenizer), hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=64, max_position_embeddings=64,
    )
    BertForPreTraining(config).save_pretrained(tmp_path)
    syllable_tokenizer.save_pretrained(tmp_path)
    source = BertForPreTraining.from_pretrained(tmp_path)
    tok, model = T.load_classifier(str(tmp_path), num_labels=2, quiet=True)
    assert len(tok) == len(syllable_tokenizer)
    torch.testing.assert_close(model.bert.embeddings.word_embeddings.weight, source.bert.embeddings.word_embeddings.weight)
    torch.testing.assert_close(model.bert.pooler.dense.weight, source.bert.pooler.dense.weight)
    assert model.config.id2label == {0: "부정", 1: "긍정"}
    _, scratch = T.load_classifier(str(tmp_path), pretrained=False, quiet=True)
    assert not torch.equal(scratch.bert.embeddings.word_embeddings.weight, source.bert.embeddings.word_embeddings.weight)
    _, again = T.load_classifier(str(tmp_path), quiet=True, seed=0)
    torch.testing.assert_close(again.classifier.weight, model.classifier.weight)  # 헤드 초기화도 시드를 따른다
    with pytest.raises(ValueError, match="num_labels"):
        T.load_classifier(str(tmp_path), num_labels=1)
    _, tagger = T.load_classifier(str(tmp_path), num_labels=5, head="token", quiet=True)
    assert type(tagger).__name__ == "BertForTokenClassification" and tagger.classifier.out_features == 5
    torch.testing.assert_close(tagger.bert.encoder.layer[0].output.dense.weight, source.bert.encoder.layer[0].output.dense.weight)
    with pytest.raises(ValueError, match="head"):
        T.load_classifier(str(tmp_path), head="span")
    (tmp_path / "model.safetensors").unlink()  # 가중치가 없는 디렉터리: 한국어로 알린다
    with pytest.raises(RuntimeError, match="불러오지 못했습니다"):
        T.load_classifier(str(tmp_path), quiet=True)


def test_plots(syllable_tokenizer, small_data):
    import matplotlib

    matplotlib.use("Agg")
    train, test = small_data
    model = _tiny_classifier(len(syllable_tokenizer))
    result = T.train_classifier(model, T.make_loader(syllable_tokenizer, train, batch_size=16), epochs=1, progress=False)
    assert T.plot_loss(result).get_xlabel() == "스텝"
    report = T.evaluate(model, T.make_loader(syllable_tokenizer, test))
    assert "정확도" in T.plot_confusion(report).get_title()


def test_length_buckets_cover_everything_once_and_cut_padding(syllable_tokenizer, small_data):
    train, _ = small_data
    loader = T.make_loader(syllable_tokenizer, train, batch_size=8, shuffle=True, bucket=True, seed=5)
    batches = list(loader)
    assert len(batches) == len(loader) == 6
    seen = sorted(t for b in loader.batch_sampler for t in b)
    assert seen == list(range(len(train)))  # 모든 문장이 정확히 한 번
    again = [b["input_ids"].tolist() for b in T.make_loader(syllable_tokenizer, train, batch_size=8, shuffle=True, bucket=True, seed=5)]
    assert again == [b["input_ids"].tolist() for b in batches]  # 같은 시드 → 같은 배치
    plain = T.make_loader(syllable_tokenizer, train, batch_size=8, shuffle=True, seed=5)
    pads = [sum(int((b["attention_mask"] == 0).sum()) for b in x) for x in (batches, plain)]
    assert pads[0] < pads[1]  # 길이가 비슷한 문장끼리 묶으면 [PAD]가 준다
    with pytest.raises(ValueError, match="shuffle"):
        T.make_loader(syllable_tokenizer, train, bucket=True)


def test_keep_best_restores_the_best_validation_epoch(syllable_tokenizer, small_data):
    train, test = small_data
    loader = T.make_loader(syllable_tokenizer, train, batch_size=16, shuffle=True)
    val = T.make_loader(syllable_tokenizer, test)
    model = _tiny_classifier(len(syllable_tokenizer))
    result = T.train_classifier(model, loader, epochs=5, lr=3e-3, eval_loader=val, keep_best=True, progress=False)
    accs = result.epochs["val_accuracy"].tolist()
    assert result.best_epoch == 1 + accs.index(max(accs))  # 가장 높은 에포크, 같으면 앞의 것
    assert T.evaluate(model, val).accuracy == pytest.approx(max(accs))  # 그 에포크의 가중치로 돌아왔다
    with pytest.raises(ValueError, match="eval_loader"):
        T.train_classifier(model, loader, epochs=1, keep_best=True, progress=False)


def test_patience_stops_early(syllable_tokenizer, small_data):
    train, test = small_data
    loader = T.make_loader(syllable_tokenizer, train, batch_size=16)
    model = _tiny_classifier(len(syllable_tokenizer))
    for p in model.parameters():  # 분류 헤드의 편향만 배우면 검증 정확도는 곧 더 나아지지 않는다
        p.requires_grad_(False)
    model.classifier.bias.requires_grad_(True)
    result = T.train_classifier(model, loader, epochs=30, lr=1e-3, eval_loader=T.make_loader(syllable_tokenizer, test),
                                patience=2, progress=False)
    accs = result.epochs["val_accuracy"].tolist()
    assert len(accs) < 30
    best = accs.index(max(accs))
    assert len(accs) == best + 1 + 2  # 최고 에포크 뒤로 두 에포크 잇달아 나아지지 않아 멈췄다


def test_plan_runs_falls_back_to_mini_only_for_big_models_on_cpu():
    model = _tiny_classifier(50)
    n = sum(p.numel() for p in model.parameters())
    same = T.plan_runs(model, "klue/bert-base", cuda=False)  # 작은 모델: 그대로
    assert (same.main, same.reason) == ("klue/bert-base", "")
    big = T.plan_runs(model, "mbert", cuda=False, max_cpu_params=n - 1)  # 기준보다 큰 모델, GPU 없음
    assert big.main == "mini"
    assert "GPU" in big.reason and f"{n:,}" in big.reason and "미니 BERT" in big.reason
    on_gpu = T.plan_runs(model, "mbert", cuda=True, max_cpu_params=n - 1)  # GPU가 있으면 그대로
    assert (on_gpu.main, on_gpu.reason) == ("mbert", "")
    assert T.BIG_MODEL_PARAMS == 50_000_000
