"""책을 만드는 도구 (학생의 API가 아닙니다): 장 노트북에서 다른 판을 만들어 냅니다.

- `exercises`: 풀이를 지운 수업용 연습 노트북. ``python -m bertlab.course.exercises``.
- `colab`: MyST를 보통 마크다운으로 바꾸고 glue 값을 채운 Colab판 노트북. ``bash scripts/colab-notebooks.sh OUT``.
- `prose`: 계산한 값을 쪽의 글에 넣는 `glue`(myst-nb가 없으면 조용히 건너뜀)와 글 도우미. 장의 숨긴 글 셀만 씁니다.
"""

from .. import lazy_submodules

_SUBMODULES = {"exercises", "colab", "prose", "grade", "student"}
__getattr__ = lazy_submodules(__name__, _SUBMODULES, globals())
