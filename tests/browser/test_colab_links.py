"""빌드한 웹사이트의 Colab 실행 버튼: 모든 장의 링크가 _config.yml의 저장소·브랜치를 가리키고, 그 경로의 노트북이 저장소에 있다."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
SITE = REPO / "_build" / "html"
COLAB = re.compile(r"https://colab\.research\.google\.com/github/([^/\"']+)/([^/\"']+)/blob/([^/\"']+)/([^\"'?#]+\.ipynb)")


def chapter_pages():
    return sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.fixture(scope="module")
def config():
    if not (SITE / "index.html").exists():
        pytest.skip("_build/html이 없습니다: 먼저 bash scripts/build-book.sh")
    return yaml.safe_load((REPO / "_config.yml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("notebook", chapter_pages(), ids=lambda p: p.stem)
def test_colab_button_points_at_this_repository(config, notebook):
    page = SITE / "notebooks" / f"{notebook.stem}.html"
    assert page.exists(), f"{page}가 빌드되지 않았습니다"
    links = {m.groups() for m in COLAB.finditer(html.unescape(page.read_text(encoding="utf-8")))}
    assert links, f"{page.name}에 Colab 링크가 없습니다"
    owner_repo = config["repository"]["url"].rstrip("/").split("/")[-2:]
    for owner, repo, branch, path in links:
        assert [owner, repo] == owner_repo
        assert branch == config["repository"]["branch"]
        assert (REPO / path).is_file(), f"Colab 링크의 경로 {path}가 저장소에 없습니다"
        assert path == f"notebooks/{notebook.name}"
