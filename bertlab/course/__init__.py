"""책을 만드는 도구 (학생의 API가 아닙니다): 장 노트북에서 다른 판을 만들어 냅니다.

- `exercises`: 풀이를 지운 수업용 연습 노트북. ``python -m bertlab.course.exercises``.
"""

import importlib

_SUBMODULES = {"exercises"}


def __getattr__(name: str):
    # 처음 쓸 때 불러옵니다(`bl.minibert.modelcard`처럼 점으로 닿을 수 있게).
    if name in _SUBMODULES:
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
