"""오프라인에서 bl.load_bert("auto")가 얼마나 빨리 결정하고 모델을 여는지 잽니다(새 프로세스, 5회).

    .venv/bin/python scripts/bench_offline.py

허브에 닿지 않는 곳에서 실행하세요. 결정(네트워크 확인 포함)과 로딩까지의 시간을 출력합니다.
"""

import os
import statistics
import subprocess
import sys
import tempfile

CODE = (
    "import time; t=time.perf_counter(); import bertlab as bl; bl.models.decide('auto'); "
    "d=time.perf_counter()-t; bl.load_bert(quiet=True); print(d, time.perf_counter()-t)"
)


def main(runs: int = 5) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"HF_HUB_OFFLINE", "BERTLAB_MODEL"}}
    decide, total = [], []
    with tempfile.TemporaryDirectory() as cache:
        env["HF_HUB_CACHE"] = cache
        for _ in range(runs):
            out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, env=env, check=True)
            d, t = map(float, out.stdout.split()[-2:])
            decide.append(d)
            total.append(t)
    print(f"결정(import bertlab + 네트워크 확인): 중앙값 {statistics.median(decide):.3f}s, 최대 {max(decide):.3f}s")
    print(f"결정 + transformers 로딩 + 미니 BERT 열기: 중앙값 {statistics.median(total):.2f}s, 최대 {max(total):.2f}s")


if __name__ == "__main__":
    main()
