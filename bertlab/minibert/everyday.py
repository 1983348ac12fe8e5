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
`tests/test_everyday_v3.py`가 적용합니다. `pack`은 다 쓴 주제 파일을 저장소에 싣습니다: 평가 글과 12자 이상 겹치는 문장과
앞 파일에 이미 있는 문장(10자 이상)을 빼고, xz로 줄여 `text/everyday_v3/tNNN.txt.xz`에 쓰고, 데이터 카드(`DATA_CARD.md`)를
다시 만듭니다. 문서 단위로 3%는 사전학습에 쓰지 않는 held-out입니다(`is_heldout`, 문서 글의 SHA-1로 정함).

명령: ``python -m bertlab.minibert.everyday check FILE...``, ``... pack SRC_DIR``, ``... stats``.
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


# --------------------------------------------------------------------------- 평가 글과 겹치지 않게, 싣기

SPAN_CHARS = 12  # 평가 글과 이만큼(공백 빼고) 이어진 글자가 같으면 겹친 것으로 본다
HELDOUT_PERCENT = 3


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def evaluation_texts() -> dict[str, list[str]]:
    """말뭉치에 들어가면 안 되는 평가 글: 동음이의어 평가 문장, 감성 데이터의 검증·테스트 세트, 빈칸 채우기 평가 세트와 모델 카드의
    빈칸 문장(`[MASK]` 앞뒤 글을 따로)."""
    import csv

    from .. import data
    from ..models import MINI_DIR

    out: dict[str, list[str]] = {"senses": [r["sentence"] for r in data.read_senses() if r["split"] != "train"]}
    out["sentiment"] = []
    for split in ("validation", "test"):
        with open(data.SENTIMENT_DIR / f"{split}.tsv", encoding="utf-8", newline="") as f:
            out["sentiment"] += [r["text"] for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)]
    masked = []
    with open(data.TEXT_DIR / "fillmask_acceptance_ko.tsv", encoding="utf-8", newline="") as f:
        masked += [r["sentence"] for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)]
    masked += list(json.loads((MINI_DIR / "metrics.json").read_text(encoding="utf-8")).get("fill_mask", []))
    out["fill_mask"] = [part for s in masked for part in s.split("[MASK]")]
    return out


def evaluation_spans(n: int = SPAN_CHARS) -> set[str]:
    spans = set()
    for texts in evaluation_texts().values():
        for t in texts:
            t = _squeeze(t)
            spans |= {t[i : i + n] for i in range(len(t) - n + 1)}
    return spans


def overlaps(line: str, spans: set[str], n: int = SPAN_CHARS) -> bool:
    t = _squeeze(line)
    return any(t[i : i + n] in spans for i in range(len(t) - n + 1))


def is_heldout(doc_lines: list[str]) -> bool:
    """문서 단위 held-out(약 3%): 문서 글의 SHA-1로 정하므로 말뭉치가 자라도 바뀌지 않습니다."""
    import hashlib

    digest = hashlib.sha1("\n".join(doc_lines).encode("utf-8")).hexdigest()
    return int(digest[:8], 16) % 100 < HELDOUT_PERCENT


def render(docs: list[Doc]) -> str:
    return "\n\n".join(f"@ {d.genre} {d.register}\n" + "\n".join(d.lines) for d in docs) + "\n"


def pack(src_dir: Path, dst_dir: Path = V3_DIR, min_chars: int = 18000, log=print) -> list[Path]:
    """`src_dir`의 다 쓴 주제 파일(검사 통과, `min_chars`자 이상)을 걸러 `dst_dir`에 xz로 씁니다. 쓴 파일 목록을 돌려줍니다.

    이미 실린 파일의 문장과 같은 문장(10자 이상)과 평가 글과 겹치는 문장은 빼고, 그래서 3문장보다 짧아진 문서는 뺍니다.
    같은 입력이면 같은 바이트가 나옵니다(주제 번호 순서로 처리).
    """
    spans = evaluation_spans()
    seen: set[str] = set()
    for path in files(dst_dir):
        for doc in read_documents(path):
            seen |= {l for l in doc if len(l) >= 10}
    written = []
    for src in sorted(Path(src_dir).glob("t[0-9][0-9][0-9].txt")):
        target = Path(dst_dir) / (src.name + ".xz")
        if target.exists():
            continue
        problems, stats = check_text(src.read_text(encoding="utf-8"), src.name)
        if problems or stats["characters"] < min_chars:
            log(f"{src.name}: 아직 싣지 않음(문제 {len(problems)}개, {stats['characters']:,}자)")
            continue
        docs, _ = parse(src.read_text(encoding="utf-8"))
        kept, dropped_eval, dropped_dup = [], 0, 0
        for d in docs:
            lines = []
            for line in d.lines:
                if overlaps(line, spans):
                    dropped_eval += 1
                elif len(line) >= 10 and line in seen:
                    dropped_dup += 1
                else:
                    lines.append(line)
            if len(lines) >= 3:
                kept.append(Doc(d.genre, d.register, lines, d.line_no))
                seen |= {l for l in lines if len(l) >= 10}
        data = render(kept).encode("utf-8")
        target.write_bytes(lzma.compress(data, format=lzma.FORMAT_XZ, preset=9 | lzma.PRESET_EXTREME))
        written.append(target)
        log(f"{src.name} → {target.name}: 문서 {len(kept)}, 평가 글과 겹친 문장 {dropped_eval}개와 앞 파일과 같은 문장 "
            f"{dropped_dup}개를 뺌, {len(data):,}바이트 → {target.stat().st_size:,}바이트")
    write_data_card(dst_dir)
    return written


def corpus_stats(directory: Path = V3_DIR) -> dict:
    """말뭉치 전체의 수: 파일·문서·문장·글자, 장르·문체·분류별, 서로 다른 어절, 되풀이된 8어절의 몫, held-out."""
    genre, register, category = Counter(), Counter(), Counter()
    docs = sents = chars = heldout_docs = 0
    eojeol, spans = Counter(), Counter()
    paths = files(directory)
    halfway_distinct = 0
    for i, path in enumerate(paths):
        topic = topic_of(path)
        parsed, _ = parse(read_text(path))
        for d in parsed:
            n = sum(len(l) for l in d.lines)
            genre[d.genre] += n
            register[d.register] += n
            category[topic["category_ko"]] += n
            docs += 1
            sents += len(d.lines)
            chars += n
            heldout_docs += is_heldout(d.lines)
            for line in d.lines:
                eojeol.update(line.split())
                spans.update(eojeol_spans(line))
        if i + 1 == len(paths) // 2:
            halfway_distinct = len(eojeol)
    total_spans = sum(spans.values())
    repeated = sum(c for c in spans.values() if c > 1)
    return {"files": len(paths), "documents": docs, "sentences": sents, "characters": chars, "heldout_documents": heldout_docs,
            "genres": dict(genre), "registers": dict(register), "categories": dict(category),
            "eojeol": sum(eojeol.values()), "distinct_eojeol": len(eojeol), "distinct_eojeol_half": halfway_distinct,
            "repeated_span_share": repeated / total_spans if total_spans else 0.0}


def write_data_card(directory: Path = V3_DIR) -> Path:
    st = corpus_stats(directory)
    topics = {t["id"]: t for t in TOPICS["topics"]}
    done = {p.name.split(".")[0] for p in files(directory)}
    lines = [
        "# 일상 말뭉치 v3: 데이터 카드",
        "",
        "이 프로젝트가 미니 BERT의 사전학습을 위해 직접 쓴 일상 한국어 글입니다(어디서도 옮겨 오지 않음, CC BY 4.0).",
        "주제 320개(16개 분류) × 장르 9개 × 문체 4개로 나눠 여러 작성자가 썼고, 주제 하나가 파일 하나입니다.",
        "이 파일은 `python -m bertlab.minibert.everyday pack`이 다시 만듭니다.",
        "",
        f"- 실린 주제 파일 {st['files']}개 / 320개, 문서 {st['documents']:,}개, 문장 {st['sentences']:,}개, "
        f"글자 {st['characters']:,}자(머리줄 빼고)",
        f"- 어절 {st['eojeol']:,}개, 서로 다른 어절 {st['distinct_eojeol']:,}개 "
        f"(앞 절반의 파일까지는 {st['distinct_eojeol_half']:,}개)",
        f"- 두 번 이상 나온 8어절 이어짐의 몫 {100 * st['repeated_span_share']:.2f}% (한도 1%)",
        f"- 사전학습에 쓰지 않는 held-out 문서 {st['heldout_documents']:,}개(문서 글의 SHA-1로 약 {HELDOUT_PERCENT}%)",
        "",
        "## 장르별 글자 수",
        "",
        "| 장르 | 글자 | 몫 |",
        "|---|---:|---:|",
    ]
    total = st["characters"] or 1
    lines += [f"| {GENRES[g]} (`{g}`) | {st['genres'].get(g, 0):,} | {100 * st['genres'].get(g, 0) / total:.1f}% |" for g in GENRES]
    lines += ["", "## 문체별 글자 수", "", "| 문체 | 글자 | 몫 |", "|---|---:|---:|"]
    lines += [f"| {REGISTERS[r]} (`{r}`) | {st['registers'].get(r, 0):,} | {100 * st['registers'].get(r, 0) / total:.1f}% |"
              for r in REGISTERS]
    lines += ["", "## 분류별 글자 수", "", "| 분류 | 글자 |", "|---|---:|"]
    lines += [f"| {c} | {n:,} |" for c, n in sorted(st["categories"].items(), key=lambda kv: -kv[1])]
    lines += ["", "## 주제", "", "| 번호 | 분류 | 주제 | 실림 |", "|---|---|---|---|"]
    lines += [f"| {tid} | {t['category_ko']} | {t['topic']} | {'✓' if tid in done else ''} |" for tid, t in topics.items()]
    path = Path(directory) / "DATA_CARD.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"check", "stats", "pack"} or (argv[0] in ("check", "pack") and len(argv) < 2):
        print("쓰는 법: python -m bertlab.minibert.everyday check FILE... | pack SRC_DIR | stats", file=sys.stderr)
        return 2
    if argv[0] == "pack":
        written = pack(Path(argv[1]))
        print(f"실은 파일 {len(written)}개; 데이터 카드: {V3_DIR / 'DATA_CARD.md'}")
        return 0
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
    print(json.dumps(corpus_stats(), ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
