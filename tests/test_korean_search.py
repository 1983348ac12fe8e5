"""책의 한국어 검색 확장(book/_ext/korean_search.py) 시험.

작은 Sphinx 프로젝트를 임시 폴더에 만들어 ``language = 'ko'`` 로 빌드하고,
만들어진 ``searchindex.js`` 에서 문장, 모델, 토큰이 조사가 붙은 꼴만 있는 쪽을
찾는지 본다. node가 있으면 검색 쪽 자바스크립트 어간 추출기가 파이썬 쪽과
같은 답을 내는지, 검색어 '문장을' 과 '문장' 이 서로를 찾는지도 확인한다.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXT_DIR = Path(__file__).resolve().parents[1] / "book" / "_ext"
sys.path.insert(0, str(EXT_DIR))

import korean_search as ks  # noqa: E402

PAGES = {
    "sentence": ("첫째 쪽", "입력 문장을 낱말로 나누기 전에 문장이 너무 길면 자릅니다."),
    "model": ("둘째 쪽", "모델이 다음 낱말을 예측합니다. 모델로 무엇을 할까요?"),
    "token": ("셋째 쪽", "토큰은 정수 번호로 바뀝니다. 토큰들을 모아 배치를 만듭니다."),
    "bare": ("넷째 쪽", "문장 모델 토큰 세 낱말이 조사 없이 나옵니다."),
    "other": ("다섯째 쪽", "층에서 나온 벡터로 어텐션의 가중치를 계산한다. BERT의 결과를 봅니다."),
}

# 한 쪽에만 있는 꼴(조사가 붙은 꼴) → 기대하는 어간
WORDS = {
    "문장을": "문장", "문장이": "문장", "모델이": "모델", "모델로": "모델",
    "토큰은": "토큰", "토큰들을": "토큰", "어텐션의": "어텐션", "벡터로": "벡터",
    "층에서": "층", "계산한다": "계산", "BERT의": "BERT", "결과를": "결과",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from sphinx.application import Sphinx

    src = tmp_path_factory.mktemp("src")
    out = tmp_path_factory.mktemp("out")
    (src / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(EXT_DIR)!r})\n"
        "extensions = ['korean_search']\n"
        "language = 'ko'\n"
        "project = '검색 시험'\n",
        encoding="utf-8",
    )
    toctree = "\n".join(f"   {name}" for name in PAGES)
    (src / "index.rst").write_text(
        f"차례\n====\n\n.. toctree::\n\n{toctree}\n", encoding="utf-8"
    )
    for name, (title, body) in PAGES.items():
        (src / f"{name}.rst").write_text(
            f"{title}\n{'=' * (2 * len(title))}\n\n{body}\n", encoding="utf-8"
        )
    app = Sphinx(
        str(src), str(src), str(out), str(out / ".doctrees"), "html",
        status=None, warning=None, freshenv=True, warningiserror=True,
    )
    app.build()
    text = (out / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[len("Search.setIndex("):-1])
    return out, index


def _docs(index, term):
    """색인어 ``term`` 이 가리키는 문서 이름들 (본문과 제목 모두)."""
    names = set()
    for table in ("terms", "titleterms"):
        hit = index[table].get(term)
        if hit is None:
            continue
        for i in [hit] if isinstance(hit, int) else hit:
            names.add(index["docnames"][i])
    return names


def test_strip_rules():
    for word, stem in WORDS.items():
        assert ks.strip_korean(word) == stem, word
    # 받침 조건: '사이', '나이' 의 '이' 는 조사가 아니다; 남는 부분이 한 글자인 어미는 떼지 않는다
    for word in ["사이", "나이", "제한", "포함", "확인", "문장", "모델", "토큰"]:
        assert ks.strip_korean(word) == word
    assert ks.korean_forms("문장을") == ["문장을", "문장"]
    assert ks.korean_forms("문장") == ["문장"]


def test_search_language_registered(built):
    out, _ = built
    data = (out / "_static" / "language_data.js").read_text(encoding="utf-8")
    assert "KoreanStemmer" in data and "PorterStemmer" in data


@pytest.mark.parametrize(
    "stem, pages",
    [("문장", {"sentence", "bare"}), ("모델", {"model", "bare"}), ("토큰", {"token", "bare"})],
)
def test_stems_find_pages_with_particles(built, stem, pages):
    _, index = built
    assert _docs(index, stem) == pages


def test_full_forms_kept(built):
    _, index = built
    assert _docs(index, "문장을") == {"sentence"}
    assert _docs(index, "모델이") == {"model"}
    assert _docs(index, "토큰은") == {"token"}
    for stem in ["층", "벡터", "어텐션", "계산", "결과"]:
        assert _docs(index, stem) == {"other"}, stem
    assert "other" in _docs(index, "bert")


NODE = shutil.which("node") or shutil.which("nodejs")


def test_node_is_installed():
    assert NODE, "node가 없습니다: 검색과 실습실의 자바스크립트 시험에 필요합니다(bash scripts/setup.sh가 설치)"


def test_js_stemmer_matches_python_and_finds_pages(built):
    out, index = built
    words = list(WORDS) + ["문장", "모델", "토큰", "사이", "고양이를", "Embeddings", "attention"]
    driver = (
        (out / "_static" / "language_data.js").read_text(encoding="utf-8")
        + "\nvar s = new Stemmer();\n"
        + f"var words = {json.dumps(words)};\n"
        + "console.log(JSON.stringify(words.map(function (w) { return s.stemWord(w.toLowerCase()); })));\n"
    )
    result = subprocess.run(
        [NODE, "-e", driver], capture_output=True, text=True, timeout=30, check=True
    )
    js_stems = json.loads(result.stdout)
    lang = ks.SearchKorean({})
    for word, js in zip(words, js_stems):
        # 파이썬 색인기: split 이 만든 꼴 가운데 마지막(가장 짧은 꼴)의 stem 이 검색어의 stem
        py = lang.stem(lang.split(word)[-1]).lower()
        assert js == py, (word, js, py)
    # 검색 창: '문장을' 과 '문장' 이 같은 쪽들을 찾는다
    by_word = dict(zip(words, js_stems))
    assert _docs(index, by_word["문장을"]) == _docs(index, by_word["문장"]) == {"sentence", "bare"}
    assert _docs(index, by_word["모델이"]) == {"model", "bare"}
    assert _docs(index, by_word["토큰은"]) == {"token", "bare"}


def test_sphinx_searchtools_finds_particle_forms(built):
    """빌드된 사이트의 searchtools.js 그대로(검색 쪽의 코드)로 검색어를 처리한다."""
    out, index = built
    static = out / "_static"
    queries = ["문장을", "문장", "모델이", "모델", "토큰은", "토큰", "층에서"]
    driver = (
        "globalThis._ready = function () {};\n"
        "var SPHINX_HIGHLIGHT_ENABLED = false;\n"
        "var DOCUMENTATION_OPTIONS = {};\n"
        + (static / "language_data.js").read_text(encoding="utf-8")
        + "\n"
        + (static / "searchtools.js").read_text(encoding="utf-8")
        + f"\nSearch._index = {json.dumps(index, ensure_ascii=False)};\n"
        + "var out = {};\n"
        + f"{json.dumps(queries, ensure_ascii=False)}.forEach(function (q) {{\n"
        + "  var parsed = Search._parseQuery(q);\n"
        + "  out[q] = Search.performTermsSearch(parsed[1], parsed[2]).map(function (r) { return r[0]; }).sort();\n"
        + "});\n"
        + "console.log(JSON.stringify(out));\n"
    )
    result = subprocess.run(
        [NODE, "-e", driver], capture_output=True, text=True, timeout=30, check=True
    )
    found = {q: set(docs) for q, docs in json.loads(result.stdout).items()}
    assert found["문장을"] == found["문장"] == {"sentence", "bare"}
    assert found["모델이"] == found["모델"] == {"model", "bare"}
    assert found["토큰은"] == found["토큰"] == {"token", "bare"}
    assert found["층에서"] == {"other"}
