#!/usr/bin/env bash
# 전체 테스트: bertlab 단위 테스트(pytest tests/)와 모든 노트북 실행(nbval), 그리고 Colab처럼 생긴 환경(Python 3.12, 빌드
# 도구 없음)에서 1·3·6장과 연습 노트북 실행(scripts/colab-test.sh --ci). 오프라인에서 돕니다.
# 인자를 주면(예: -k 03_attention) pytest에만 넘기고 Colab 시험은 건너뜁니다.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export BERTLAB_MODEL=${BERTLAB_MODEL:-mini} HF_HUB_OFFLINE=1 MPLBACKEND=Agg TOKENIZERS_PARALLELISM=false
.venv/bin/python -m pytest -p no:cacheprovider "$@" tests/ notebooks/ --nbval-lax --nbval-current-env
if [ $# -eq 0 ]; then
  rc=0; bash scripts/colab-test.sh --ci || rc=$?
  if [ "$rc" -eq 2 ]; then
    echo "경고: Python 3.12이 없어 Colab처럼 생긴 환경의 시험을 건너뛰었습니다(scripts/colab-test.sh 참고)." >&2
  elif [ "$rc" -ne 0 ]; then
    exit "$rc"
  fi
fi
