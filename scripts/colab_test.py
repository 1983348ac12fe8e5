"""Colab판 노트북을 Colab처럼 생긴 커널에서 실행합니다(`bash scripts/colab-test.sh`가 부름; 직접 부를 때는 --python 필요).

이 스크립트 자체는 책의 가상환경(.venv)에서 돌고 노트북을 만들고(`bertlab.course.colab`, glue 자리는 '…'), 실행은
`--python`의 인터프리터(빌드 도구가 없는 Python 3.12 환경)로 띄운 커널이 합니다. 커널에는 네트워크가 없습니다
(HTTP(S) 프록시를 닫힌 포트로 두고, 허브 캐시는 빈 임시 폴더). 세 가지를 봅니다.

1. 장과 연습 노트북이 기본 모델(MODEL = "mini")로 처음부터 끝까지 돈다.
2. MODEL = "mbert"인데 허브에 닿지 않으면, 조용히 미니 BERT로 바꾸지 않고 한국어로 이어 갈 길을 알린다.
3. MODEL에 로컬 12층 무작위 BERT 폴더를 주면(같은 양식 필드로) 장이 끝까지 돈다(빠른 설정).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from bertlab.course import colab  # noqa: E402

KERNEL = "colab-py312"
CI_CHAPTERS = ["01_tokenization", "03_attention", "06_finetuning"]
MODEL_LINE = 'MODEL = "mini"  # @param'


def write_kernelspec(python: str, where: Path) -> None:
    spec = where / "kernels" / KERNEL
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [python, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3.12 (Colab처럼)", "language": "python",
    }), encoding="utf-8")
    os.environ["JUPYTER_PATH"] = str(where)


def kernel_env(home: Path, extra: dict | None = None) -> dict:
    env = {k: os.environ[k] for k in ("PATH", "LANG", "LC_ALL", "TZ") if k in os.environ}
    dead = "http://127.0.0.1:9"  # 닫힌 포트: 어떤 HTTP 요청도 곧바로 실패한다
    env.update({"HOME": str(home), "HF_HOME": str(home / "hf"), "XDG_CACHE_HOME": str(home / "cache"),
                "http_proxy": dead, "https_proxy": dead, "HTTP_PROXY": dead, "HTTPS_PROXY": dead, "no_proxy": "",
                "MPLBACKEND": "Agg", "TOKENIZERS_PARALLELISM": "false", "PYTHONHASHSEED": "0"})
    env.update(extra or {})
    return env


def set_model(nb, value: str):
    """준비 셀의 양식 필드 MODEL = "mini"를 다른 값으로(학생이 양식에서 고르는 것과 같은 자리)."""
    out = nbformat.from_dict(json.loads(json.dumps(nb)))
    cell = next(c for c in out.cells if c.cell_type == "code")
    if MODEL_LINE not in cell.source:
        raise ValueError("준비 셀에 MODEL 양식 필드가 없습니다")
    cell.source = cell.source.replace('MODEL = "mini"', f"MODEL = {value!r}".replace("'", '"'), 1)
    return out


def run(nb, home: Path, cwd: Path, extra_env: dict | None = None, allow_errors: bool = False, timeout: int = 900):
    client = NotebookClient(nb, timeout=timeout, kernel_name=KERNEL, allow_errors=allow_errors,
                            resources={"metadata": {"path": str(cwd)}})
    client.execute(env=kernel_env(home, extra_env))
    return nb


def images(nb) -> int:
    return sum("image/png" in o.get("data", {}) for c in nb.cells for o in c.get("outputs", []))


def mbert_offline_message(nb, home: Path, cwd: Path) -> str:
    """MODEL = "mbert", 허브 없음: 준비 셀과 첫 모델 셀까지 실행해 오류를 받는다. 미니 BERT로 바뀌면 실패."""
    nb = set_model(nb, "mbert")
    code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    first_load = next(i for i in code[1:] if "bl.load_" in nb.cells[i].source)  # 준비 셀 다음의 첫 모델 셀
    nb.cells = nb.cells[: first_load + 1]
    run(nb, home, cwd, allow_errors=True, timeout=300)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    errors = [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    if not errors:
        raise AssertionError(f"MODEL = \"mbert\"인데 오류 없이 지나갔습니다(조용히 다른 모델로 바뀜?):\n{text}")
    err = errors[0]
    if err.ename != "ConnectionError" or 'MODEL을 "mini"로' not in err.evalue:
        raise AssertionError(f"기대한 한국어 ConnectionError가 아닙니다: {err.ename}: {err.evalue}")
    if "번들 미니 BERT" in text and "기본값" in text:
        raise AssertionError("mbert를 골랐는데 미니 BERT를 열었습니다")
    return f"{err.ename}: {err.evalue}"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--python", required=True, help="Colab처럼 생긴 환경의 파이썬(3.12, 빌드 도구 없음)")
    p.add_argument("--ci", action="store_true",
                   help="CI 부분집합: 1·3·6장(빠른 설정)과 모든 연습 노트북, mBERT 안내, 12층 모델은 첫 장만(모든 장은 tests/test_any_shape.py)")
    p.add_argument("--chapters", default="", help="쉼표로 가른 장 이름(없으면 모든 장)")
    p.add_argument("--no-exercises", action="store_true")
    p.add_argument("--keep", type=Path, help="만든 노트북과 실행 결과를 이 폴더에 남김")
    a = p.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="colab-test-"))
    write_kernelspec(a.python, work)
    home, content = work / "home", work / "content"
    home.mkdir()
    content.mkdir()
    out = a.keep or work / "notebooks"
    chapters = [c for c in a.chapters.split(",") if c] or None
    colab.build(out, chapters=chapters, execute_glue=False, log=lambda *_: None)
    run_chapters = sorted(out.glob("[0-9][0-9]_*.ipynb"))
    if a.ci and not chapters:
        run_chapters = [p for p in run_chapters if p.stem in CI_CHAPTERS]
    exercises = [] if a.no_exercises else sorted((out / "exercises").glob("[0-9][0-9]_*.ipynb"))

    rows, failed = [], 0
    jobs = [("장", p, "mini") for p in run_chapters] + [("연습", p, "mini") for p in exercises]
    for kind, path, model in jobs:
        nb = nbformat.read(str(path), as_version=4)
        if a.ci and kind == "장":  # CI는 장의 빠른 설정(설정 셀의 메타데이터)으로: 같은 코드 길, 더 작은 데이터. 전체 설정은 스크립트의 기본 실행
            nb = colab.with_fast_settings(nb)
        start = time.perf_counter()
        try:
            run(nb, home, content)
            status = f"통과 (그림 {images(nb)}개)"
        except CellExecutionError as err:
            failed += 1
            status = "실패: " + str(err).strip().splitlines()[-1][:200]
        rows.append((kind, path.stem, model, time.perf_counter() - start, status))
        if a.keep:
            nbformat.write(nb, str(path.with_suffix(".executed.ipynb")))
        print(f"{kind} {path.stem} [{model}] {rows[-1][3]:.1f}초 · {status}", flush=True)

    # mBERT를 골랐는데 허브가 없을 때의 안내
    first = sorted(p for p in out.glob("[0-9][0-9]_*.ipynb") if not p.stem.endswith(".executed"))[0]
    try:
        message = mbert_offline_message(nbformat.read(str(first), as_version=4), home, content)
        print(f"mBERT 오프라인 안내 ({first.stem}): 통과\n  {message}")
    except AssertionError as err:
        failed += 1
        print(f"mBERT 오프라인 안내 ({first.stem}): 실패: {err}")

    # 로컬 12층 무작위 BERT를 양식 필드로 주고, 빠른 설정으로 장마다 끝까지
    from test_any_shape import make_random_bert

    stand_in = make_random_bert(work / "random-bert-12x12")
    any_shape = sorted(p for p in out.glob("[0-9][0-9]_*.ipynb") if not p.stem.endswith(".executed"))
    if a.ci:  # CI는 모든 장을 tests/test_any_shape.py(글 셀까지 든 원본)로 이미 돌린다: 여기서는 양식 필드로 주는 길만 본다
        any_shape = any_shape[:1]
    for path in any_shape:
        nb = colab.with_fast_settings(set_model(nbformat.read(str(path), as_version=4), str(stand_in)))
        start = time.perf_counter()
        try:
            run(nb, home, content, extra_env={"BERTLAB_FAST": "1"})
            status = "통과"
        except CellExecutionError as err:
            failed += 1
            status = "실패: " + str(err).strip().splitlines()[-1][:200]
        print(f"12층 무작위 BERT {path.stem} {time.perf_counter() - start:.1f}초 · {status}", flush=True)

    total = sum(r[3] for r in rows)
    print(f"Colab처럼 생긴 환경의 시험: 노트북 {len(rows)}개(기본 모델) {total:.0f}초, 실패 {failed}곳")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
