#!/usr/bin/env bash
# 책의 인쇄판 PDF: _build/pdf/korean-bert-course.pdf (표지, 쪽 번호가 붙은 목차와 PDF 책갈피, 모든 장, 풀이 부록).
#   bash scripts/build-pdf.sh                               # 책 전체. 웹사이트의 내려받기 메뉴에도 PDF를 넣는다
#   bash scripts/build-pdf.sh --pages notebooks/03_attention # 한 장만(시험용; 내려받기 메뉴는 건드리지 않음)
#   bash scripts/build-pdf.sh --out 경로.pdf …               # 다른 곳에
# 책이 빌드되어 있지 않으면 먼저 빌드합니다(scripts/build-book.sh). 오프라인에서 돌고, 다른 호스트에 요청하면 실패합니다.
# 필요한 것: 데비안 chromium(scripts/browser-test.sh가 설치하는 것과 같음), poppler-utils(pdftotext: 목차의 쪽 번호),
# requirements-browser.txt(websocket-client: Chromium DevTools 연결).
#
# 길의 선택: Chromium 인쇄 (xelatex + kotex 대신)
# - 스파이크(2026-11-28, 2코어): 3장 한 장을 이 길로 인쇄하면 12초, 26쪽. 책 전체(당시 빌드의 19쪽)는 80초, 196쪽, 16 MB.
#   수식 624개가 모두 조판되고(MathJax 오류 0), 나눔고딕이 들어가며(pdffonts), pdftotext가 '어텐션'·'소프트맥스'를 뽑는다.
# - 웹사이트의 HTML을 그대로 옮기므로 표(pandas의 HTML 표), 그림, 셀 출력, glue 숫자, sphinx-design 드롭다운이 사이트와 같다.
#   LaTeX 길은 myst-nb의 HTML 출력(표, 드롭다운, 숨긴 셀)을 LaTeX로 다시 옮겨야 하고, 그 과정의 차이를 따로 고쳐야 한다.
# - 수식은 사이트가 쓰는 MathJax 사본 하나로 조판한다(TeX 설치가 필요 없음: texlive + kotex는 수백 MB).
# - Chromium은 브라우저 시험이 이미 쓰는 데비안 패키지다. CSS 페이지 미디어(@page의 쪽 번호), 책갈피(generateDocumentOutline)를
#   지원한다. 목차의 쪽 번호는 두 번 인쇄해서 얻는다: 첫 인쇄에서 제목마다 숨은 표지(흐름에 영향 없는 absolute 글)를 넣고
#   pdftotext로 그 쪽을 찾은 뒤, 표지를 빼고 번호를 채워 다시 인쇄한다(목차 칸의 폭이 같으므로 쪽이 바뀌지 않는다).
# 모아 놓은 HTML은 PDF 옆(_build/pdf/korean-bert-course.html)에 남으니, 인쇄 모양을 고칠 때 브라우저로 열어 볼 수 있다.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ ! -f _build/html/index.html ]; then
  bash scripts/build-book.sh
fi
command -v pdftotext >/dev/null 2>&1 || { echo "pdftotext가 없습니다: apt-get install poppler-utils" >&2; exit 1; }
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
  || { echo "chromium이 없습니다: apt-get install chromium fonts-nanum" >&2; exit 1; }
.venv/bin/python -c "import websocket" 2>/dev/null \
  || .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-browser.txt
extra=(--offer-download)
for a in "$@"; do
  if [ "$a" = --pages ] || [ "$a" = --out ]; then extra=(); fi
done
.venv/bin/python -m bertlab.course.printbook "$@" "${extra[@]}"
