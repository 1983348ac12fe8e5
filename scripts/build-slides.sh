#!/usr/bin/env bash
# 강의 슬라이드: 빌드한 웹사이트(_build/html)와 실행한 노트북(_build/jupyter_execute)에서 장마다 reveal.js 덱을 만듭니다.
#   bash scripts/build-slides.sh OUT              # OUT/NN_name.html 9개 + OUT/index.html + OUT/_deck/(reveal.js, MathJax, 글꼴, 그림)
#   bash scripts/build-slides.sh OUT 03_attention # 덱 하나만
# 책이 빌드되어 있지 않으면 먼저 빌드합니다(scripts/build-book.sh). 덱은 file://로 열리고 다른 호스트에서 아무것도 불러오지 않습니다.
# reveal.js는 npm 패키지를 버전과 해시로 고정해 한 번만 받습니다(~/.cache/bertlab/npm). 받아 둔 것이 있으면 인터넷이 필요 없습니다.
# 무엇을 보일지는 book/slides/*.yml(장마다 개요 파일)이 정합니다. 자세한 설명은 bertlab/course/slides.py 첫머리에 있습니다.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?"사용법: bash scripts/build-slides.sh OUT [덱 이름 ...]"}
shift
REVEAL_VERSION=6.0.2
REVEAL_SHA256=2f0c20bfb02447a198a1ebe8a8c097a5437d035caa38f2820bf4ba887a3eac91
bash scripts/setup.sh
if [ ! -f _build/html/index.html ] || [ ! -d _build/jupyter_execute ]; then
  bash scripts/build-book.sh
fi

cache=${BERTLAB_NPM_CACHE:-$HOME/.cache/bertlab/npm}
tgz=$cache/reveal.js-$REVEAL_VERSION.tgz
if [ ! -f "$tgz" ] || ! echo "$REVEAL_SHA256  $tgz" | sha256sum -c --status; then
  command -v npm >/dev/null 2>&1 || { echo "npm이 없습니다: apt-get install npm (reveal.js $REVEAL_VERSION을 한 번 받는 데만 씁니다)" >&2; exit 1; }
  mkdir -p "$cache"
  (cd "$cache" && npm pack --silent "reveal.js@$REVEAL_VERSION" >/dev/null)
  echo "$REVEAL_SHA256  $tgz" | sha256sum -c --status || { echo "reveal.js $REVEAL_VERSION의 해시가 고정한 값과 다릅니다: $tgz" >&2; exit 1; }
fi
reveal=_build/vendor/reveal.js-$REVEAL_VERSION
if [ ! -f "$reveal/dist/reveal.js" ]; then
  rm -rf "$reveal" && mkdir -p "$reveal"
  tar -xzf "$tgz" -C "$reveal" --strip-components=1 package
fi

args=()
if [ $# -gt 0 ]; then args=(--only "$@"); fi
.venv/bin/python -m bertlab.course.slides "$out" --reveal "$reveal" "${args[@]}"
