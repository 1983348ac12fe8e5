"""일상 말뭉치 v3: 이 프로젝트가 직접 쓴 일상 한국어 글(주제 × 장르 × 문체).

파일 하나가 주제 하나입니다(`text/everyday_v3/tNNN.txt.xz`, 주제 목록은 `topics.json`). 파일 안의 글은 문서 단위이고,
문서는 머리줄 ``@ 장르 문체`` 한 줄과 그 아래 한 줄에 한 문장(대화는 한 줄에 한 발화)으로 되어 있으며, 문서 사이에는 빈 줄을 둡니다::

    @ diary haera
    알람이 세 번이나 울렸는데 겨우 일어났다.
    부엌에 나가 보니 엄마가 벌써 계란말이를 부치고 계셨다.
    ...

    @ chat banmal
    민지: 너 오늘 몇 시에 끝나?
    ...

`check`는 쓰는 사람이 파일 하나를 고칠 때마다 돌리는 검사이고(꼴, 장르·문체 고르기, 되풀이), 같은 규칙을 말뭉치 전체에
`tests/test_everyday_v3.py`가 적용합니다. 명령: ``python -m bertlab.minibert.everyday check FILE...``, ``... stats``.
"""

from __future__ import annotations

import json
import lzma
import re
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

V3_DIR = Path(__file__).resolve().parent / "text" / "everyday_v3"
TOPICS = json.loads((V3_DIR / "topics.json").read_text(encoding="utf-8"))
GENRES: dict[str, str] = TOPICS["genres"]
REGISTERS: dict[str, str] = TOPICS["registers"]

SPAN = 8  # 되풀이를 재는 어절 수
MAX_LINE = 220
# 허용하는 글자: 한글 음절과 자모, 인쇄 가능한 ASCII, 자주 쓰는 문장부호. 이모지와 한자는 어휘에 없어 [UNK]가 되므로 쓰지 않는다.
_ALLOWED = re.compile(r"[가-힣ㄱ-ㅎㅏ-ㅣ\x20-\x7e·…‘’“”~℃%〜「」『』]")
_HANGUL = re.compile(r"[가-힣]")
_BAD = re.compile(r"https?://|www\.|@\S+\.\w|\.(com|net|kr)\b")


@dataclass
class Doc:
    genre: str
    register: str
    lines: list[str]
    line_no: int  # 머리줄의 줄 번호(1부터)


def read_text(path: Path) -> str:
    path = Path(path)
    if path.suffix == ".xz":
        return lzma.decompress(path.read_bytes()).decode("utf-8")
    return path.read_text(encoding="utf-8")


def parse(text: str) -> tuple[list[Doc], list[str]]:
    """글을 문서 목록으로 읽고, 꼴이 틀린 곳을 문제 목록으로 함께 돌려줍니다."""
    docs: list[Doc] = []
    problems: list[str] = []
    cur: Doc | None = None
    for no, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if raw != line and line:
            problems.append(f"{no}행: 줄 앞뒤에 공백이 있습니다")
        if not line:
            cur = None
            continue
        if line.startswith("@"):
            parts = line[1:].split()
            if len(parts) != 2 or parts[0] not in GENRES or parts[1] not in REGISTERS:
                problems.append(f"{no}행: 머리줄은 '@ 장르 문체'여야 합니다 (장르 {sorted(GENRES)}, 문체 {sorted(REGISTERS)}): {line!r}")
                parts = ["?", "?"]
            if cur is not None:
                problems.append(f"{no}행: 머리줄 앞에 빈 줄이 없습니다")
            cur = Doc(parts[0], parts[1], [], no)
            docs.append(cur)
            continue
        if cur is None:
            problems.append(f"{no}행: 머리줄(@ 장르 문체) 없이 시작한 문서입니다")
            cur = Doc("?", "?", [], no)
            docs.append(cur)
        cur.lines.append(line)
    return docs, problems


def eojeol_spans(line: str, n: int = SPAN):
    words = line.split()
    for i in range(len(words) - n + 1):
        yield " ".join(words[i : i + n])


def line_problems(line: str) -> list[str]:
    out = []
    if len(line) > MAX_LINE:
        out.append(f"줄이 너무 깁니다({len(line)}자 > {MAX_LINE}자): 문장을 나누세요")
    bad = sorted({ch for ch in line if not _ALLOWED.fullmatch(ch)})
    if bad:
        out.append(f"쓰지 않는 글자(이모지·한자 등): {''.join(bad)!r}")
    if _BAD.search(line):
        out.append("주소(URL, 이메일)는 쓰지 않습니다")
    if len(_HANGUL.findall(line)) < 0.5 * len(line.replace(" ", "")):
        out.append("한글이 절반이 안 됩니다")
    return out


def check_text(text: str, name: str = "") -> tuple[list[str], dict]:
    """파일 하나의 문제 목록과 통계. 문제가 없으면 빈 목록."""
    problems = []
    if not unicodedata.is_normalized("NFC", text):
        problems.append("NFC가 아닙니다")
    if "\r" in text or "\t" in text:
        problems.append("\\r이나 탭이 있습니다")
    docs, form = parse(text)
    problems += form
    seen: dict[str, int] = {}
    spans: Counter = Counter()
    for d in docs:
        if not 3 <= len(d.lines) <= 30:
            problems.append(f"{d.line_no}행 문서: 문장이 {len(d.lines)}개입니다(3~30개)")
        for k, line in enumerate(d.lines, d.line_no + 1):
            for p in line_problems(line):
                problems.append(f"{k}행: {p}")
            if line in seen and len(line) >= 8:
                problems.append(f"{k}행: {seen[line]}행과 같은 문장입니다: {line!r}")
            seen.setdefault(line, k)
            spans.update(set(eojeol_spans(line)))
    repeated = {s: c for s, c in spans.items() if c > 1}
    for s, c in list(repeated.items())[:5]:
        problems.append(f"같은 {SPAN}어절이 {c}번 나옵니다: {s!r}")
    chars = sum(len(l) for d in docs for l in d.lines)
    stats = {
        "file": name,
        "documents": len(docs),
        "sentences": sum(len(d.lines) for d in docs),
        "characters": chars,
        "genres": dict(Counter(d.genre for d in docs)),
        "registers": dict(Counter(d.register for d in docs)),
    }
    return problems, stats


def files(directory: Path = V3_DIR) -> list[Path]:
    return sorted(Path(directory).glob("t[0-9][0-9][0-9].txt*"))


def topic_of(path: Path) -> dict:
    tid = Path(path).name.split(".")[0]
    return next(t for t in TOPICS["topics"] if t["id"] == tid)


def read_documents(path: Path) -> list[list[str]]:
    """사전학습이 읽는 꼴: 문서 = 문장 목록(머리줄은 뺌)."""
    docs, _ = parse(read_text(path))
    return [d.lines for d in docs]


def _main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"check", "stats"} or (argv[0] == "check" and len(argv) < 2):
        print("쓰는 법: python -m bertlab.minibert.everyday check FILE... | stats [DIR]", file=sys.stderr)
        return 2
    if argv[0] == "check":
        bad = 0
        for name in argv[1:]:
            problems, stats = check_text(read_text(Path(name)), name)
            target = "" if stats["characters"] >= 18000 else f" (목표 18,000자까지 {18000 - stats['characters']:,}자 남음)"
            print(f"{name}: 문서 {stats['documents']} · 문장 {stats['sentences']} · {stats['characters']:,}자{target}")
            print(f"  장르 {stats['genres']}\n  문체 {stats['registers']}")
            missing = sorted(set(GENRES) - set(stats["genres"]))
            if missing:
                print(f"  아직 없는 장르: {missing}")
            for p in problems[:40]:
                print("  문제:", p)
            bad += bool(problems)
        return 1 if bad else 0
    total = Counter()
    for path in files(Path(argv[1]) if len(argv) > 1 else V3_DIR):
        _, s = check_text(read_text(path), path.name)
        total.update({"files": 1, "documents": s["documents"], "sentences": s["sentences"], "characters": s["characters"]})
    print(dict(total))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
