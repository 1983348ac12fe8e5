#!/usr/bin/env bash
# 웹사이트 빌드: 모든 노트북을 번들 미니 BERT로 실행해 _build/html 에 정적 사이트를 만듭니다. 오프라인에서 돕니다.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# 서버처럼 MPLBACKEND=Agg여도 그림이 남는다: bl.setup()이 커널 안에서는 inline 백엔드를 켜고, check_site.py가 그림 셀을 확인한다
export BERTLAB_MODEL=${BERTLAB_MODEL:-mini} TOKENIZERS_PARALLELISM=false MPLBACKEND=${MPLBACKEND:-Agg}
if [ "${BERTLAB_MODEL}" = mini ]; then export HF_HUB_OFFLINE=1; fi
.venv/bin/jupyter-book build . -W -n --keep-going
# 빌드한 사이트에 기계 경로나 다른 호스트에서 불러오는 파일이 있으면 실패한다
.venv/bin/python scripts/check_site.py _build/html
echo "완료: _build/html/index.html"
