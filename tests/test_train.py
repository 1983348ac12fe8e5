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
        results.append(T.train_classifier(model, loader, epochs=25, lr=3e-3, warmup_ratio=0.1, verbose=False))
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
        runs.append(T.train_classifier(model, loader, epochs=1, lr=1e-3, seed=seed, verbose=False).history)
    pd.testing.assert_frame_equal(runs[0], runs[1])
    assert not runs[0]["loss"].equals(runs[2]["loss"])


def test_evaluate_reports_consistent_numbers(syllable_tokenizer, small_data, capsys):
    train, test = small_data
    model = _tiny_classifier(len(syllable_tokenizer))
    result = T.train_classifier(
        model, T.make_loader(syllable_tokenizer, train, batch_size=16), epochs=1, lr=1e-3,
        eval_loader=T.make_loader(syllable_tokenizer, test), verbose=True,
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
    T.train_classifier(model, T.make_loader(syllable_tokenizer, train, batch_size=16), epochs=1, lr=1e-2, verbose=False)
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
        T.train_classifier(model, loader, verbose=False)


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
    result = T.train_classifier(model, T.make_loader(syllable_tokenizer, train, batch_size=16), epochs=1, verbose=False)
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
    result = T.train_classifier(model, loader, epochs=5, lr=3e-3, eval_loader=val, keep_best=True, verbose=False)
    accs = result.epochs["val_accuracy"].tolist()
    assert result.best_epoch == 1 + accs.index(max(accs))  # 가장 높은 에포크, 같으면 앞의 것
    assert T.evaluate(model, val).accuracy == pytest.approx(max(accs))  # 그 에포크의 가중치로 돌아왔다
    with pytest.raises(ValueError, match="eval_loader"):
        T.train_classifier(model, loader, epochs=1, keep_best=True, verbose=False)


def test_patience_stops_early(syllable_tokenizer, small_data):
    train, test = small_data
    loader = T.make_loader(syllable_tokenizer, train, batch_size=16)
    model = _tiny_classifier(len(syllable_tokenizer))
    for p in model.parameters():  # 분류 헤드의 편향만 배우면 검증 정확도는 곧 더 나아지지 않는다
        p.requires_grad_(False)
    model.classifier.bias.requires_grad_(True)
    result = T.train_classifier(model, loader, epochs=30, lr=1e-3, eval_loader=T.make_loader(syllable_tokenizer, test),
                                patience=2, verbose=False)
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


def test_train_epoch_is_one_pass_of_the_loop(syllable_tokenizer, small_data):
    """train_epoch: 배치마다 한 스텝(순전파·손실·역전파·자르기·한 걸음·학습률 갱신), 돌려주는 값은 스텝 손실의 평균."""
    train, _ = small_data
    loader = T.make_loader(syllable_tokenizer, train, batch_size=16)
    model = _tiny_classifier(len(syllable_tokenizer), dropout=0.0)
    before = model.classifier.weight.detach().clone()
    optimizer = T.make_optimizer(model, lr=1e-3)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: T.linear_schedule(s, total_steps=3, warmup_steps=1))
    log = []
    mean = T.train_epoch(model, loader, optimizer, scheduler, log=log)
    assert len(log) == len(loader) == 3
    assert mean == pytest.approx(np.mean([loss for loss, _ in log]))
    assert [lr for _, lr in log] == pytest.approx([1e-3, 1e-3, 5e-4])  # 그 스텝에 쓴 학습률: 워밍업 1스텝, 이어서 감소
    assert optimizer.param_groups[0]["lr"] == 0.0  # 마지막 스텝 뒤에는 0
    assert model.training and not torch.equal(model.classifier.weight, before)


def test_train_epoch_clips_the_gradient_norm(syllable_tokenizer, small_data):
    train, _ = small_data
    batch = next(iter(T.make_loader(syllable_tokenizer, train, batch_size=16)))
    norms = {}
    for clip in (None, 1e-3):
        model = _tiny_classifier(len(syllable_tokenizer), dropout=0.0)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.0)  # 한 걸음이 가중치를 바꾸지 않게: 기울기만 본다
        T.train_epoch(model, [batch], optimizer, clip=clip)
        grads = [p.grad for p in model.parameters() if p.grad is not None]
        norms[clip] = float(torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads])))
    assert norms[None] > 1e-3 and norms[1e-3] == pytest.approx(1e-3, rel=1e-3)


def test_train_classifier_calls_train_epoch_once_per_epoch(syllable_tokenizer, small_data, monkeypatch):
    """train_classifier는 6장이 보여 주는 바로 그 train_epoch을 에포크마다 한 번 부른다."""
    train, test = small_data
    calls = []
    real = T.train_epoch

    def spy(*args, **kwargs):
        calls.append(kwargs.get("clip"))
        return real(*args, **kwargs)

    monkeypatch.setattr(T, "train_epoch", spy)
    model = _tiny_classifier(len(syllable_tokenizer))
    result = T.train_classifier(model, T.make_loader(syllable_tokenizer, train, batch_size=16), epochs=2, lr=1e-3,
                                max_grad_norm=0.5, eval_loader=T.make_loader(syllable_tokenizer, test), verbose=False)
    assert calls == [0.5, 0.5]
    assert len(result.val_reports) == 2
    assert [r.accuracy for r in result.val_reports] == result.epochs["val_accuracy"].tolist()


def test_no_progress_bar_only_epoch_lines(syllable_tokenizer, small_data, capsys):
    train, _ = small_data
    model = _tiny_classifier(len(syllable_tokenizer))
    T.train_classifier(model, T.make_loader(syllable_tokenizer, train, batch_size=16), epochs=2, lr=1e-3)
    out = capsys.readouterr()
    assert out.out.splitlines() == [line for line in out.out.splitlines() if line.startswith("에포크 ")]
    assert len(out.out.splitlines()) == 2 and "it/s" not in out.out + out.err and "%|" not in out.out + out.err
    T.train_classifier(model, T.make_loader(syllable_tokenizer, train, batch_size=16), epochs=1, lr=1e-3, verbose=False)
    assert capsys.readouterr().out == ""


# -------------------- 맥니마 검정 -------------------------------------------


def test_mcnemar_counts_the_discordant_pairs():
    a = [1, 1, 1, 0, 0, 1, 0]
    b = [1, 0, 0, 1, 0, 1, 0]
    result = T.mcnemar(a, b)
    assert (result.a_only, result.b_only) == (2, 1)
    a_only, b_only, p = result  # 이름 없이 풀어도 된다
    assert (a_only, b_only) == (2, 1) and p == result.p_value
    swapped = T.mcnemar(b, a)
    assert (swapped.a_only, swapped.b_only) == (1, 2) and swapped.p_value == result.p_value


def test_mcnemar_p_value_is_the_exact_two_sided_binomial():
    # 한쪽만 맞힌 문장 12개가 10 : 2로 갈림. p = 2 · (C(12,0) + C(12,1) + C(12,2)) / 2^12 = 158 / 4096
    a = [True] * 10 + [False] * 2 + [True] * 30 + [False] * 5
    b = [False] * 10 + [True] * 2 + [True] * 30 + [False] * 5
    result = T.mcnemar(a, b)
    assert (result.a_only, result.b_only) == (10, 2)
    assert result.p_value == pytest.approx(158 / 4096, rel=1e-12)  # 한쪽 p(79/4096), 정규 근사(0.021), 연속성 보정(0.043)이면 실패
    from scipy.stats import binomtest

    assert result.p_value == pytest.approx(binomtest(2, 12, 0.5).pvalue, rel=1e-12)


def test_mcnemar_edge_cases():
    assert T.mcnemar([1, 0, 1], [1, 0, 1]).p_value == 1.0  # 한쪽만 맞힌 문장이 없다
    assert T.mcnemar([1, 0], [0, 1]).p_value == 1.0  # 1 : 1, 양쪽 p는 1을 넘지 않는다
    assert T.mcnemar([1] * 6, [0] * 6).p_value == pytest.approx(2 / 64)
    big = T.mcnemar(np.ones(1030, bool), np.zeros(1030, bool))  # 2^1030은 float로 바꾸면 넘친다(정수로 나누어야 함)
    assert big.a_only == 1030 and big.p_value == 2.0**-1029
    t = T.mcnemar(torch.tensor([1, 1, 0]), np.array([0, 1, 0]))
    assert (t.a_only, t.b_only) == (1, 0)


def test_mcnemar_errors_are_korean():
    with pytest.raises(ValueError, match="같은 문장들"):
        T.mcnemar([1, 0, 1], [1, 0])
    with pytest.raises(ValueError, match="하나도 없습니다"):
        T.mcnemar([], [])
    with pytest.raises(ValueError, match="맞았는지"):
        T.mcnemar([0.9, 0.2], [1, 0])  # 확률을 준 실수
    with pytest.raises(ValueError, match="맞았는지"):
        T.mcnemar([2, 0], [1, 0])
    with pytest.raises(ValueError, match="1차원"):
        T.mcnemar([[1, 0]], [[1, 0]])
    with pytest.raises(TypeError, match="True/False"):
        T.mcnemar(["맞음", "틀림"], [1, 0])
    with pytest.raises(TypeError, match="배열"):
        T.mcnemar("1010", "1010")


def test_sort_by_length_evaluates_faster_but_reports_in_the_original_order(syllable_tokenizer, small_data):
    _, test = small_data
    model = _tiny_classifier(len(syllable_tokenizer))
    plain = T.make_loader(syllable_tokenizer, test, batch_size=8)
    by_length = T.make_loader(syllable_tokenizer, test, batch_size=8, sort_by_length=True)
    batches = list(by_length)
    widths = [b["input_ids"].shape[1] for b in batches]
    assert widths == sorted(widths)  # 길이순으로 묶였다
    pads = [sum(int((b["attention_mask"] == 0).sum()) for b in x) for x in (batches, list(plain))]
    assert pads[0] < pads[1]
    a, b = T.evaluate(model, plain), T.evaluate(model, by_length)
    assert (a.labels == test["label"].to_numpy()).all() and (b.labels == a.labels).all()  # 원래 순서로 되돌렸다
    np.testing.assert_allclose(b.probabilities, a.probabilities, rtol=1e-4, atol=1e-5)
    assert (b.predictions == a.predictions).all()
    with pytest.raises(ValueError, match="평가용"):
        T.make_loader(syllable_tokenizer, test, shuffle=True, sort_by_length=True)
