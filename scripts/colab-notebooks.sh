#!/usr/bin/env bash
# Colab용 노트북 만들기: notebooks/의 장마다 MyST를 보통 마크다운으로 바꾸고, glue 값을 번들 미니 BERT로 실행해 얻은
# 값으로 채운 노트북을 OUT에, 풀이를 지운 연습용 판을 OUT/exercises/에 씁니다. 만든 노트북은 손으로 고치지 않습니다.
#   bash scripts/colab-notebooks.sh OUT
# 배포 워크플로(.github/workflows/deploy.yml)가 이것을 colab 브랜치의 notebooks/에 올리고, 웹사이트의 Colab 버튼이 그곳을 엽니다.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 1 ]; then
  echo "쓰는 법: bash scripts/colab-notebooks.sh OUT_DIR" >&2
  exit 2
fi
bash scripts/setup.sh
export TOKENIZERS_PARALLELISM=false HF_HUB_OFFLINE=1 MPLBACKEND=Agg
.venv/bin/python -m bertlab.course.colab "$1"
