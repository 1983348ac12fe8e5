"""bertlab: 한국어 BERT 강의의 도우미 패키지.

노트북은 모두 이렇게 시작합니다::

    import bertlab as bl
    bl.setup()
    tokenizer, model = bl.load_bert()

`import bertlab` 자체는 transformers를 불러오지 않습니다. 허브에 닿을 수 있는지 먼저 판단하고
(`HF_HUB_OFFLINE`을 정한 뒤) transformers를 불러와야 학생이 46~120초짜리 재시도를 겪지 않기 때문입니다.
하위 모듈(`bl.attention`, `bl.viz`, ...)은 처음 쓸 때 불러옵니다.
"""

from __future__ import annotations

import importlib

from .checks import check, points
from .env import in_colab, setup, show_source
from .models import MBERT_ID, MINI_DIR, describe, encode, fill_mask, fill_word, load_bert, load_mlm, resolve

__version__ = "0.1.0"

# 가르치는 API: 장마다 쓰는 모듈. 미니 BERT를 만든 공장은 `bertlab.minibert`, 책 도구는 `bertlab.course`에 따로 있습니다.
_SUBMODULES = {
    "analysis",
    "attention",
    "data",
    "env",
    "models",
    "scratch",
    "senses",
    "train",
    "viz",
    "minibert",
    "course",
}

__all__ = ["setup", "in_colab", "show_source", "check", "points", "load_bert", "load_mlm", "fill_mask", "fill_word", "encode", "resolve", "describe", "MINI_DIR", "MBERT_ID", *sorted(_SUBMODULES)]


def lazy_submodules(package: str, names: set[str], namespace: dict):
    """패키지의 하위 모듈을 처음 쓸 때 불러오는 모듈 수준 ``__getattr__``을 만듭니다(`bl.viz`, `bl.minibert.modelcard`)."""

    def __getattr__(name: str):
        if name in names:
            module = importlib.import_module(f".{name}", package)
            namespace[name] = module
            return module
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


__getattr__ = lazy_submodules(__name__, _SUBMODULES, globals())
