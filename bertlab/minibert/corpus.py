"""미니 BERT의 사전학습 말뭉치 만들기 (부록 '번들 미니 BERT'에서 설명합니다).

출처는 두 가지입니다.

1. 오프라인으로 구할 수 있는 한국어 문서: Debian의 한국어 도움말 패키지. 시스템에 설치하지 않고
   `apt-get download`로 받아 `dpkg -x`로 풀어, HTML에서 문단 텍스트를 뽑습니다.
2. 이 프로젝트가 직접 쓴 문장: `assets/text/everyday_ko.txt`(일상 문단), `assets/text/senses_ko.tsv`의
   학습용 동음이의어 문장, `assets/text/senses_paragraphs_ko.txt`(동음이의어의 뜻마다 쓴 짧은 문단),
   `templates.generate()`가 만든 문단.

정제(마크업·코드·한국어가 아닌 줄·중복 제거), 문장 분리, 문서 단위 held-out 분할, 통계 집계까지 합니다.
결과는 '문서 = 문장 목록'이고, 파일로는 한 줄에 한 문장, 문서 사이에 빈 줄을 둡니다.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from ..data import TEXT_DIR, read_documents, read_senses


# 패키지 이름 → (문서가 있는 하위 경로, 라이선스). HTML과 GNOME의 Mallard(.page, XML)를 같은 방식으로 읽는다.
DEBIAN_SOURCES = {
    "libreoffice-help-ko": ("usr/share/libreoffice/help/ko", "MPL-2.0"),
    "gimp-help-ko": ("usr/share/gimp/2.0/help/ko", "GFDL-1.2 (GIMP 사용자 설명서)"),
    "debian-faq-ko": ("usr/share/doc/debian/FAQ/ko", "Debian FAQ 허가문(수정·재배포 허용, SPI)"),
    "gnome-user-docs": ("usr/share/help/ko", "CC-BY-SA-3.0 (GNOME 도움말)"),
}

_BLOCK_TAGS = {"p", "li", "td", "th", "dd", "dt", "h1", "h2", "h3", "h4", "h5", "h6", "div", "br", "tr", "title", "item", "desc"}
_SKIP_TAGS = {"script", "style", "pre", "code", "kbd", "samp", "tt", "head", "info", "screen", "cmd", "key", "credit"}
_HANGUL = re.compile(r"[가-힣]")
_SENT_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
_BAD = re.compile(r"https?://|www\.|[{}<>\\|=_#@$%^&*~`]|\.\w{2,4}\b(?<!\.\s)|\s{3,}")


class _TextExtractor(HTMLParser):
    """HTML에서 코드·스크립트를 빼고 블록 단위 텍스트만 모읍니다."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self._buf: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in _SKIP_TAGS:
            self._skip += 1
        if tag in _BLOCK_TAGS:
            self._flush()

    def handle_endtag(self, tag):
        if tag in _SKIP_TAGS and self._skip:
            self._skip -= 1
        if tag in _BLOCK_TAGS:
            self._flush()

    def handle_data(self, data):
        if not self._skip:
            self._buf.append(data)

    def _flush(self):
        text = " ".join("".join(self._buf).split())
        if text:
            self.blocks.append(text)
        self._buf = []

    def close(self):
        super().close()
        self._flush()


def html_blocks(html: str) -> list[str]:
    """HTML 문자열에서 문단(블록) 텍스트 목록을 뽑습니다."""
    parser = _TextExtractor()
    parser.feed(html)
    parser.close()
    return parser.blocks


def hangul_share(text: str) -> float:
    """공백을 뺀 글자 중 한글 음절의 비율."""
    chars = [c for c in text if not c.isspace()]
    return len(_HANGUL.findall(text)) / len(chars) if chars else 0.0


def split_sentences(block: str) -> list[str]:
    """문단을 문장으로 나눕니다(마침표·물음표·느낌표 뒤 공백 기준)."""
    return [s.strip() for s in _SENT_END.split(block) if s.strip()]


def is_clean_sentence(sentence: str, min_chars: int = 8, max_chars: int = 200, min_hangul: float = 0.6) -> bool:
    """학습에 쓸 만한 한국어 문장인지: 길이, 한글 비율, URL·코드·메뉴 경로 같은 흔적이 없는지."""
    if not (min_chars <= len(sentence) <= max_chars):
        return False
    if hangul_share(sentence) < min_hangul:
        return False
    if _BAD.search(sentence) or " - " in sentence or "..." in sentence:
        return False
    # 메뉴 경로·단축키(예: '파일 - 열기', 'Ctrl+O')나 괄호만 남은 조각
    if "+" in sentence or sentence.count("(") != sentence.count(")"):
        return False
    return len(_HANGUL.findall(sentence)) >= 5


def documents_from_html_dir(root: Path) -> list[list[str]]:
    """디렉터리 아래 HTML(.html)·Mallard(.page) 파일마다 한 문서: 깨끗한 문장만 남깁니다."""
    docs = []
    for path in sorted([*root.rglob("*.html"), *root.rglob("*.page")]):
        html = path.read_text(encoding="utf-8", errors="replace")
        sents = []
        for block in html_blocks(html):
            sents.extend(s for s in split_sentences(block) if is_clean_sentence(s))
        if sents:
            docs.append(sents)
    return docs


def fetch_debian_docs(cache_dir: Path) -> dict[str, Path]:
    """Debian 한국어 도움말 패키지를 내려받아 풀어 둡니다(설치하지 않음). 패키지별 HTML 디렉터리를 돌려줍니다."""
    cache_dir = Path(cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    out = {}
    for pkg, (subdir, _license) in DEBIAN_SOURCES.items():
        target = cache_dir / pkg
        if not (target / subdir).is_dir():
            with tempfile.TemporaryDirectory() as tmp:
                subprocess.run(["apt-get", "download", pkg], cwd=tmp, check=True, capture_output=True)
                deb = next(Path(tmp).glob(f"{pkg}_*.deb"))
                subprocess.run(["dpkg", "-x", str(deb), str(target)], check=True)
        out[pkg] = target / subdir
    return out


def write_documents(docs: list[list[str]], path: Path) -> None:
    Path(path).write_text("\n\n".join("\n".join(d) for d in docs) + "\n", encoding="utf-8")


def read_sense_paragraphs() -> dict[tuple[str, str], list[list[str]]]:
    """동음이의어 문단 파일을 읽습니다: `@낱말<TAB>뜻` 줄이 뜻 묶음을 열고, 그 아래 문단이 빈 줄로 나뉩니다.

    돌려주는 값은 {(낱말, 뜻): [문단(문장 목록), ...]}입니다.
    """
    path = TEXT_DIR / "senses_paragraphs_ko.txt"
    out: dict[tuple[str, str], list[list[str]]] = {}
    key = None
    cur: list[str] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines() + [""], start=1):
        line = line.strip()
        if (not line or line.startswith("@")) and cur:
            out[key].append(cur)
            cur = []
        if line.startswith("@"):
            parts = line[1:].split("\t")
            if len(parts) != 2:
                raise ValueError(f"{path.name} {n}번째 줄: '@낱말<TAB>뜻' 꼴이어야 합니다: {line!r}")
            key = (parts[0], parts[1])
            out.setdefault(key, [])
        elif line:
            if key is None:
                raise ValueError(f"{path.name} {n}번째 줄: 첫 문단 앞에 '@낱말<TAB>뜻' 줄이 없습니다.")
            cur.append(line)
    return out


def is_heldout(key: str, percent: int) -> bool:
    """문서 키의 해시로 held-out 여부를 정합니다(실행할 때마다 같은 분할)."""
    return int(hashlib.sha1(key.encode("utf-8")).hexdigest(), 16) % 100 < percent


@dataclass
class Corpus:
    train: list[list[str]] = field(default_factory=list)
    heldout: list[list[str]] = field(default_factory=list)
    stats: dict = field(default_factory=dict)


def dedup_documents(docs: list[list[str]], seen: set[str]) -> list[list[str]]:
    """이미 본 문장을 빼고, 비게 된 문서는 버립니다(`seen`을 갱신)."""
    out = []
    for doc in docs:
        kept = []
        for s in doc:
            if s not in seen:
                seen.add(s)
                kept.append(s)
        if kept:
            out.append(kept)
    return out


def corpus_stats(docs: list[list[str]]) -> dict:
    sents = [s for d in docs for s in d]
    text = "".join(sents)
    return {
        "documents": len(docs),
        "sentences": len(sents),
        "characters": len(text),
        "hangul_share": round(hangul_share(text), 3),
        "distinct_hangul_syllables": len(set(_HANGUL.findall(text))),
    }


EVERYDAY_V2_DIR = TEXT_DIR / "everyday_v2"


def everyday_v2_files() -> list[Path]:
    """이슈 20에서 쓴 일상 문단 파일들(주제마다 하나, 파일 이름 앞 번호 순: 01_…, 80_…, 125_…)."""
    return sorted(EVERYDAY_V2_DIR.glob("[0-9]*_*.txt"), key=lambda p: int(p.name.split("_", 1)[0]))


def build_corpus(
    cache_dir: Path,
    *,
    template_docs: int = 2000,
    heldout_percent: int = 5,
    seed: int = 0,
    use_debian: bool = True,
    everyday_v2: bool = False,
    everyday_v3: bool = False,
    sense_repeat: int = 1,
) -> Corpus:
    """모든 출처를 모아 정제·중복 제거·문서 단위 분할을 하고 통계를 붙입니다.

    `sense_repeat`: 동음이의어 학습 문장과 문단(`senses_ko`, `senses_paragraphs_ko`)을 학습 글에 이만큼 되풀이해 넣습니다
    (일상 글이 많아져 그 몫이 줄어들 때 뜻 신호를 지키려고; 기본 1 = 한 번).
    """
    if sense_repeat < 1:
        raise ValueError(f"sense_repeat는 1 이상이어야 합니다(받은 값: {sense_repeat}).")
    sources: dict[str, list[list[str]]] = {}
    if use_debian:
        for pkg, html_dir in fetch_debian_docs(cache_dir).items():
            sources[pkg] = documents_from_html_dir(html_dir)
    sources["everyday_ko"] = read_documents(TEXT_DIR / "everyday_ko.txt")
    # 동음이의어 학습 문장은 뜻(word, sense)마다 한 문서로 묶는다. eval 문장은 절대 넣지 않는다.
    by_sense: dict[tuple[str, str], list[str]] = {}
    for row in read_senses("train"):
        by_sense.setdefault((row["word"], row["sense"]), []).append(row["sentence"])
    sources["senses_ko"] = list(by_sense.values())
    sources["senses_paragraphs_ko"] = [p for paras in read_sense_paragraphs().values() for p in paras]
    if template_docs:
        from . import templates

        sources["templates_ko"] = templates.generate(template_docs, seed=seed)
    if everyday_v2:
        # 이슈 20의 일상 말뭉치(주제마다 한 파일). 맨 뒤에 더하므로 앞 출처들의 중복 제거와 held-out 분할은 그대로다.
        sources["everyday_v2"] = [d for path in everyday_v2_files() for d in read_documents(path)]

    v3_train, v3_held = [], []
    if everyday_v3:
        # 이슈 25의 일상 말뭉치 v3. held-out은 문서 글의 SHA-1로 정한 것을 그대로 쓴다(일상 held-out 빈칸 세트의 출처).
        from . import everyday

        for path in everyday.files():
            for doc in everyday.read_documents(path):
                (v3_held if everyday.is_heldout(doc) else v3_train).append(doc)
        sources["everyday_v3"] = v3_train

    eval_sentences = {r["sentence"] for r in read_senses() if r["split"] != "train"}
    seen: set[str] = set(eval_sentences)
    corpus = Corpus()
    per_source = {}
    for name, docs in sources.items():
        if name == "templates_ko":
            # 템플릿 문단은 문장이 겹치는 것이 자연스럽다(같은 상황, 다른 사람·장소). 문단 통째로만 중복 제거.
            unique = {tuple(d): None for d in docs if not seen.intersection(d)}
            docs = [list(d) for d in unique]
        else:
            docs = dedup_documents(docs, seen)
        train, held = [], []
        for i, doc in enumerate(docs):
            # 직접 쓴 동음이의어 문장과 템플릿 문단은 모두 학습에; held-out은 실제 문서와 일상 문단에서
            if name not in {"senses_ko", "senses_paragraphs_ko", "templates_ko", "everyday_v3"} and is_heldout(
                    f"{name}/{i}/{doc[0]}", heldout_percent):
                held.append(doc)
            else:
                train.append(doc)
        if name == "everyday_v3":
            held = dedup_documents(v3_held, seen)
        if name in {"senses_ko", "senses_paragraphs_ko"}:
            train = [list(d) for _ in range(sense_repeat) for d in train]
        corpus.train.extend(train)
        corpus.heldout.extend(held)
        per_source[name] = {"train": corpus_stats(train), "heldout": corpus_stats(held)}
    corpus.stats = {
        "sources": per_source,
        "train": corpus_stats(corpus.train),
        "heldout": corpus_stats(corpus.heldout),
        "licenses": {pkg: lic for pkg, (_, lic) in DEBIAN_SOURCES.items()},
    }
    return corpus


def save_corpus(corpus: Corpus, out_dir: Path) -> None:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    write_documents(corpus.train, out_dir / "train.txt")
    write_documents(corpus.heldout, out_dir / "heldout.txt")
    (out_dir / "stats.json").write_text(json.dumps(corpus.stats, ensure_ascii=False, indent=2), encoding="utf-8")
