"""실행 환경 준비: 시드, 결정적 연산, 한글 글꼴, pandas 표시 옵션 (모든 장의 첫 셀).

`setup()`은 transformers를 불러오지 않습니다. 모델 선택(온라인/오프라인)은 `bertlab.models`가 합니다.
"""

from __future__ import annotations

import importlib.util
import os
import platform
import random
import sys
import warnings
from pathlib import Path

KOREAN_FONT = "NanumGothic"
# DejaVu Sans를 앞에 두어 마이너스 기호(−)와 라틴 문자는 DejaVu로, 한글은 NanumGothic으로 그린다.
FONT_FAMILY = ["DejaVu Sans", KOREAN_FONT]


def in_colab() -> bool:
    """Google Colab 안에서 실행 중이면 True."""
    return "google.colab" in sys.modules


def korean_font_path() -> Path:
    """한글 글꼴(NanumGothic, SIL OFL) 파일의 경로.

    koreanize-matplotlib 패키지가 싣고 있는 글꼴 파일을 씁니다. 그 패키지를 import하면
    rcParams가 바뀌는 부작용이 있으므로 import하지 않고 파일 위치만 찾습니다.
    Debian의 fonts-nanum이 깔려 있으면 그것도 후보입니다.
    """
    candidates = []
    spec = importlib.util.find_spec("koreanize_matplotlib")
    if spec is not None and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            candidates.append(Path(loc) / "fonts" / "NanumGothic.ttf")
    candidates.append(Path("/usr/share/fonts/truetype/nanum/NanumGothic.ttf"))
    for path in candidates:
        if path.is_file():
            return path
    raise FileNotFoundError(
        "한글 글꼴 NanumGothic.ttf를 찾지 못했습니다. "
        "`pip install koreanize-matplotlib` 또는 `apt-get install fonts-nanum`으로 설치하세요."
    )


def register_korean_font() -> str:
    """matplotlib에 한글 글꼴을 등록하고 기본 글꼴 목록을 정합니다. 등록한 글꼴 이름을 돌려줍니다."""
    import matplotlib as mpl
    from matplotlib import font_manager

    path = korean_font_path()
    font_manager.fontManager.addfont(str(path))
    # font.family에 목록을 직접 주어야 글자별 대체(fallback)가 일어난다(한글은 NanumGothic으로)
    mpl.rcParams["font.family"] = FONT_FAMILY
    mpl.rcParams["font.sans-serif"] = FONT_FAMILY + [
        f for f in mpl.rcParams["font.sans-serif"] if f not in FONT_FAMILY
    ]
    mpl.rcParams["axes.unicode_minus"] = True
    return font_manager.FontProperties(fname=str(path)).get_name()


def inline_figures() -> bool:
    """Jupyter 커널 안이면 그림을 셀 출력으로 내보내는 inline 백엔드를 씁니다. 바꿨으면 True.

    서버와 CI 이미지는 흔히 `MPLBACKEND=Agg`를 정해 두는데, 커널이 그 값을 물려받으면 `plt.show()`가 아무것도 내보내지
    않아 책과 노트북에서 그림이 조용히 사라집니다. 커널 밖(보통 파이썬, pytest)에서는 아무것도 바꾸지 않습니다.
    """
    ip = sys.modules.get("IPython")
    ip = ip.get_ipython() if ip is not None and hasattr(ip, "get_ipython") else None
    if ip is None or not hasattr(ip, "kernel"):
        return False
    import matplotlib

    if matplotlib.get_backend().lower() != "agg":
        return False
    ip.run_line_magic("matplotlib", "inline")
    return True


def seed_everything(seed: int = 0) -> None:
    """random, numpy, torch의 시드를 고정하고 결정적 연산을 켭니다."""
    import numpy as np
    import torch

    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True, warn_only=True)
    if torch.backends.cudnn.is_available():
        torch.backends.cudnn.benchmark = False


def show_source(obj) -> None:
    """패키지 함수·클래스의 소스를 노트북에 보여 줍니다: 장이 설명한 코드와 패키지의 코드가 늘 한 벌이 되도록(d2l 방식).

    노트북 밖(보통 파이썬)에서는 소스를 그대로 출력합니다.
    """
    import inspect

    src = inspect.getsource(obj)
    try:
        from IPython.display import Code, display
    except ImportError:  # IPython 없이
        print(src)
        return
    display(Code(src, language="python"))


SETUP_INFO: dict = {}


def setup(seed: int = 0, quiet: bool = False) -> None:
    """노트북 첫 셀에서 부르는 준비 함수.

    - 시드 고정(random, numpy, torch)과 결정적 연산
    - matplotlib 한글 글꼴 등록(마이너스 기호가 깨지지 않도록 DejaVu Sans와 함께)
    - pandas 표시 옵션(소수 셋째 자리, 넓은 표)
    - 사용할 모델과 라이브러리 버전을 짧게 출력

    출력한 정보는 `bertlab.env.SETUP_INFO`에 남습니다(노트북 셀의 마지막 줄이어도 아무것도 표시되지 않도록 None을 돌려줌).
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed는 정수여야 합니다 (받은 값: {seed!r}).")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    # ipywidgets가 없는 노트북에서 transformers가 tqdm.auto를 불러올 때 나는 경고(출력만 어지럽힘)
    warnings.filterwarnings("ignore", message="IProgress not found")
    seed_everything(seed)
    inline_figures()  # 글꼴과 rcParams보다 먼저: inline 백엔드는 켜질 때 자기 rcParams를 정한다

    import matplotlib as mpl
    import pandas as pd
    import torch

    font = register_korean_font()
    mpl.rcParams["figure.dpi"] = 100
    mpl.rcParams["savefig.dpi"] = 120
    mpl.rcParams["figure.figsize"] = (6.4, 4.0)
    pd.set_option("display.precision", 3)
    pd.set_option("display.width", 120)
    pd.set_option("display.max_columns", 30)

    from . import models

    choice = models.model_choice_line()
    info = SETUP_INFO
    info.clear()
    info.update({
        "seed": seed,
        "model": choice,
        "python": platform.python_version(),
        "torch": torch.__version__,
        "transformers": models.transformers_version(),
        "font": font,
        "colab": in_colab(),
    })
    if not quiet:
        print(f"bertlab 준비 완료 · seed={seed} · 글꼴={font}")
        print(f"모델: {choice}")
        print(
            f"Python {info['python']} · torch {info['torch']} · transformers {info['transformers']}"
            + (" · Colab" if info["colab"] else "")
        )
