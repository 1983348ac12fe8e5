#!/usr/bin/env bash
# Colab처럼 생긴 환경에서 Colab판 노트북 시험: Python 3.12 가상환경에 `pip install .`과 Colab이 미리 깔아 두는 것
# (requirements-colab.txt)만 설치하고, 만든 Colab판 장과 연습 노트북을 그 커널로 처음부터 끝까지 실행합니다.
# 빌드 도구(myst-nb, jupyter-book, Sphinx, nbval)는 그 환경에 없습니다. 네트워크는 막습니다(HTTP 프록시를 닫힌 포트로).
#   bash scripts/colab-test.sh                 # 모든 장과 모든 연습 노트북, 그리고 mBERT 오프라인 안내·12층 모델 시험
#   bash scripts/colab-test.sh --ci            # CI의 부분집합: 1·3·6장(빠른 설정)과 모든 연습 노트북, mBERT 안내, 12층 모델은 첫 장만
#   bash scripts/colab-test.sh --chapters 01_tokenization
# 가상환경은 의존성 목록의 해시로 이름 지은 캐시 폴더(${XDG_CACHE_HOME:-~/.cache}/bertlab/)에 두고 다시 씁니다. bertlab 자신은
# 실행할 때마다 이 저장소의 것으로 다시 설치합니다(의존성은 그대로).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

find_python312() {
  for cand in "${COLAB_PYTHON:-}" python3.12 "$HOME/.pyenv/versions/3.12"*/bin/python3.12 /usr/local/bin/python3.12 /usr/bin/python3.12; do
    [ -n "$cand" ] || continue
    if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' 2>/dev/null; then
      command -v "$cand"; return 0
    fi
  done
  if command -v uv >/dev/null 2>&1; then uv python find 3.12 2>/dev/null && return 0; fi
  return 1
}
PY312=$(find_python312) || { echo "Python 3.12이 없습니다(Colab의 버전). pyenv나 uv로 설치하거나 COLAB_PYTHON에 경로를 주세요." >&2; exit 2; }

deps=$( (cat requirements-colab.txt; sed -n '/^dependencies/,/^\]/p' pyproject.toml; "$PY312" --version) | sha256sum | cut -c1-12)
VENV=${BERTLAB_COLAB_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/bertlab/colab-py312-$deps}
if [ ! -f "$VENV/.complete" ]; then
  rm -rf "$VENV"
  start=$(date +%s)
  "$PY312" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r requirements-colab.txt . 2>&1 | sed "/^WARNING: Location/d"
  touch "$VENV/.complete"
  echo "Colab 환경을 만들었습니다: $VENV ($(( $(date +%s) - start ))초)"
else
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps --force-reinstall . 2>&1 | sed "/^WARNING: Location/d"
fi
# 빌드 도구가 정말 없는지 먼저 확인한다
"$VENV/bin/python" - <<'PY'
import importlib.util, sys
found = [m for m in ("myst_nb", "jupyter_book", "sphinx", "nbval", "jupyter_cache") if importlib.util.find_spec(m)]
if found:
    sys.exit(f"Colab 환경에 빌드 도구가 있습니다: {found}")
print(f"Colab 환경: Python {sys.version.split()[0]}, 빌드 도구 없음")
PY
exec .venv/bin/python scripts/colab_test.py --python "$VENV/bin/python" "$@"
