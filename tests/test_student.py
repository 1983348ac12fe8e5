"""학생판(bertlab.course.student): 풀이를 지운 원본을 만들고, 빌드한 학생판에 풀이 글이 남았는지 찾는다.

책 전체를 두 번 빌드하는 것은 CI에 무거우므로, 여기서는 학생판 원본(장 노트북·페이지·목차)을 만들어 풀이가 하나도 남지 않았는지,
검사 셀과 문제는 남았는지 보고, 빌드한 사이트를 훑는 `check`가 HTML·검색 색인·_sources의 풀이 조각을 잡는지 작은 사이트로
봅니다. 실제 학생판 빌드는 `bash scripts/build-book.sh --student`가 하고, 끝에 같은 `check`를 부릅니다.
"""
from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from bertlab.course import student
from bertlab.course.exercises import CHECK_TAG, SOLUTION_TAG

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    out = tmp_path_factory.mktemp("student-src")
    student.prepare(out)
    return out


def test_no_solution_survives_in_the_student_sources(prepared):
    fingerprints = student.solution_fingerprints()
    assert len(fingerprints) > 50  # 풀이를 실제로 읽었다
    texts = {p.relative_to(prepared).as_posix(): p.read_text(encoding="utf-8")
             for p in prepared.rglob("*") if p.suffix in (".ipynb", ".md", ".yml") and p.is_file()}
    left = {name: [f for f in fingerprints if f in text] for name, text in texts.items()}
    left = {k: v[:3] for k, v in left.items() if v}
    assert not left, left


def test_problems_and_checks_stay(prepared):
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        orig = nbformat.read(str(path), as_version=4)
        made = nbformat.read(str(prepared / "notebooks" / path.name), as_version=4)
        checks = [c.source for c in orig.cells if CHECK_TAG in c.get("metadata", {}).get("tags", [])]
        assert checks == [c.source for c in made.cells if CHECK_TAG in c.get("metadata", {}).get("tags", [])]
        assert not any(SOLUTION_TAG in c.get("metadata", {}).get("tags", []) for c in made.cells)
        assert "## 연습문제" in "\n".join(c.source for c in made.cells if c.cell_type == "markdown")
        points = [c for c in made.cells if c.cell_type == "code" and "bl.points(" in c.source]
        assert points and all("remove-output" in c.metadata.get("tags", []) for c in points), path.name  # 답의 점은 쪽에 싣지 않음
    toc = (prepared / "_toc.yml").read_text(encoding="utf-8")
    assert "book/instructor" not in toc and "book/errata" not in toc and "notebooks/03_attention" in toc
    assert "(학생판)" in (prepared / "_config.yml").read_text(encoding="utf-8")


def test_no_link_to_an_instructor_page_is_left(prepared):
    """학생판에서 빠진 강사용 쪽(수업 운영 가이드, 정오표)을 가리키는 참조는 글만 남는다(남으면 빌드가 깨진다)."""
    linked = [p.name for p in (ROOT / "book").glob("*.md") if p.stem not in ("instructor", "errata")
              and student._INSTRUCTOR_LINK.search(p.read_text(encoding="utf-8"))]
    assert linked, "강사용 쪽을 가리키는 학생용 쪽이 없어 이 시험이 아무것도 확인하지 않습니다"
    left = [p.name for p in (prepared / "book").glob("*.md") if student._INSTRUCTOR_LINK.search(p.read_text(encoding="utf-8"))]
    assert not left, left


def test_check_finds_solution_text_in_html_index_and_sources(tmp_path):
    fingerprint = student.solution_fingerprints()[0]
    site = tmp_path / "html"
    (site / "_sources" / "notebooks").mkdir(parents=True)
    (site / "index.html").write_text("<p>표지</p>", encoding="utf-8")
    (site / "notebooks" ).mkdir()
    (site / "notebooks" / "03_attention.html").write_text("<p>문제만</p>", encoding="utf-8")
    assert student.check(site) == {}
    index = {"docnames": ["index"], "terms": {"표지": 0}, "titleterms": {}}
    (site / "searchindex.js").write_text("Search.setIndex(" + json.dumps(index, ensure_ascii=False) + ")", encoding="utf-8")
    assert student.check(site) == {}
    index["terms"][sorted(student.solution_words())[0]] = 0
    (site / "searchindex.js").write_text("Search.setIndex(" + json.dumps(index, ensure_ascii=False) + ")", encoding="utf-8")
    (site / "_sources" / "notebooks" / "03_attention.ipynb").write_text(fingerprint, encoding="utf-8")
    assert set(student.check(site)) == {"searchindex.js", "_sources/notebooks/03_attention.ipynb"}
