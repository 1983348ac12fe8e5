"""bertlab.data: 번들 감성 데이터의 분할·균형·중복·누수, NSMC 읽기와 대체 규칙, 오류 메시지."""

from __future__ import annotations

import importlib.util
import re

import pandas as pd
import pytest

from bertlab import data as D


@pytest.fixture(scope="module")
def bundled():
    return D.load_sentiment("bundled", quiet=True)


def _squash(text: str) -> str:
    """공백·문장부호·초성 웃음/울음 표시를 지운 꼴: 끝말만 다른 거의 같은 문장을 잡는다."""
    return re.sub(r"[\s.,!?~…ㅋㅎㅠㅡ]+", "", text)


def test_structure(bundled):
    assert set(bundled) == {"train", "validation", "test"}
    for df in bundled.values():
        assert list(df.columns) == ["text", "label"]
        assert df["label"].dtype == "int64"
        assert set(df["label"]) == {0, 1}
        assert df["text"].map(lambda t: isinstance(t, str) and t == t.strip() and len(t) > 0).all()
        assert df["text"].str.contains(r"[가-힣]").all()


def test_size_balance_and_split_fractions(bundled):
    total = sum(len(df) for df in bundled.values())
    assert total >= 1000
    everything = pd.concat(bundled.values())
    assert (everything["label"] == 1).sum() == (everything["label"] == 0).sum()
    for name, expected in [("train", 0.70), ("validation", 0.15), ("test", 0.15)]:
        assert abs(len(bundled[name]) / total - expected) < 0.02, name
        assert abs(bundled[name]["label"].mean() - 0.5) < 0.03, name


def test_no_duplicates_and_no_leak(bundled):
    everything = pd.concat(bundled.values())
    assert everything["text"].is_unique
    seen = {}
    for name, df in bundled.items():
        squashed = set(df["text"].map(_squash))
        for other, items in seen.items():
            assert not squashed & items, f"{name}와 {other}에 거의 같은 문장이 있습니다: {sorted(squashed & items)[:3]}"
        seen[name] = squashed


@pytest.fixture(scope="module")
def build():
    """bertlab/assets/sentiment/build.py를 모듈로 읽는다(데이터를 다시 만드는 스크립트)."""
    spec = importlib.util.spec_from_file_location("sentiment_build", D.SENTIMENT_DIR / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def made(build):
    return build.build()


def test_files_are_what_build_script_makes(build, made):
    """build.py가 세 분할 파일과 데이터 카드의 개수 표를 바이트 단위로 똑같이 다시 만든다."""
    for name, rows in made.items():
        shipped = (D.SENTIMENT_DIR / f"{name}.tsv").read_bytes()
        assert build.render_tsv(rows).encode("utf-8") == shipped, f"{name}.tsv가 build.py의 결과와 다릅니다"
    card = (D.SENTIMENT_DIR / "DATA_CARD.md").read_text(encoding="utf-8")
    assert build.render_card(made, card) == card, "DATA_CARD.md의 개수 표가 build.py의 결과와 다릅니다"


def test_build_script_stays_small(build):
    assert len((D.SENTIMENT_DIR / "build.py").read_text(encoding="utf-8").splitlines()) <= 450


def test_metadata_columns(bundled):
    meta = D.load_bundled(with_meta=True)
    for name, df in meta.items():
        assert list(df.columns) == ["text", "label", "domain", "source", "register", "phenomenon", "group"]
        assert df["text"].tolist() == bundled[name]["text"].tolist()
        assert set(df["domain"]) == {"movie", "product", "food", "app", "place"}
        assert set(df["register"]) == {"formal", "polite", "plain", "noun", "net"}
        assert set(df["phenomenon"]) == {
            "plain", "negation", "double_negation", "contrast", "aspect_flip", "sarcasm", "faint", "mixed"}
        assert set(df["source"]) <= {"hand", "template"}


def test_mostly_hand_written_and_balanced_per_domain():
    everything = pd.concat(D.load_bundled(with_meta=True).values())
    assert (everything["source"] == "hand").mean() >= 0.8
    per_domain = everything.groupby(["domain", "label"]).size().unstack()
    assert (per_domain[0] == per_domain[1]).all(), per_domain  # 분야마다 긍정과 부정이 같은 수


def test_groups_and_near_duplicates_stay_in_one_split(build):
    meta = D.load_bundled(with_meta=True)
    homes = {}
    for name, df in meta.items():
        for group in df["group"]:
            homes.setdefault(group, set()).add(name)
    assert all(len(s) == 1 for s in homes.values())
    rows = [(name, t) for name, df in meta.items() for t in df["text"]]
    for i, j in build.near_pairs([t for _, t in rows]):
        assert rows[i][0] == rows[j][0], f"거의 같은 문장이 두 분할에 있습니다: {rows[i]} / {rows[j]}"


def test_nfc_and_no_squashed_duplicates(build):
    import unicodedata

    texts = pd.concat(D.load_bundled().values())["text"]
    assert (texts == texts.map(lambda t: unicodedata.normalize("NFC", t))).all()
    assert texts.map(build.squash).is_unique


def test_squash_and_near_pairs(build):
    assert build.squash("재미없어요 ㅋㅋ!!") == build.squash("재미 없어요.") == "재미없어요"
    assert build.squash("ㄹㅇ 꿀잼 ㅠㅠ") == "꿀잼"
    texts = ["배송이 너무 늦어요.", "배송이 늦엇어요", "음식이 정말 맛있어요", "노잼 ㅡㅡ", "개노잼"]
    assert build.near_pairs(texts) == [(0, 1), (3, 4)]
    assert build.near_pairs(["좋아요", "싫어요"]) == []


def test_data_card_counts_match(bundled):
    card = (D.SENTIMENT_DIR / "DATA_CARD.md").read_text(encoding="utf-8")
    for name, df in bundled.items():
        assert f"| {name} | {len(df):,} |" in card, name
    assert "CC BY 4.0" in card


def test_bad_names():
    with pytest.raises(ValueError, match="알 수 없는 데이터 이름"):
        D.load_sentiment("naver")
    with pytest.raises(TypeError, match="문자열"):
        D.load_sentiment(3)


def test_missing_files_say_how_to_rebuild(monkeypatch, tmp_path):
    monkeypatch.setattr(D, "SENTIMENT_DIR", tmp_path)
    with pytest.raises(FileNotFoundError, match="build.py"):
        D.load_sentiment("bundled", quiet=True)


def test_nsmc_falls_back_with_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("BERTLAB_CACHE", str(tmp_path))  # 캐시 없음
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # 네트워크를 묻지 않는다
    got = D.load_sentiment("nsmc")
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1 and "번들 감성 데이터" in lines[0] and "NSMC" in lines[0]
    assert set(got) == {"train", "validation", "test"}
    assert list(got["test"].columns) == ["text", "label"]


def test_auto_is_bundled_without_gpu(monkeypatch):
    import torch

    monkeypatch.delenv("BERTLAB_DATA", raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert D.decide_dataset("auto")[0] == "bundled"
    monkeypatch.setenv("BERTLAB_DATA", "bundled")
    name, reason = D.decide_dataset("auto")
    assert name == "bundled" and "BERTLAB_DATA" in reason


def _fake_nsmc(root):
    folder = root / "nsmc"
    folder.mkdir(parents=True)
    train = "id\tdocument\tlabel\n" + "".join(f"{i}\t리뷰 {i} 좋아요\t{i % 2}\n" for i in range(20)) + "99\t\t1\n"
    test = "id\tdocument\tlabel\n1\t재밌다\t1\n2\t  별로  \t0\n3\t\t0\n"
    (folder / "ratings_train.txt").write_text(train, encoding="utf-8")
    (folder / "ratings_test.txt").write_text(test, encoding="utf-8")


def test_nsmc_from_cache_has_same_structure(monkeypatch, tmp_path):
    monkeypatch.setenv("BERTLAB_CACHE", str(tmp_path))
    _fake_nsmc(tmp_path)
    assert D.decide_dataset("nsmc")[0] == "nsmc"
    got = D.load_nsmc(validation_size=5)
    assert [len(got[s]) for s in D.SPLITS] == [15, 5, 2]  # 빈 리뷰는 버린다
    for df in got.values():
        assert list(df.columns) == ["text", "label"] and df["label"].dtype == "int64"
    assert got["test"]["text"].tolist() == ["재밌다", "별로"]
    assert not set(got["train"]["text"]) & set(got["validation"]["text"])
