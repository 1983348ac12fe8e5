"""한국어 검색 언어 확장 (Korean search language for Sphinx).

Sphinx에는 한국어 검색 언어가 없어서 ``language = 'ko'`` 인 책은 영어 검색기로
색인된다. 영어 검색기는 띄어쓰기 단위의 어절을 그대로 색인하므로 본문에
``문장을``, ``문장이``만 있는 쪽은 ``문장``으로 찾을 수 없다. 게다가 Sphinx의
검색 스크립트는 세 글자 미만의 검색어에는 부분 일치를 쓰지 않아서, 두 음절 명사는
조사가 붙은 꼴을 전혀 찾지 못한다.

이 확장은 ``sphinx.search.SearchLanguage`` 를 상속한 :class:`SearchKorean` 을
``ko`` 언어로 등록한다.

* 색인(파이썬 쪽): 한글이 든 어절마다 **원래 꼴과 조사·어미를 뗀 꼴을 함께**
  색인한다. ``문장을`` → ``문장을``, ``문장``.
* 검색(자바스크립트 쪽): 검색 창에 들어온 낱말에도 **같은 규칙**을 적용한다.
  ``문장을`` 로 찾으면 ``문장`` 을 찾고, ``문장`` 으로 찾으면 그대로 ``문장`` 을
  찾는다. 두 쪽 모두 ``문장`` 이라는 색인어를 가지므로 서로 찾힌다.
* 한글이 없는 낱말(``attention``, ``embeddings``)은 Sphinx의 영어 검색기와 똑같이
  Porter 어간 추출을 쓴다.

규칙은 한 곳(:data:`RULES`)에만 있고, 자바스크립트 코드는 그 표를 JSON으로 받아
만들어진다. 두 구현이 같은 답을 내는지는 ``tests/test_korean_search.py`` 가
node로 확인한다.

조사 규칙은 받침을 본다. ``을/은/이/과/으로`` 는 받침 있는 음절 뒤에만,
``를/는/가/와`` 는 받침 없는 음절 뒤에만, ``로`` 는 받침 없는 음절이나 ㄹ 받침 뒤에만
붙는다. 그래서 ``사이``, ``나이`` 의 ``이`` 는 떼지 않는다. 용언·서술격 조사
어미(``한다``, ``하는``, ``입니다`` …)는 남는 부분이 두 글자 이상일 때만 떼므로
``제한``, ``포함``, ``확인`` 은 그대로 남는다.

사용법 (Jupyter Book ``_config.yml``)::

    sphinx:
      local_extensions:
        korean_search: book/_ext
      config:
        language: ko
"""
from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from sphinx.search.en import SearchEnglish

__all__ = ["PROTECTED", "RULES", "SearchKorean", "strip_korean", "korean_forms", "setup"]

__version__ = "1.0"

# ---------------------------------------------------------------------------
# 규칙표: (접미사, 앞 음절 조건, 남는 부분의 최소 글자 수)
#
# 앞 음절 조건
#   "A"  : 어떤 음절 뒤에도 붙는다 (의, 에, 에서, 도, 만, 까지 ...)
#   "C"  : 받침 있는 음절 뒤에만 (을, 은, 이, 과, 이나 ...)
#   "V"  : 받침 없는 음절 뒤에만 (를, 는, 가, 와, 나 ...)
#   "L"  : 받침 없는 음절이나 ㄹ 받침 뒤에만 (로, 로서, 로는 ...)
#   "K"  : ㄹ 이 아닌 받침 뒤에만 (으로, 으로서 ...)
# 앞 글자가 한글 음절이 아니면(BERT의, [CLS]를) 발음을 알 수 없으므로 조건을 따지지
# 않는다.
# ---------------------------------------------------------------------------
_PARTICLES: list[tuple[str, str]] = [
    # 격조사
    ("이", "C"), ("가", "V"),
    ("을", "C"), ("를", "V"),
    ("은", "C"), ("는", "V"),
    ("과", "C"), ("와", "V"),
    ("의", "A"),
    ("에", "A"), ("에서", "A"), ("에게", "A"), ("에게서", "A"), ("한테", "A"),
    ("께", "A"), ("께서", "A"),
    ("으로", "K"), ("로", "L"),
    ("으로서", "K"), ("로서", "L"), ("으로써", "K"), ("로써", "L"),
    ("이랑", "C"), ("랑", "V"), ("하고", "A"),
    # 보조사
    ("도", "A"), ("만", "A"), ("까지", "A"), ("부터", "A"), ("마다", "A"),
    ("조차", "A"), ("밖에", "A"), ("뿐", "A"), ("처럼", "A"), ("보다", "A"),
    ("이나", "C"), ("나", "V"), ("이든", "C"), ("든", "V"),
    ("이란", "C"), ("란", "V"),
    # 겹친 조사 (되풀이해 떼도 같지만, 한 번에 떼면 중간 꼴이 덜 생긴다)
    ("에서는", "A"), ("에서도", "A"), ("에서의", "A"), ("에는", "A"), ("에도", "A"),
    ("에의", "A"), ("에만", "A"), ("으로는", "K"), ("로는", "L"), ("으로도", "K"),
    ("로도", "L"), ("으로의", "K"), ("로의", "L"), ("과의", "C"), ("와의", "V"),
    ("까지는", "A"), ("까지의", "A"), ("부터는", "A"), ("만으로", "A"), ("만을", "A"),
    ("만이", "A"), ("보다는", "A"), ("처럼", "A"),
    # 복수 접미사 '들' (토큰들을 → 토큰들 → 토큰)
    ("들", "A"),
]

# 서술격 조사와 '-하다/-되다/-시키다' 용언의 흔한 어미. 남는 부분이 두 글자 이상일 때만.
_ENDINGS: list[str] = [
    # 서술격 조사 '이다'
    "이다", "입니다", "이며", "이고", "이면", "이므로", "이지만", "인", "이라는",
    "이라고", "이라", "라는", "라고",
    # -하다
    "하다", "한다", "하는", "하며", "하면", "하여", "해서", "해야", "했다",
    "합니다", "했습니다", "하지", "하기", "하게", "할", "한", "함", "해", "했고",
    "하므로", "하지만", "합시다", "하세요",
    # -되다
    "되다", "된다", "되는", "되고", "되며", "되면", "되어", "돼", "됩니다", "된",
    "될", "됨", "되지", "되기", "되었다", "됐다",
    # -시키다
    "시키다", "시킨다", "시키는", "시킨", "시켜", "시킵니다",
]

#: 규칙표 전체. 긴 접미사부터 맞춰 본다 (``에서는`` 이 ``는`` 보다 먼저).
RULES: list[tuple[str, str, int]] = sorted(
    {(s, c, 1) for s, c in _PARTICLES} | {(s, "A", 2) for s in _ENDINGS},
    key=lambda r: (-len(r[0]), r[0], r[1], r[2]),
)

#: 끝 글자가 조사처럼 보이지만 명사의 일부인 낱말. 여기에 이르면 더 떼지 않는다
#: (결과를 → 결과, 결 이 아님). 이 책에 자주 나오는 낱말만 모았다.
PROTECTED: frozenset[str] = frozenset("""
결과 통과 추가 하나 정도 속도 빈도 밀도 척도 용도 시도 각도 온도 유사도 정확도
중요도 기여도 정의 회의 주의 논의 강의 합의 동의 길이 높이 깊이 넓이 놀이
""".split())

#: 한 낱말에서 접미사를 떼는 최대 횟수 (토큰들에서는 → 토큰들 → 토큰).
MAX_ROUNDS = 3

_HANGUL_RE = re.compile("[\uac00-\ud7a3]")
_WORD_RE = re.compile(r"\w+")


def _fits(prev: str, cond: str) -> bool:
    """접미사 앞 글자 ``prev`` 가 조건 ``cond`` 를 만족하는지."""
    code = ord(prev)
    if not 0xAC00 <= code <= 0xD7A3:
        return True  # 한글 음절이 아니면(영문, 숫자, 기호) 받침을 알 수 없다
    final = (code - 0xAC00) % 28  # 0: 받침 없음, 8: ㄹ
    if cond == "A":
        return True
    if cond == "C":
        return final != 0
    if cond == "V":
        return final == 0
    if cond == "L":
        return final in (0, 8)
    if cond == "K":
        return final not in (0, 8)
    raise ValueError(f"알 수 없는 조건 {cond!r}: A, C, V, L, K 중 하나여야 합니다.")


def _strip_once(word: str) -> str | None:
    for suffix, cond, min_stem in RULES:
        if len(word) - len(suffix) < min_stem or not word.endswith(suffix):
            continue
        stem = word[: len(word) - len(suffix)]
        if _fits(stem[-1], cond):
            return stem
    return None


def strip_korean(word: str) -> str:
    """조사와 흔한 어미를 뗀 꼴을 돌려준다. 뗄 것이 없으면 ``word`` 그대로.

    >>> [strip_korean(w) for w in ["문장을", "모델이", "토큰은", "어텐션의", "벡터로", "층에서"]]
    ['문장', '모델', '토큰', '어텐션', '벡터', '층']
    """
    word = unicodedata.normalize("NFC", word)
    if not _HANGUL_RE.search(word):
        return word
    for _ in range(MAX_ROUNDS):
        if word in PROTECTED:
            break
        stem = _strip_once(word)
        if stem is None:
            break
        word = stem
    return word


def korean_forms(token: str) -> list[str]:
    """색인할 꼴들: 원래 꼴과(다르면) 조사·어미를 뗀 꼴."""
    token = unicodedata.normalize("NFC", token)
    forms = [token]
    if _HANGUL_RE.search(token):
        stem = strip_korean(token)
        if stem and stem != token:
            forms.append(stem)
    return forms


# ---------------------------------------------------------------------------
# 자바스크립트 쪽: 검색 창의 낱말에 같은 규칙을 적용한다.
# Sphinx의 searchtools.js 는 ``new Stemmer()`` 의 ``stemWord(w)`` 를 부른다.
# ---------------------------------------------------------------------------
_JS_KOREAN = """
/**
 * Korean stemmer (book/_ext/korean_search.py): strips particles (josa) and
 * common endings with the same rules as the Python indexer.
 */
var KoreanStemmer = function() {
  var rules = %(rules)s;
  var protectedWords = %(protected)s;
  var maxRounds = %(max_rounds)d;
  var hangul = /[\\uac00-\\ud7a3]/;

  var fits = function(prev, cond) {
    var code = prev.charCodeAt(0);
    if (code < 0xAC00 || code > 0xD7A3) return true;
    var fin = (code - 0xAC00) %% 28;
    if (cond === "A") return true;
    if (cond === "C") return fin !== 0;
    if (cond === "V") return fin === 0;
    if (cond === "L") return fin === 0 || fin === 8;
    if (cond === "K") return fin !== 0 && fin !== 8;
    return false;
  };

  var stripOnce = function(w) {
    for (var i = 0; i < rules.length; i++) {
      var suffix = rules[i][0], cond = rules[i][1], minStem = rules[i][2];
      if (w.length - suffix.length < minStem) continue;
      if (w.slice(w.length - suffix.length) !== suffix) continue;
      var stem = w.slice(0, w.length - suffix.length);
      if (fits(stem.charAt(stem.length - 1), cond)) return stem;
    }
    return null;
  };

  this.hasHangul = function(w) { return hangul.test(w); };

  this.stemWord = function(w) {
    if (w.normalize) w = w.normalize("NFC");
    if (!hangul.test(w)) return w;
    for (var round = 0; round < maxRounds; round++) {
      if (protectedWords.indexOf(w) !== -1) break;
      var stem = stripOnce(w);
      if (stem === null) break;
      w = stem;
    }
    return w;
  };
};
"""

_JS_COMBINED = """
var Stemmer = function() {
  var korean = new KoreanStemmer();
  var porter = (typeof PorterStemmer === "function") ? new PorterStemmer() : null;
  this.stemWord = function(w) {
    if (w.normalize) w = w.normalize("NFC");
    if (korean.hasHangul(w)) {
      var s = korean.stemWord(w);
      if (korean.hasHangul(s) || porter === null) return s;
      return porter.stemWord(s);
    }
    return porter === null ? w : porter.stemWord(w);
  };
};
"""


def _porter_js() -> str:
    """Sphinx에 들어 있는 영어 Porter 어간 추출기를 ``PorterStemmer`` 라는 이름으로."""
    code = SearchEnglish.js_stemmer_code
    renamed = code.replace("var Stemmer = function", "var PorterStemmer = function", 1)
    return renamed if renamed != code else ""  # 모양이 바뀐 Sphinx: 영어 어간 추출 없이


def build_js_stemmer() -> str:
    rules = json.dumps([list(r) for r in RULES], ensure_ascii=True)
    protected = json.dumps(sorted(PROTECTED), ensure_ascii=True)
    korean = _JS_KOREAN % {"rules": rules, "protected": protected, "max_rounds": MAX_ROUNDS}
    return _porter_js() + korean + _JS_COMBINED


class SearchKorean(SearchEnglish):
    """한국어 검색 언어: 어절 단위로 나누고 조사·어미를 뗀 꼴도 색인한다.

    영어 낱말은 :class:`~sphinx.search.en.SearchEnglish` 처럼 Porter 어간을 쓰고,
    영어 불용어(the, of ...)도 그대로 물려받는다.
    """

    lang = "ko"
    language_name = "Korean"
    js_stemmer_code = build_js_stemmer()
    # js_stemmer_rawcode 는 Sphinx 안의 snowball 파일 이름만 가리킬 수 있으므로 쓰지 않는다.
    js_stemmer_rawcode = ""

    def split(self, input: str) -> list[str]:
        words: list[str] = []
        for token in _WORD_RE.findall(unicodedata.normalize("NFC", input)):
            words.extend(korean_forms(token))
        return words

    def stem(self, word: str) -> str:
        if _HANGUL_RE.search(word):
            return word.lower()  # 조사 떼기는 split 에서 이미 했다 (원래 꼴도 남긴다)
        return super().stem(word)

    def word_filter(self, word: str) -> bool:
        return bool(word) and super().word_filter(word)


def setup(app: Any) -> dict[str, Any]:
    app.add_search_language(SearchKorean)
    return {
        "version": __version__,
        # 규칙이 바뀌면 올린다: 저장된 환경(검색 색인 포함)을 새로 만들게 한다.
        "env_version": 1,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
