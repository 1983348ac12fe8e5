#!/usr/bin/env bash
# 웹사이트 빌드: 모든 노트북을 번들 미니 BERT로 실행해 _build/html 에 정적 사이트를 만듭니다. 오프라인에서 돕니다.
#   bash scripts/build-book.sh             # 강사판(풀이 포함): _build/html
#   bash scripts/build-book.sh --student   # 학생판(풀이·강사용 쪽 없음): _build/student/html
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ "${1:-}" = --student ]; then
  export BERTLAB_MODEL=${BERTLAB_MODEL:-mini} TOKENIZERS_PARALLELISM=false MPLBACKEND=${MPLBACKEND:-Agg} HF_HUB_OFFLINE=1
  src=_build/student-src
  .venv/bin/python -m bertlab.course.student prepare "$src"
  (cd "$src" && ../../.venv/bin/jupyter-book build . -W -n --keep-going)
  rm -rf _build/student && mkdir -p _build/student
  cp -r "$src/_build/html" _build/student/html
  cp -r "$src/_build/jupyter_execute" _build/student/jupyter_execute
  .venv/bin/python scripts/check_site.py _build/student/html
  # 풀이 글이 HTML, 검색 색인, 내려받는 원본(_sources)에 남았으면 실패한다
  .venv/bin/python -m bertlab.course.student check _build/student/html
  echo "완료: _build/student/html/index.html"
  exit 0
fi
# 서버처럼 MPLBACKEND=Agg여도 그림이 남는다: bl.setup()이 커널 안에서는 inline 백엔드를 켜고, check_site.py가 그림 셀을 확인한다
export BERTLAB_MODEL=${BERTLAB_MODEL:-mini} TOKENIZERS_PARALLELISM=false MPLBACKEND=${MPLBACKEND:-Agg}
if [ "${BERTLAB_MODEL}" = mini ]; then export HF_HUB_OFFLINE=1; fi
.venv/bin/jupyter-book build . -W -n --keep-going
# 강의 슬라이드(_build/html/slides)와 인쇄판 PDF(_build/pdf, 사이트의 내려받기 메뉴에도): 같은 실행 결과에서 만든다.
# 데비안 chromium·fonts-nanum·poppler-utils·npm이 필요하다(root면 설치). 설치할 수 없으면 경고하고 이 둘만 건너뛴다.
need=()
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || need+=(chromium)
fc-list :lang=ko 2>/dev/null | grep -qi nanum || need+=(fonts-nanum)
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
command -v npm >/dev/null 2>&1 || [ -f "${BERTLAB_NPM_CACHE:-$HOME/.cache/bertlab/npm}/reveal.js-6.0.2.tgz" ] || need+=(npm)
if [ ${#need[@]} -gt 0 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "설치합니다: ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null && need=()
fi
if [ ${#need[@]} -eq 0 ]; then
  rm -rf _build/html/slides
  bash scripts/build-slides.sh _build/html/slides
  bash scripts/build-pdf.sh
else
  echo "경고: ${need[*]}이(가) 없어 슬라이드와 PDF를 건너뜁니다(apt-get install ${need[*]})." >&2
fi
# 빌드한 사이트에 기계 경로나 다른 호스트에서 불러오는 파일이 있으면 실패한다
.venv/bin/python scripts/check_site.py _build/html
echo "완료: _build/html/index.html"
