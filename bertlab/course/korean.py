"""한국어 글자 도우미: 받침 판별과 받침에 맞는 조사 붙이기. 책 도구(쪽의 글을 만드는 `prose`)와 미니 BERT 공장의
말뭉치 생성기가 씁니다. 학생이 쓰는 가르치는 API가 아닙니다.

계산한 값을 문장에 넣을 때는 조사의 꼴이 값에 따라 달라지므로(2로, 3으로) 값 뒤에 조사를 직접 쓰지 않고
`josa`로 붙입니다. 미니 BERT의 말뭉치 생성기(`bertlab.minibert.templates`)도 이것을 씁니다.
"""

from __future__ import annotations

__all__ = ["josa", "has_batchim"]

_HANGUL_FIRST, _HANGUL_LAST = 0xAC00, 0xD7A3
_RIEUL = 8  # 종성 번호: ㄹ
# 숫자를 읽었을 때 끝소리: 0 영, 1 일, 2 이, 3 삼, 4 사, 5 오, 6 육, 7 칠, 8 팔, 9 구
_DIGIT_JONG = {"0": 21, "1": 8, "2": 0, "3": 16, "4": 0, "5": 0, "6": 1, "7": 8, "8": 8, "9": 0}

# 받침 있을 때 / 없을 때
_PAIRS = {
    frozenset(("이", "가")): ("이", "가"),
    frozenset(("을", "를")): ("을", "를"),
    frozenset(("은", "는")): ("은", "는"),
    frozenset(("과", "와")): ("과", "와"),
    frozenset(("으로", "로")): ("으로", "로"),
    frozenset(("이랑", "랑")): ("이랑", "랑"),
    frozenset(("이나", "나")): ("이나", "나"),
    frozenset(("아", "야")): ("아", "야"),
    frozenset(("이에요", "예요")): ("이에요", "예요"),
    frozenset(("이라고", "라고")): ("이라고", "라고"),
    frozenset(("이라는", "라는")): ("이라는", "라는"),
}


def _jong(word: str) -> int:
    """마지막 글자의 종성 번호(0 = 받침 없음). 한글도 숫자도 아니면 0."""
    word = word.rstrip(" )\"'")
    if not word:
        return 0
    ch = word[-1]
    code = ord(ch)
    if _HANGUL_FIRST <= code <= _HANGUL_LAST:
        return (code - _HANGUL_FIRST) % 28
    return _DIGIT_JONG.get(ch, 0)


def has_batchim(word: str) -> bool:
    """마지막 음절에 받침이 있는가: (코드 - 0xAC00) % 28 != 0."""
    return _jong(word) != 0


def josa(word: str, pair: str) -> str:
    """`word`에 받침에 맞는 조사를 붙여 돌려줍니다.

    `pair`는 "이/가", "을/를", "은/는", "과/와", "으로/로" 같은 짝(순서는 상관없음).
    "으로/로"는 받침이 없거나 ㄹ 받침이면 "로"입니다(서울로, 지하철로, 집으로).

    >>> josa("사과", "을/를"), josa("물", "을/를"), josa("서울", "으로/로"), josa("동생", "과/와")
    ('사과를', '물을', '서울로', '동생과')
    """
    forms = frozenset(pair.split("/"))
    if forms not in _PAIRS:
        raise ValueError(f"모르는 조사 짝: {pair!r}")
    with_b, without_b = _PAIRS[forms]
    jong = _jong(word)
    if with_b == "으로":
        return word + ("로" if jong in (0, _RIEUL) else "으로")
    return word + (with_b if jong else without_b)
