#!/usr/bin/env bash
# 전체 테스트: bertlab 단위 테스트(pytest tests/)와 모든 노트북 실행(nbval). 오프라인에서 돕니다.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export BERTLAB_MODEL=${BERTLAB_MODEL:-mini} HF_HUB_OFFLINE=1 MPLBACKEND=Agg TOKENIZERS_PARALLELISM=false
.venv/bin/python -m pytest -p no:cacheprovider "$@" tests/ notebooks/ --nbval-lax --nbval-current-env
