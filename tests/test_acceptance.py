"""fill-mask 수용 세트(issue 20): 파일의 꼴, 다른 평가·학습 글과 겹치지 않음, 채점 규칙, 명령줄 실행."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

import bertlab as bl
from bertlab.minibert import acceptance

ROOT = Path(__file__).resolve().parents[1]
TEXT = ROOT / "bertlab" / "assets" / "text"
SPAN = 12  # 이만큼 이어진 글자가 다른 글과 같으면 겹친 것으로 본다


@pytest.fixture(scope="module")
def rows():
    return acceptance.read_acceptance()


def test_file_is_well_formed(rows):
    raw = acceptance.ACCEPTANCE_FILE.read_text(encoding="utf-8")
    assert raw == unicodedata.normalize("NFC", raw)
    assert raw.splitlines()[0] == "\t".join(acceptance.COLUMNS)
    assert len(rows) >= 80
    assert len({r["id"] for r in rows}) == len(rows)
    assert len({r["topic"] for r in rows}) >= 12
    for r in rows:
        s = r["sentence"]
        assert s.count("[MASK]") == 1, r["id"]
        # 어절을 통째로 가린다: [MASK] 바로 앞뒤에 글자(조사 등)가 붙지 않는다
        assert re.search(r"(^|\s)\[MASK\]($|[\s.,!?])", s), r["id"]
        assert r["answers"] and all(a.strip() == a and a for a in r["answers"]), r["id"]
        assert all(" " not in a and "[" not in a for a in r["answers"]), r["id"]  # 답은 어절 하나
        assert len(set(r["answers"])) == len(r["answers"]), r["id"]


def _other_texts() -> dict[str, list[str]]:
    """겹치면 안 되는 글: 학습 글(일상 문단, issue 20의 일상 말뭉치, 다의어 문단, 템플릿)과
    다른 평가 문장(다의어, 감정, 모델 카드). 새 학습 글을 더하면 여기에도 넣습니다."""
    from bertlab.minibert import corpus, templates

    def strings(o):
        if isinstance(o, str):
            yield o
        elif isinstance(o, dict):
            for v in o.values():
                yield from strings(v)
        elif isinstance(o, list):
            for v in o:
                yield from strings(v)

    sentiment = [line.split("\t")[0] for p in sorted((ROOT / "bertlab" / "assets" / "sentiment").rglob("*.tsv"))
                 for line in p.read_text(encoding="utf-8").splitlines()[1:]]
    template_strings = strings(json.loads((TEXT / "templates_ko.json").read_text(encoding="utf-8")))
    metrics = json.loads((bl.MINI_DIR / "metrics.json").read_text(encoding="utf-8"))
    return {
        "everyday_ko.txt": (TEXT / "everyday_ko.txt").read_text(encoding="utf-8").splitlines(),
        "everyday_v2": [line for p in corpus.everyday_v2_files() for line in p.read_text(encoding="utf-8").splitlines()],
        "senses_paragraphs_ko.txt": (TEXT / "senses_paragraphs_ko.txt").read_text(encoding="utf-8").splitlines(),
        "senses_ko.tsv": [r["sentence"] for r in bl.data.read_senses()],
        "sentiment": sentiment,
        # 틀의 글자 그대로(빈칸·고르기 표시에서 자름)와, 번들 모델의 학습에 쓴 생성 문단(2,000개, 시드 0)
        "templates_ko.json": [f for s in template_strings for f in re.split(r"\{[^{}]*\}|[\[\]|?]", s)],
        "templates generate": [s for d in templates.generate(2000, seed=0) for s in d],
        "metrics.json fill_mask": [s.replace("[MASK]", "\n") for s in metrics["fill_mask"]],
    }


def test_no_overlap_with_training_or_other_evaluation_text(rows):
    spans = {}
    for name, lines in _other_texts().items():
        for line in lines:
            for i in range(len(line) - SPAN + 1):
                spans.setdefault(line[i:i + SPAN], name)
    problems = []
    for r in rows:
        # 빈칸을 답마다 채운 문장 전체(그리고 빈칸 앞뒤의 글)가 어떤 글과도 12자 이상 겹치지 않아야 한다
        for text in [r["sentence"].replace("[MASK]", a) for a in r["answers"]]:
            hits = {spans[text[i:i + SPAN]] for i in range(len(text) - SPAN + 1) if text[i:i + SPAN] in spans}
            if hits:
                problems.append(f"{r['id']} {text!r}: {sorted(hits)}")
    assert not problems, "\n".join(problems[:20])


def test_whole_word_mask_is_one_token(rows, mini_tokenizer):
    """어절을 통째로 가리므로 [MASK] 뒤 토큰은 이어붙임 조각(##)이 아니라 다음 어절(또는 문장 부호)의 첫 토큰이다."""
    for r in rows:
        toks = mini_tokenizer.tokenize(r["sentence"])
        i = toks.index("[MASK]")
        after = toks[i + 1] if i + 1 < len(toks) else ""
        assert not after.startswith("##"), (r["id"], toks)
    # 조사를 남기면 '를'이 단어 첫머리 토큰이 된다(모듈 설명의 까닭)
    assert mini_tokenizer.tokenize("[MASK]를 먹었다")[:2] == ["[MASK]", "를"]


class _FakeTokenizer:
    mask_token = "[MASK]"
    all_special_tokens = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    pieces = {"국밥을": ["국밥", "##을"], "추웠다": ["추", "##웠다"], "학교에서": ["학교", "##에서"], "라면을": ["라", "##면을"]}

    def tokenize(self, word):
        return self.pieces.get(word, [word])

    def get_vocab(self):
        return {t: i for i, t in enumerate(["국밥", "추", "학교", "라", "버스를", *self.all_special_tokens])}


def test_first_piece_rule():
    tok = _FakeTokenizer()
    ok = acceptance.accepted_tokens(tok, ["국밥을", "추웠다", "학교에서", "라면을", "버스를"])
    assert {"국밥", "학교", "버스를", "국밥을"} <= ok  # 낱말 + 조사, 통째인 어절
    assert "추" not in ok and "라" not in ok  # 뒤에 남는 것이 조사가 아니면 첫 조각을 받지 않는다
    assert acceptance.reachable(tok, ["국밥을"]) and not acceptance.reachable(tok, ["추웠다"])


def _fake_fill_mask(answer_of):
    def fill_mask(model, tokenizer, text, k=5):
        return [[(answer_of(text), 0.5)] + [("[PAD]", 0.1)] * (k - 1)]
    return fill_mask


def test_evaluator_on_fake_models(rows, mini_tokenizer, monkeypatch):
    first_answer = {r["sentence"]: r["answers"][0] for r in rows}
    monkeypatch.setattr(bl.models, "fill_mask", _fake_fill_mask(first_answer.__getitem__))
    right = acceptance.evaluate_acceptance(object(), mini_tokenizer, rows)
    assert right["top1"] == right["topk"] == 1.0 and right["rows"] == len(rows)
    assert all(t["top1"] == 1.0 for t in right["by_topic"].values())
    monkeypatch.setattr(bl.models, "fill_mask", _fake_fill_mask(lambda text: "[PAD]"))
    wrong = acceptance.evaluate_acceptance(object(), mini_tokenizer, rows)
    assert wrong["top1"] == wrong["topk"] == 0.0
    monkeypatch.setattr(bl.models, "fill_mask", _fake_fill_mask(lambda text: "##을"))  # 이어붙임 조각은 늘 틀림
    assert acceptance.evaluate_acceptance(object(), mini_tokenizer, rows)["topk"] == 0.0


def test_command_line_runs(mini_tokenizer):
    out = subprocess.run([sys.executable, "-m", "bertlab.minibert.acceptance", "--examples", "2"],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "상위 5개" in out.stdout and "| **전체** |" in out.stdout
