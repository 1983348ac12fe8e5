#!/usr/bin/env bash
# 호환성 시험(선택): 더 오래된 버전 묶음(requirements-compat.txt: pandas 2.2, transformers 5.15,
# matplotlib 3.10.0, numpy 2.2, 같은 torch 2.13.0)을 따로 된 가상환경 .venv-compat에 설치하고
# 노트북을 nbval로 실행합니다. 오프라인(번들 미니 BERT)에서 돕니다.
#   bash scripts/compat-test.sh                                   # 모든 노트북
#   bash scripts/compat-test.sh notebooks/01_tokenization.ipynb   # 고른 노트북만
#   bash scripts/compat-test.sh --durations=5                     # pytest 옵션만 주면 모든 노트북
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=.venv-compat
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
stamp="$VENV/.requirements.sha"
want=$(cat requirements-compat.txt pyproject.toml | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r requirements-compat.txt
  echo "$want" > "$stamp"
fi
"$VENV/bin/python" - <<'PY'
import sys, importlib.metadata as md
names = ["torch", "transformers", "tokenizers", "numpy", "pandas", "scipy", "matplotlib"]
print("호환성 시험 환경: Python " + sys.version.split()[0] + " · " + " · ".join(f"{n} {md.version(n)}" for n in names))
PY
export BERTLAB_MODEL=mini HF_HUB_OFFLINE=1 MPLBACKEND=Agg TOKENIZERS_PARALLELISM=false
# 인자 가운데 있는 파일·폴더가 없으면(옵션만 주었으면) 노트북 폴더 전체를 시험합니다.
has_path=0
for arg in "$@"; do [ -e "$arg" ] && has_path=1; done
[ $has_path -eq 1 ] || set -- "$@" notebooks/
exec "$VENV/bin/python" -m pytest -p no:cacheprovider -q "$@" --nbval-lax --nbval-current-env
