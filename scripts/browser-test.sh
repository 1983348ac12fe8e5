#!/usr/bin/env bash
# 브라우저 시험(선택): 빌드한 웹사이트를 헤드리스 Chromium으로 열어 봅니다.
#   bash scripts/browser-test.sh            # _build/html 이 없을 때만 책을 빌드
#   bash scripts/browser-test.sh --build    # 책을 다시 빌드한 뒤 시험
# 필요한 것: 데비안 패키지 chromium, fonts-nanum (없으면 root일 때 apt-get으로 설치), requirements-browser.txt.
# 브라우저를 따로 내려받지 않습니다. 화면은 _build/screenshots/, 요약은 _build/screenshots/browser-report.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
rebuild=0
if [ "${1:-}" = --build ]; then rebuild=1; shift; fi   # 나머지 인자는 pytest로 넘깁니다
if [ $rebuild -eq 1 ] || [ ! -f _build/html/index.html ]; then
  bash scripts/build-book.sh
fi

need=()
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || need+=(chromium)
dpkg -s fonts-nanum >/dev/null 2>&1 || fc-list :lang=ko 2>/dev/null | grep -qi nanum || need+=(fonts-nanum)
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
if [ ${#need[@]} -gt 0 ]; then
  echo "설치합니다: ${need[*]}"
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1 \
     && apt-get update -qq \
     && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"; then
    echo "설치했습니다: ${need[*]}"
  else
    echo "경고: ${need[*]}을(를) 설치하지 못했습니다 (root 권한과 apt-get이 필요합니다: apt-get install ${need[*]})." >&2
    echo "      없는 것에 기대는 시험은 이유를 적고 건너뜁니다." >&2
  fi
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-browser.txt \
  || echo "경고: requirements-browser.txt를 설치하지 못했습니다. 브라우저 시험을 건너뜁니다." >&2

rm -f _build/screenshots/browser-report.txt
set +e
BERTLAB_BROWSER=1 .venv/bin/python -m pytest -p no:cacheprovider -q -rs tests/browser "$@"
rc=$?
set -e
echo
if [ -f _build/screenshots/browser-report.txt ]; then
  cat _build/screenshots/browser-report.txt
fi
[ $rc -eq 0 ] && echo "브라우저 시험 통과" || echo "브라우저 시험 실패 (종료 코드 $rc)"
exit $rc
