"""책 도구: 계산한 값을 쪽의 글에 넣는 일(glue)과 그 글을 다듬는 도우미.

장 노트북에서 이 모듈은 **숨긴 글 셀**(태그 ``prose``: 웹사이트에서 지우고 Colab판에서 빼는 셀)만 씁니다. 학생이 읽는
코드는 가르치는 API(`bertlab`)만 씁니다.

`glue`는 myst-nb가 있으면(책을 빌드할 때) myst-nb의 glue를 부르고, 없으면(Colab, myst-nb 없는 Jupyter) 값을 이 모듈의
`GLUED`에만 남기고 아무것도 출력하지 않습니다. 그래서 같은 노트북이 책 빌드에서도, 빌드 도구가 없는 환경에서도 끝까지 돕니다.
"""

from __future__ import annotations

from typing import Any

from .korean import has_batchim, josa

__all__ = ["glue", "GLUED", "josa", "has_batchim", "pct", "pp", "num"]

GLUED: dict[str, Any] = {}


def glue(name: str, value: Any, display: bool = False) -> None:
    """`name`으로 값을 붙여 둡니다. 마크다운에서 ``{glue:text}`name``` 으로 씁니다."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"glue 이름은 빈 문자열이 아닌 str이어야 합니다 (받은 값: {name!r}).")
    GLUED[name] = value
    try:
        from myst_nb import glue as myst_glue
    except ImportError:  # Colab·보통 Jupyter: 책이 아니므로 붙일 곳이 없다
        return
    myst_glue(name, value, display=display)


def pct(x: float, digits: int = 1) -> str:
    """비율을 백분율 글로: 0.658 → '65.8%'(용어집: 숫자에 기호를 붙여 씀)."""
    return f"{100 * x:.{digits}f}%"


def pp(x: float, digits: int = 1) -> str:
    """백분율 포인트의 차이(부호 없이): 0.043 → '4.3%p'."""
    return f"{abs(100 * x):.{digits}f}%p"


def num(x: float, digits: int = 3) -> str:
    """소수를 정해진 자릿수로(파이썬 float의 긴 꼬리 없이): 0.08900000154 → '0.089'."""
    return f"{x:.{digits}f}"
