"""scripts/check_site.py의 글 검사가 잡아야 할 것을 잡는지(작은 HTML 쪽으로), 그리고 원본 글의 규칙 두 가지:
`{ref}`/`{doc}`가 넣는 제목 바로 뒤에 조사를 쓰지 않는다, 장에는 「원래 강의」가 없다."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("check_site", ROOT / "scripts" / "check_site.py")
check_site = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_site)

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
PAGES = sorted((ROOT / "book").glob("*.md"))


def _site(tmp_path: Path, pages: dict[str, str]) -> Path:
    for name, body in pages.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
    return tmp_path


SOLUTION_OUTSIDE = ('<div class="cell tag_solution tag_hide-input docutils container"><details class="hide above-input">'
                    '<div class="cell_input">x</div></details><div class="cell_output">0.199</div></div>')
SOLUTION_INSIDE = ('<div class="cell tag_solution tag_hide-cell docutils container"><details class="hide above-input">'
                   '<div class="cell_input">x</div><div class="cell_output">0.199</div></details></div>')


def test_text_checks_find_each_problem(tmp_path):
    site = _site(tmp_path, {
        "notebooks/03_attention.html": SOLUTION_OUTSIDE + "<p>원래 강의는 틀렸습니다. 기여 [0.08900000154972076]</p>"
                                       '<p><a href="#x"><span>왜 \\sqrt{d_k}로 나누는가</span></a></p>'
                                       "<pre>에포크 1/3:  19%|#####6   | 6/32 [00:01&lt;00:04, 5.1it/s]</pre>",
        "book/mini_bert.html": "<p>여섯 다의어 문장 (이슈 20, 커밋함(cc22f54)), 세션 시간 안에</p><p><span>`[MASK]` 토큰에는</span></p>"
                               "<pre>x = \"`코드 안의 백틱`\"</pre><p><code>`그대로`</code></p>",
        "book/glossary.html": "<p>다의어(polysemy): 한 단어의 이어진 여러 뜻</p>",
        "book/errata.html": "<p>원래 강의 자료는 표에 id 여섯 개를 적었습니다.</p>",
        "notebooks/01_tokenization.html": SOLUTION_INSIDE + '<p>가중치 <span class="math">\\(\\sqrt{d_k}\\)</span> 0.447</p>',
    })
    found = check_site.text_problems(site)
    ch3 = " ".join(found["notebooks/03_attention.html"])
    for expected in ("풀이 셀의 출력", "원래 강의", "float 꼬리", "링크 글의 TeX", "진행 막대"):
        assert expected in ch3, expected
    appendix = " ".join(found["book/mini_bert.html"])
    assert "다의어" in appendix and "이슈 20" in appendix and "세션 시간" in appendix and "cc22f54" in appendix
    assert "렌더되지 않은 마크다운: '`[MASK]`'" in appendix and "코드 안의" not in appendix and "그대로" not in appendix
    assert set(found) == {"notebooks/03_attention.html", "book/mini_bert.html"}  # 용어집·강사용 쪽·접힌 풀이·수식은 괜찮다


# --------------------------------------------------------------------------- 원본 글의 규칙

_TITLED = re.compile(r"\{(doc|ref)\}`[^`<]+`(과|와|은|는|을|를|이|가|으로|로|의|에서|에)(?![가-힣])")


def _markdown(path: Path) -> str:
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return path.read_text(encoding="utf-8")


def test_title_particle_detector():
    assert _TITLED.search("단계 번호는 {ref}`ch-attention`과 같습니다")
    assert _TITLED.search("{doc}`../book/mini_bert`에서 봅니다")
    assert not _TITLED.search("{ref}`3장 <ch-attention>`과 같습니다")  # 글을 직접 준 링크는 조사가 고정된다
    assert not _TITLED.search("{ref}`ch-attention`(3장)")


@pytest.mark.parametrize("path", NOTEBOOKS + PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_particle_after_an_inserted_title(path):
    hits = [m.group(0) for m in _TITLED.finditer(_markdown(path))]
    assert not hits, f"{{ref}}/{{doc}}가 넣는 제목 뒤의 조사(제목에 따라 꼴이 달라짐): {hits[:5]}. 링크 글을 직접 주세요."


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_chapters_do_not_correct_a_lecture_the_reader_never_saw(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells)
    assert "원래 강의" not in text and "강의 자료" not in text, "이전 강의와의 차이는 book/errata.md(강사용)로 옮기세요"
