"""손으로 쓴 재료를 자연스러운 한국어 문단으로 불려 주는 작은 생성기.

미니 BERT의 사전학습 말뭉치(`bertlab/assets/text/everyday_ko.txt`)를 보태는 데 씁니다. 재료(슬롯 목록과 문단 틀)는
`bertlab/assets/text/templates_ko.json`에 있습니다. 글쓴이는 그 파일만 고치면 되고, 이 모듈은 채우는 규칙만 갖습니다.
파일의 꼴: ``common``(모든 틀이 쓰는 슬롯), ``slot_sets``(주제별 슬롯 묶음), ``templates``(틀마다 ``topic``,
쓸 슬롯 묶음 이름 ``slots``, 문장 목록 ``sentences``).

문단 틀(3~5문장) 안의 빈칸 `{이름}`을 슬롯 목록에서 골라 채우고, 빈칸 뒤의 조사는
받침에 맞춰 고릅니다(`josa`). 동음이의어 배·눈·말·밤·차·다리는 뜻마다 따로 문맥을 둬서
모델이 주변 말로 뜻을 가르는 법을 배우게 합니다(평가용 `senses_ko.tsv`의 eval 문장과는 다른 문맥).

틀의 작은 문법:

- `{친구}`: 슬롯 값. 한 문서 안에서는 같은 슬롯이 늘 같은 값입니다.
- `{친구:과/와}`: 값 뒤에 받침에 맞는 조사(→ 친구와, 동생과).
- `{r.food}`: 묶음 슬롯 `r`에서 고른 항목의 `food` 칸. 칸이 목록이면 `#1`, `#2`로 서로 다른 값을.
- `[가|나|다]`: 셋 중 하나.
- 맨 앞의 `?`: 절반쯤은 빠지는 문장.

    >>> docs = generate(3, seed=0)
    >>> all(3 <= len(d) <= 5 for d in docs)
    True
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from ..data import TEXT_DIR
from ..course.korean import josa

__all__ = ["generate", "load_templates", "TEMPLATES", "TEMPLATES_FILE"]

TEMPLATES_FILE = TEXT_DIR / "templates_ko.json"


def load_templates(path: Path = TEMPLATES_FILE) -> tuple[dict, list[tuple[str, dict, list[str]]]]:
    """틀 파일을 읽어 (공통 슬롯, [(주제, 슬롯 묶음, 문장 목록), ...])을 돌려줍니다."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    sets = data["slot_sets"]
    unknown = sorted({t["slots"] for t in data["templates"]} - set(sets))
    if unknown:
        raise ValueError(f"{Path(path).name}: slot_sets에 없는 슬롯 묶음 이름: {unknown}")
    return data["common"], [(t["topic"], sets[t["slots"]], t["sentences"]) for t in data["templates"]]


COMMON, TEMPLATES = load_templates()


# --------------------------------------------------------------------------- 채우기

_ALT = re.compile(r"\[([^\[\]]*)\]")
_SLOT = re.compile(r"\{([^{}.#:]+)(?:\.([^{}#:]+))?(?:#(\d))?(?::([^{}]+))?\}")
_LITERAL_JOSA = {"도", "에", "에도", "에서", "까지", "까지는", "만", "부터", "의"}


def _choose_alternatives(text: str, rng: random.Random) -> str:
    while True:
        m = _ALT.search(text)
        if not m:
            return text
        text = text[: m.start()] + rng.choice(m.group(1).split("|")) + text[m.end():]


class _Doc:
    """한 문서 안에서 고른 값을 기억합니다(같은 슬롯은 같은 값, #1·#2는 서로 다른 값)."""

    def __init__(self, slots: dict, rng: random.Random):
        self.slots, self.rng = {**COMMON, **slots}, rng
        self.frames: dict[str, object] = {}
        self.orders: dict[tuple, list] = {}

    def value(self, name: str, field: str | None, idx: str | None) -> str:
        pool = self.slots[name]
        if field is None:
            items = pool
            key = (name,)
        else:
            if name not in self.frames:
                self.frames[name] = self.rng.choice(pool)
            items = self.frames[name][field]
            key = (name, field)
        if isinstance(items, str):
            return items
        if key not in self.orders:
            self.orders[key] = self.rng.sample(items, len(items))
        order = self.orders[key]
        return order[(int(idx or 1) - 1) % len(order)]

    def fill(self, text: str, depth: int = 0) -> str:
        text = _choose_alternatives(text, self.rng)

        def sub(m: re.Match) -> str:
            name, field, idx, particle = m.groups()
            val = self.fill(self.value(name, field, idx), depth + 1) if depth < 3 else self.value(name, field, idx)
            if particle is None:
                return val
            if particle in _LITERAL_JOSA:
                return val + particle
            return josa(val, particle)

        return _SLOT.sub(sub, text)


def _render(slots: dict, sentences: list[str], rng: random.Random) -> list[str]:
    doc = _Doc(slots, rng)
    optional = [i for i, s in enumerate(sentences) if s.startswith("?")]
    keep = {i for i in optional if rng.random() < 0.5}
    required = len(sentences) - len(optional)
    while required + len(keep) < 3 and len(keep) < len(optional):  # 문서는 적어도 세 문장
        keep.add(next(i for i in optional if i not in keep))
    out = []
    for i, s in enumerate(sentences):
        if s.startswith("?"):
            if i not in keep:
                continue
            s = s[1:]
        s = " ".join(doc.fill(s).split())
        if s:
            out.append(s)
    return out


def generate(n_docs: int, seed: int = 0) -> list[list[str]]:
    """문서 `n_docs`개(문서 = 문장 목록)를 만듭니다. 같은 `seed`면 늘 같은 결과.

    일상 주제와 다의어 틀을 골고루 섞되, 같은 문서가 되풀이되지 않도록 몇 번 다시 뽑습니다.
    """
    rng = random.Random(seed)
    topics = sorted({name for name, _, _ in TEMPLATES})  # 주제를 먼저 고르면 틀 수와 상관없이 고르게 섞인다
    docs: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()
    while len(docs) < n_docs:
        for _ in range(20):
            topic = rng.choice(topics)
            _, slots, sentences = rng.choice([t for t in TEMPLATES if t[0] == topic])
            doc = _render(slots, sentences, rng)
            if tuple(doc) not in seen:
                break
        seen.add(tuple(doc))
        docs.append(doc)
    return docs


if __name__ == "__main__":  # python -m bertlab.minibert.templates 5
    import sys

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    for d in generate(n, seed=int(sys.argv[2]) if len(sys.argv) > 2 else 0):
        print("\n".join(d), end="\n\n")
