#!/usr/bin/env bash
# 가상환경(.venv)을 만들고 requirements.txt를 설치합니다. 이미 같은 내용으로 설치되어 있으면 건너뜁니다.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
  echo "Python 3.10 이상이 필요합니다 ($("$PY" --version))." >&2
  exit 1
fi
[ -x .venv/bin/python ] || "$PY" -m venv .venv
stamp=.venv/.requirements.sha
want=$(cat requirements.txt pyproject.toml | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
  echo "$want" > "$stamp"
fi
# 검색·실습실의 자바스크립트 시험은 node(18 이상)로 돈다. 없으면 데비안 패키지로 설치(root일 때).
if ! command -v node >/dev/null 2>&1 && ! command -v nodejs >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs >/dev/null
  else
    echo "node가 없습니다: apt-get install nodejs (또는 node 18 이상)를 설치하세요." >&2
  fi
fi
