"""책을 만드는 도구 (학생의 API가 아닙니다): 장 노트북에서 다른 판을 만들어 냅니다.

- `exercises`: 풀이를 지운 수업용 연습 노트북. ``python -m bertlab.course.exercises``.
- `colab`: MyST를 보통 마크다운으로 바꾸고 glue 값을 채운 Colab판 노트북. ``bash scripts/colab-notebooks.sh OUT``.
- `prose`: 계산한 값을 쪽의 글에 넣는 `glue`(myst-nb가 없으면 조용히 건너뜀)와 글 도우미. 장의 숨긴 글 셀만 씁니다.
- `korean`: 받침에 맞는 조사 붙이기(`josa`). `prose`와 미니 BERT 공장의 말뭉치 생성기가 씁니다.
- `grade`, `student`: 연습 노트북 채점(``python -m bertlab.course.grade``)과 풀이 없는 학생판 웹사이트.
- `slides`, `printbook`: 강의 슬라이드(``bash scripts/build-slides.sh``)와 인쇄판 PDF(``bash scripts/build-pdf.sh``).
  둘 다 빌드한 웹사이트를 `sitepages`로 읽고, 헤드리스 Chromium을 `chromium`으로 움직입니다.
"""

from .. import lazy_submodules

_SUBMODULES = {"exercises", "colab", "prose", "korean", "grade", "student", "slides", "printbook", "sitepages", "chromium"}
__getattr__ = lazy_submodules(__name__, _SUBMODULES, globals())
