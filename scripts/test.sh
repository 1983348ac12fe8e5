#!/usr/bin/env bash
# 전체 테스트: bertlab 단위 테스트(pytest tests/)와 모든 노트북 실행(nbval), 그리고 Colab처럼 생긴 환경(Python 3.12, 빌드
# 도구 없음)에서 1·3·6장과 연습 노트북 실행(scripts/colab-test.sh --ci). 오프라인에서 돕니다.
# 인자를 주면(예: -k 03_attention) pytest에만 넘기고 Colab 시험은 건너뜁니다.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export BERTLAB_MODEL=${BERTLAB_MODEL:-mini} HF_HUB_OFFLINE=1 MPLBACKEND=Agg TOKENIZERS_PARALLELISM=false
# 코어가 둘 이상이면 pytest-xdist로 나눠 돌린다(노트북 하나의 셀들은 한 작업자에게: --dist loadfile). 작업자마다 torch
# 스레드는 하나로 두어 서로 코어를 빼앗지 않게 한다. 숫자는 같은 시드에서 같은 검사를 통과한다(허용 오차 안).
workers=$(( $(nproc 2>/dev/null || echo 1) < 4 ? $(nproc 2>/dev/null || echo 1) : 4 ))
xdist=()
if [ "$workers" -ge 2 ]; then
  xdist=(-n "$workers" --dist loadfile)
  export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
fi
.venv/bin/python -m pytest -p no:cacheprovider "${xdist[@]}" "$@" tests/ notebooks/ --nbval-lax --nbval-current-env
unset OMP_NUM_THREADS MKL_NUM_THREADS
if [ $# -eq 0 ]; then
  rc=0; bash scripts/colab-test.sh --ci || rc=$?
  if [ "$rc" -eq 2 ]; then
    echo "경고: Python 3.12이 없어 Colab처럼 생긴 환경의 시험을 건너뛰었습니다(scripts/colab-test.sh 참고)." >&2
  elif [ "$rc" -ne 0 ]; then
    exit "$rc"
  fi
fi
