"""일상 held-out 빈칸 세트(이슈 25): 일상 말뭉치 v3의 held-out 문서(사전학습에 쓰지 않음)에서 문장마다 내용 어절 하나를 가린 자동 세트.

    python -m bertlab.minibert.heldout build [--n 600]     # text/everyday_v3_heldout.tsv 를 다시 만든다
    python -m bertlab.minibert.heldout score [--model DIR]  # bl.fill_word 상위 5개 안에 가린 어절이 그대로 있는 문장의 몫

만드는 규칙(학습 전에 정함): held-out 문서(`everyday.is_heldout`)의 문장 가운데 어절이 4개 이상이고 한글이 든 문장에서,
형태소 분석기 Kiwi로 첫 형태소가 내용어(일반·고유 명사, 동사, 형용사, 어근, 일반 부사)인 어절을 고르고, 그 가운데 하나를
문장마다 정해진 난수(문장의 SHA-1)로 골라 `[MASK]`로 바꿉니다. 어절 끝의 문장 부호는 남깁니다('먹었다.' → '[MASK].').
후보 문장이 `--n`(기본 600)개보다 많으면 문장의 SHA-1 순서로 n개를 골라(앞쪽 주제에 몰리지 않게) 파일 순서로 적습니다.
답은 가린 어절 그대로이고, 채점은 `fill_word`가 낸 상위 5개 가운데 답과 글자가 똑같은 어절이 있는지입니다.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import re
import sys
from pathlib import Path

from . import everyday as ev

SET_FILE = ev.V3_DIR.parent / "everyday_v3_heldout.tsv"
COLUMNS = ["id", "sentence", "answer", "genre", "register", "topic"]
CONTENT_TAGS = ("NNG", "NNP", "VV", "VA", "XR", "MAG")
_PUNCT_TAIL = re.compile(r"^(.*?[가-힣A-Za-z0-9])([.,!?~…'\")]*)$")


def _rng(text: str) -> random.Random:
    return random.Random(int(hashlib.sha1(text.encode("utf-8")).hexdigest()[:12], 16))


def heldout_sentences() -> list[dict]:
    out = []
    for path in ev.files():
        topic = ev.topic_of(path)["id"]
        docs, _ = ev.parse(ev.read_text(path))
        for d in docs:
            if not ev.is_heldout(d.lines):
                continue
            for line in d.lines:
                body = line.split(": ", 1)[1] if d.genre == "chat" and ": " in line[:12] else line
                if len(body.split()) >= 4 and re.search(r"[가-힣]", body):
                    out.append({"text": body, "genre": d.genre, "register": d.register, "topic": topic})
    return out


def mask_one(text: str, kiwi) -> tuple[str, str] | None:
    """(가린 문장, 답 어절) 또는 고를 내용 어절이 없으면 None."""
    words = text.split()
    choices = []
    for i, w in enumerate(words):
        m = _PUNCT_TAIL.match(w)
        if not m or not re.search(r"[가-힣]", m.group(1)) or "[" in w:
            continue
        tokens = kiwi.tokenize(m.group(1))
        if tokens and tokens[0].tag.startswith(CONTENT_TAGS):
            choices.append((i, m.group(1), m.group(2)))
    if not choices:
        return None
    i, core, tail = _rng(text).choice(choices)
    masked = " ".join(words[:i] + ["[MASK]" + tail] + words[i + 1:])
    return masked, core


def build(n: int = 600, path: Path = SET_FILE) -> int:
    from kiwipiepy import Kiwi

    kiwi = Kiwi()
    rows = []
    for s in heldout_sentences():
        made = mask_one(s["text"], kiwi)
        if made:
            rows.append({**s, "sentence": made[0], "answer": made[1]})
    if len(rows) > n:  # 앞쪽 주제에 몰리지 않게, 문장의 SHA-1 순서로 n개를 고른 뒤 파일 순서로 되돌린다
        keep = set(sorted(range(len(rows)), key=lambda i: hashlib.sha1(rows[i]["sentence"].encode("utf-8")).hexdigest())[:n])
        rows = [r for i, r in enumerate(rows) if i in keep]
    lines = ["\t".join(COLUMNS)]
    lines += ["\t".join([f"h{i:04d}", r["sentence"], r["answer"], r["genre"], r["register"], r["topic"]]) for i, r in enumerate(rows)]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(rows)


def read_set(path: Path = SET_FILE) -> list[dict]:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    if lines[0].split("\t") != COLUMNS:
        raise ValueError(f"{Path(path).name}: 첫 줄은 {COLUMNS}이어야 합니다.")
    return [dict(zip(COLUMNS, line.split("\t"))) for line in lines[1:] if line.strip()]


def score(model, tokenizer, rows: list[dict], k: int = 5) -> dict:
    """상위 k개 정확도(가린 어절과 글자가 똑같은 후보가 있는 문장의 몫)와 상위 1개 정확도: `acceptance.score_words`."""
    from .acceptance import score_words

    return score_words(model, tokenizer, [{"sentence": r["sentence"], "answers": [r["answer"]]} for r in rows], k=k)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bertlab.minibert.heldout")
    p.add_argument("command", choices=["build", "score"])
    p.add_argument("--n", type=int, default=600)
    p.add_argument("--model", default="mini")
    a = p.parse_args(argv)
    if a.command == "build":
        print(f"{SET_FILE}: 문장 {build(a.n)}개")
        return 0
    from ..models import load_mlm

    tokenizer, model = load_mlm(a.model, quiet=True)
    r = score(model, tokenizer, read_set())
    print(f"일상 held-out 빈칸 {r['rows']}문장: 상위 1개 {100 * r['top1']:.1f}%, 상위 {r['k']}개 {100 * r['topk']:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
