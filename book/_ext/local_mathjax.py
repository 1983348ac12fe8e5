"""MathJax 3을 CDN이 아니라 이 사이트에서 내보내는 작은 Sphinx 확장.

MathJax 파일은 PyPI의 ``sphinx-mathjax-offline``(MathJax 3.2.2를 통째로 싣고 있음, requirements.txt에 고정)에서
가져오되, 그 확장 자체는 켜지 않습니다: 그 확장은 배포본 전체(약 24 MB)를 복사하기 때문입니다. 여기서는 필요한 것만
``_build/html/_static/mathjax/``에 복사합니다.

- ``tex-mml-chtml.js``: TeX 입력 + CommonHTML 출력 컴포넌트(1.2 MB). 이 책의 수식(amsmath, dollarmath)에 필요한 TeX
  확장이 이미 들어 있습니다.
- ``output/chtml/fonts/woff-v2/``: CommonHTML 글꼴(0.4 MB). MathJax는 스크립트가 있는 폴더를 기준으로 이 글꼴을 찾습니다.
- ``input/tex/extensions/``: 컴포넌트에 들어 있지 않아 쓸 때 불러오는(autoload) TeX 확장(0.55 MB; 예: 2장의 ``\boldsymbol``).
  없으면 그런 매크로가 있는 쪽에서 404가 나고 수식이 깨집니다.

``mathjax_path``는 ``_static`` 기준의 상대 경로로 정하므로 어느 페이지에서든, ``file://``로 열어도 같은 파일을 씁니다.
``mathjax3_config``는 Jupyter Book(myst-nb)이 정한 것을 그대로 둡니다.
"""

from __future__ import annotations

import shutil
from importlib import metadata
from pathlib import Path

DIST = "sphinx-mathjax-offline"
COMPONENT = "tex-mml-chtml.js"
FONTS = Path("output") / "chtml" / "fonts" / "woff-v2"
TEX_EXTENSIONS = Path("input") / "tex" / "extensions"
MATHJAX_PATH = "mathjax/" + COMPONENT


def mathjax_source() -> Path:
    """설치된 sphinx-mathjax-offline 안의 MathJax 폴더. 없으면 설치 방법을 알리는 한국어 오류."""
    try:
        files = metadata.files(DIST) or []
    except metadata.PackageNotFoundError as err:
        raise FileNotFoundError(
            f"{DIST}가 설치되어 있지 않습니다. `bash scripts/setup.sh`(requirements.txt)로 설치하세요."
        ) from err
    for f in files:
        if f.name == COMPONENT and f.parent.name == "mathjax":
            return Path(f.locate()).parent
    raise FileNotFoundError(f"{DIST} 안에서 MathJax 컴포넌트 {COMPONENT}를 찾지 못했습니다.")


def copy_mathjax(target: Path) -> list[Path]:
    """컴포넌트, 글꼴, TeX 확장만 `target`(= _static/mathjax)에 복사하고, 복사한 파일 목록을 돌려줍니다."""
    src = mathjax_source()
    target.mkdir(parents=True, exist_ok=True)
    copied = [Path(shutil.copy2(src / COMPONENT, target / COMPONENT))]
    fonts = target / FONTS
    fonts.mkdir(parents=True, exist_ok=True)
    for font in sorted((src / FONTS).glob("*.woff")):
        copied.append(Path(shutil.copy2(font, fonts / font.name)))
    extensions = target / TEX_EXTENSIONS
    extensions.mkdir(parents=True, exist_ok=True)
    for ext in sorted((src / TEX_EXTENSIONS).glob("*.js")):
        copied.append(Path(shutil.copy2(ext, extensions / ext.name)))
    return copied


def _config_inited(app, config) -> None:
    config.mathjax_path = MATHJAX_PATH


def _build_finished(app, exc) -> None:
    if exc is None and app.builder.format == "html":
        copy_mathjax(Path(app.outdir) / "_static" / "mathjax")


def setup(app):
    mathjax_source()  # 빌드를 시작하기 전에 파일이 있는지 확인한다
    app.connect("config-inited", _config_inited)
    app.connect("build-finished", _build_finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
