"""브라우저 시험은 선택이다: ``BERTLAB_BROWSER=1`` 일 때만 모은다(``bash scripts/browser-test.sh`` 가 켠다).

기본 시험(``pytest tests/``)은 이 폴더의 시험 파일을 모으지 않으므로 chromium도, websocket-client도 필요 없다.
"""
import os

collect_ignore_glob = [] if os.environ.get("BERTLAB_BROWSER") == "1" else ["test_*.py"]
