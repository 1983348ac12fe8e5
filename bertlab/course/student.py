"""학생판 웹사이트: 같은 책에서 풀이만 뺀 판(이슈 28).

    bash scripts/build-book.sh --student        # _build/student/html (이 모듈의 prepare와 check를 부름)
    python -m bertlab.course.student prepare OUT_SRC   # 책 원본을 OUT_SRC에 복사하고 장마다 풀이를 지운다
    python -m bertlab.course.student check SITE        # 빌드한 학생판에 풀이 글이 남았는지(HTML, 검색 색인, _sources)

학생판에서 빠지는 것: 풀이 코드 셀의 코드(빈 답 셀 `이름 = ...`으로 바뀜), `:::{dropdown} 풀이` 글, 강사용 쪽(수업 운영
가이드, 이전 자료와의 차이). 남는 것: 본문, 문제, 검사 셀(빈 답이면 '아직 답이 없습니다'를 보여 줌), 점검 목록.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import sys
from pathlib import Path

from .exercises import CHAPTER_GLOB, SOLUTION_TAG, _fence_parts, _SOLUTION_DROPDOWN, student_edition

ROOT = Path(__file__).resolve().parents[2]
COPY = ["_config.yml", "_toc.yml", "book", "notebooks"]
INSTRUCTOR_ONLY = ["book/instructor", "book/errata"]
# {ref}`글 <instructor…>`, {ref}`instructor`, {doc}`글 <instructor>`, errata도 같음
_INSTRUCTOR_LINK = re.compile(r"\{(?:ref|doc)\}`(?:([^`<]*)<)?(?:\.\./)?(?:book/)?(?:instructor[\w-]*|errata)>?`")
_ROLE = re.compile(r"\{[a-z:]+\}`([^`]*)`")


def prepare(out: Path, root: Path = ROOT) -> list[Path]:
    """책 원본을 `out`에 복사하고, 장마다 풀이를 지우고, 강사용 쪽을 목차에서 뺍니다. 바꾼 장의 경로를 돌려줍니다."""
    import nbformat

    out = Path(out)
    if out.resolve() == Path(root).resolve():
        raise ValueError("학생판 원본 폴더가 저장소와 같습니다. 다른 폴더를 주세요.")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in COPY:
        src = Path(root) / name
        if src.is_dir():
            shutil.copytree(src, out / name, ignore=shutil.ignore_patterns("_build", ".ipynb_checkpoints", "_review"))
        else:
            shutil.copy(src, out / name)
    changed = []
    for path in sorted((out / "notebooks").glob(CHAPTER_GLOB)):
        nb = nbformat.read(str(path), as_version=4)
        nbformat.write(student_edition(nb), str(path))
        changed.append(path)
    toc = (out / "_toc.yml").read_text(encoding="utf-8")
    for page in INSTRUCTOR_ONLY:
        toc = re.sub(rf"^\s*-\s*file:\s*{re.escape(page)}\s*\n", "", toc, flags=re.M)
        (out / f"{page}.md").unlink(missing_ok=True)
    (out / "_toc.yml").write_text(toc, encoding="utf-8")
    # 학생판에 남는 쪽이 강사용 쪽을 가리키면 링크 대신 글만 남긴다(없는 쪽을 가리키는 참조는 빌드를 깨뜨린다)
    for page in sorted((out / "book").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        unlinked = _INSTRUCTOR_LINK.sub(lambda m: (m.group(1) or "").strip() or "수업 운영 가이드", text)
        if unlinked != text:
            page.write_text(unlinked, encoding="utf-8")
    cfg = (out / "_config.yml").read_text(encoding="utf-8")
    cfg = re.sub(r"^title:\s*(.+)$", lambda m: f"title: {m.group(1).strip()} (학생판)", cfg, count=1, flags=re.M)
    (out / "_config.yml").write_text(cfg, encoding="utf-8")
    return changed


def _solution_and_rest(root: Path = ROOT) -> tuple[list[str], str]:
    """(풀이 조각들, 풀이가 아닌 글 전체): 풀이 코드 셀의 줄과 풀이 드롭다운의 문장, 그리고 장·페이지의 나머지 글."""
    import nbformat

    pieces: list[str] = []
    rest: list[str] = [p.read_text(encoding="utf-8") for p in sorted((Path(root) / "book").glob("*.md"))]
    for path in sorted((Path(root) / "notebooks").glob(CHAPTER_GLOB)):
        nb = nbformat.read(str(path), as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "code" and SOLUTION_TAG in cell.get("metadata", {}).get("tags", []):
                pieces += [line.strip() for line in cell.source.splitlines() if not line.strip().startswith("#")]
            elif cell.cell_type == "markdown":
                sentences = _dropdown_sentences(cell.source)
                pieces += sentences
                text = cell.source
                for sentence in sentences:
                    text = text.replace(sentence, "")
                rest.append(text)
            else:
                rest.append(cell.source)
    return pieces, "\n".join(rest)


def solution_fingerprints(root: Path = ROOT, min_len: int = 24) -> list[str]:
    """장의 풀이에서 학생판에 있으면 안 되는 글 조각: 풀이 코드 셀의 긴 줄과 풀이 드롭다운의 긴 문장 가운데 풀이 밖에는 없는 것."""
    pieces, rest = _solution_and_rest(root)
    squeezed = " ".join(rest.split())
    return sorted({p for p in pieces if len(p) >= min_len and " ".join(p.split()) not in squeezed})


_WORD = re.compile(r"[가-힣]{2,}|[A-Za-z_][A-Za-z0-9_]{3,}")


def solution_words(root: Path = ROOT) -> set[str]:
    """풀이에만 나오는 낱말(한글 두 글자 이상, 식별자 네 글자 이상): 학생판의 검색 색인에 있으면 안 된다."""
    pieces, rest = _solution_and_rest(root)
    return _not_in({w for p in pieces for w in _WORD.findall(p)}, set(_WORD.findall(rest)))


def _not_in(words: set[str], seen: set[str]) -> set[str]:
    """`seen`에 없는 낱말. 한국어 검색 색인은 어절에서 조사를 떼어 색인하므로('최적화는' → '최적화'), 본문의 어절이
    그 낱말로 시작하면 본문에 나온 것으로 봅니다."""
    return {w for w in words if w not in seen and not any(s.startswith(w) for s in seen)}


def _dropdown_sentences(text: str) -> list[str]:
    out, inside, depth = [], False, 0
    for line in text.splitlines():
        parts = _fence_parts(line)
        if parts is not None:
            char, length, info = parts
            if not inside and char == ":" and _SOLUTION_DROPDOWN.match(info):
                inside, depth = True, 0
                continue
            if inside and info == "" and depth == 0:
                inside = False
                continue
            if inside:
                depth += 1 if info else -1
            continue
        if inside and "{glue" not in line and "$" not in line:
            plain = _ROLE.sub(r"\1", line).replace("**", "").replace("`", "")
            out += [s.strip() for s in re.split(r"(?<=[.다요])\s+", plain) if s.strip()]
    return out


def _site_texts(site: Path):
    for path in sorted(Path(site).rglob("*")):
        if path.suffix in {".html", ".js", ".txt", ".ipynb", ".md"} and path.is_file():
            if "_static" in path.parts or path.name == "searchindex.js":
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            if path.suffix == ".html":
                text = html.unescape(re.sub(r"<[^>]+>", "", text))
            yield path.relative_to(site).as_posix(), text


def _index_terms(site: Path) -> set[str]:
    path = Path(site) / "searchindex.js"
    if not path.exists():
        return set()
    text = path.read_text(encoding="utf-8")
    data = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    terms = set(data.get("terms", {})) | set(data.get("titleterms", {}))
    return {t.lower() for t in terms}


def _shown_words(executed: Path) -> set[str]:
    """학생판이 실행한 노트북(풀이 셀이 없음)의 보이는 셀과 그 출력에 나오는 낱말. 풀이에도 나오는 낱말이 본문의 표나
    출력(예: 설정 이름, 예문)에도 나오면 색인에 있어도 새어 나간 것이 아니다. 쪽에서 지운 셀과 출력은 세지 않는다."""
    import json

    words: set[str] = set()
    for path in sorted(Path(executed).rglob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            tags = set(cell.get("metadata", {}).get("tags", []))
            if "remove-cell" in tags:
                continue
            texts = ["".join(cell.get("source", ""))] if "remove-input" not in tags else []
            if "remove-output" not in tags:
                for out in cell.get("outputs", []):
                    texts += ["".join(out.get("text", ""))]
                    texts += ["".join(v) if isinstance(v, list) else str(v) for k, v in out.get("data", {}).items()
                              if k in ("text/plain", "text/html", "text/markdown")]
            for text in texts:
                words.update(_WORD.findall(text))
    return words


def check(site: Path, root: Path = ROOT) -> dict[str, list[str]]:
    """{파일: [남아 있는 풀이 조각, ...]} — HTML 쪽과 내려받는 원본(_sources)의 풀이 줄·문장, 검색 색인의 풀이에만 있는 낱말."""
    fingerprints = solution_fingerprints(root)
    found: dict[str, list[str]] = {}
    for name, text in _site_texts(site):
        squeezed = " ".join(text.split())
        hits = [f for f in fingerprints if " ".join(f.split()) in squeezed]
        if hits:
            found[name] = hits[:3]
    shown = _shown_words(Path(site).parent / "jupyter_execute")
    words = sorted(w for w in _not_in(solution_words(root), shown) if w.lower() in _index_terms(site))
    if words:
        found["searchindex.js"] = words[:5]
    return found


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bertlab.course.student")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("prepare").add_argument("out", type=Path)
    sub.add_parser("check").add_argument("site", type=Path)
    a = p.parse_args(argv)
    if a.cmd == "prepare":
        changed = prepare(a.out)
        print(f"학생판 원본: {a.out} (풀이를 지운 장 {len(changed)}개, 강사용 쪽 제외)")
        return 0
    if not (a.site / "index.html").exists():
        print(f"{a.site}/index.html이 없습니다. 먼저 학생판을 빌드하세요.", file=sys.stderr)
        return 2
    found = check(a.site)
    n = len(solution_fingerprints())
    for name, hits in found.items():
        print(f"풀이가 남음: {name}: {hits}", file=sys.stderr)
    if found:
        return 1
    print(f"학생판 검사 통과: 풀이 조각 {n}개 가운데 HTML·검색 색인·_sources에 남은 것 0개")
    return 0


if __name__ == "__main__":
    sys.exit(main())
