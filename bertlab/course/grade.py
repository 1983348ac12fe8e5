"""한 반의 연습 노트북을 한 번에 채점합니다.

    python -m bertlab.course.grade SUBMISSIONS_DIR --out grades.csv [--timeout 300]

폴더의 노트북(``*.ipynb``)마다 새 커널에서 처음부터 끝까지 실행하고(셀 하나가 오류를 내도 나머지를 계속 실행),
검사 셀(`bl.check`)이 내보낸 결과(JSON)를 모아 학생마다 한 줄, 문제마다 한 열인 CSV를 씁니다. 칸의 값은
``통과``, ``실패: 힌트``, ``미응답``, ``실행 안 됨``, ``검사 셀 없음``이고, ``점수``(통과한 문제 수/검사가 있는 문제 수)와
``비고``(오류, 시간 초과, 열 수 없는 파일, 지워진 셀, 주의할 코드)가 붙습니다. 문제마다 몇 명이 통과했는지와 가장 흔한 힌트를
한국어 요약으로 출력하고 ``grades.csv``와 같은 폴더의 ``grades.summary.txt``에도 씁니다.

채점은 다음과 같이 격리합니다.

- 노트북마다 빈 임시 폴더에 그 노트북 하나만 복사해 그 폴더에서 실행합니다(다른 학생의 답도, 기준 풀이도 그 폴더에 없음).
  HOME도 임시 폴더이고, 네트워크는 막습니다(HTTP(S) 프록시를 닫힌 포트로, ``HF_HUB_OFFLINE=1``).
- 모델은 언제나 번들 미니 BERT(``BERTLAB_MODEL=mini``)이고, 기준값은 검사가 그 커널에서 모델로 계산합니다. 기준 풀이 노트북은
  채점에 쓰지 않습니다.
- 학생 코드가 파일을 열거나(``open(``, ``Path(``), 패키지의 소스나 내부(``__file__``, ``inspect``, ``bertlab.checks``)를
  들여다보면 비고에 '주의'로 적습니다. bertlab은 학생 환경에 설치되어 있으므로 소스를 읽는 것을 완전히 막을 수는 없고,
  그래서 채점자가 볼 수 있게 드러냅니다.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..checks import MIME

CHECK_CALL = re.compile(r"""bl\.(check|points)\(\s*["'](\d+\.\d+)["']""")
SUSPICIOUS = re.compile(r"\bopen\(|\bPath\(|__file__|\binspect\b|bertlab\.checks|\bchecks\.EXERCISES|getsource|os\.listdir|glob\(")
RUNNER = r"""
import json, sys, nbformat
from nbclient import NotebookClient
nb = nbformat.read(sys.argv[1], as_version=4)
NotebookClient(nb, timeout=int(sys.argv[3]), kernel_name="python3", allow_errors=True,
               resources={"metadata": {"path": sys.argv[2]}}).execute()
nbformat.write(nb, sys.argv[1])
"""


@dataclass
class Row:
    student: str
    chapter: str = ""
    results: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _sources(nb) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "code")


def expected_exercises(chapter_nb) -> list[tuple[str, str]]:
    """기준 장 노트북의 검사 셀에서 (문제 번호, 'check' 또는 'points') 목록."""
    found = []
    for cell in chapter_nb.cells:
        if cell.cell_type == "code":
            for kind, ex in CHECK_CALL.findall(cell.source):
                if (ex, kind) not in found:
                    found.append((ex, kind))
    return found


def _chapter_of(nb, chapters: dict[str, Path]) -> str | None:
    meta = nb.metadata.get("bertlab", {})
    src = Path(meta.get("source", "")).stem
    if src in chapters:
        return src
    title = meta.get("chapter", "")
    for stem, path in chapters.items():
        if title and title in path.read_text(encoding="utf-8"):
            return stem
    ids = {ex.split(".")[0] for _, ex in CHECK_CALL.findall(_sources(nb))}
    for stem in chapters:
        if ids == {str(int(stem[:2]))}:
            return stem
    return None


def kernel_env(home: Path) -> dict:
    env = {k: os.environ[k] for k in ("PATH", "LANG", "LC_ALL") if k in os.environ}
    dead = "http://127.0.0.1:9"
    env.update({"HOME": str(home), "BERTLAB_MODEL": "mini", "HF_HUB_OFFLINE": "1", "MPLBACKEND": "Agg",
                "TOKENIZERS_PARALLELISM": "false", "http_proxy": dead, "https_proxy": dead,
                "HTTP_PROXY": dead, "HTTPS_PROXY": dead, "JUPYTER_PLATFORM_DIRS": "1"})
    return env


def grade_one(path: Path, chapters: dict[str, Path], timeout: int) -> Row:
    import nbformat

    row = Row(student=path.stem)
    try:
        nb = nbformat.read(str(path), as_version=4)
        nbformat.validate(nb)
    except Exception as err:  # 깨진 JSON, 노트북이 아닌 파일
        row.notes.append(f"노트북을 열 수 없음: {type(err).__name__}: {str(err).splitlines()[0][:120]}")
        return row
    stem = _chapter_of(nb, chapters)
    if stem is None:
        row.notes.append("어느 장의 연습 노트북인지 알 수 없음(메타데이터와 검사 셀이 없음)")
        return row
    row.chapter = stem
    expected = expected_exercises(nbformat.read(str(chapters[stem]), as_version=4))
    present = {ex for _, ex in CHECK_CALL.findall(_sources(nb))}
    if SUSPICIOUS.search("\n".join(c.source for c in nb.cells if c.cell_type == "code"
                                   and "check" not in c.get("metadata", {}).get("tags", []))):
        row.notes.append("주의: 파일이나 패키지 내부를 읽는 코드가 있음(채점자 확인)")
    with tempfile.TemporaryDirectory(prefix="grade-") as tmp:
        work, home = Path(tmp) / "work", Path(tmp) / "home"
        work.mkdir()
        home.mkdir()
        target = work / "submission.ipynb"
        shutil.copy(path, target)
        try:
            done = subprocess.run([sys.executable, "-c", RUNNER, str(target), str(work), str(timeout)],
                                  env=kernel_env(home), cwd=work, capture_output=True, text=True, timeout=timeout)
            if done.returncode != 0:
                row.notes.append("실행기 오류: " + (done.stderr.strip().splitlines() or ["?"])[-1][:160])
            ran = nbformat.read(str(target), as_version=4)
        except subprocess.TimeoutExpired:
            row.notes.append(f"시간 초과({timeout}초): 끝나지 않는 셀이 있음")
            ran = None
    verdicts: dict[str, dict] = {}
    if ran is not None:
        errors = [o for c in ran.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
        if errors:
            e = errors[0]
            row.notes.append(f"오류 {len(errors)}곳(첫 오류: {e.get('ename')}: {str(e.get('evalue', ''))[:100]})")
        for cell in ran.cells:
            for out in cell.get("outputs", []):
                data = out.get("data", {}).get(MIME)
                if data:
                    verdicts[data["exercise"]] = data
    for ex, kind in expected:
        if ex not in present:
            row.results[ex] = "검사 셀 없음"
            continue
        v = verdicts.get(ex)
        if kind == "points":
            row.results[ex] = "글 답(채점자 확인)"
        elif v is None:
            row.results[ex] = "실행 안 됨"
        elif v["status"] == "correct":
            row.results[ex] = "통과"
        elif v["status"] == "unanswered":
            row.results[ex] = "미응답"
        else:
            row.results[ex] = "실패: " + v.get("hint", "")
    missing = [ex for ex, _ in expected if ex not in present]
    if missing:
        row.notes.append(f"검사 셀이 지워짐: {', '.join(missing)}")
    return row


def grade(submissions: Path, chapters_dir: Path, timeout: int = 300, log=print) -> list[Row]:
    submissions = Path(submissions)
    if not submissions.is_dir():
        raise FileNotFoundError(f"제출 폴더 '{submissions}'이(가) 없습니다.")
    paths = sorted(submissions.glob("*.ipynb"))
    if not paths:
        raise FileNotFoundError(f"'{submissions}'에 노트북(.ipynb)이 없습니다.")
    chapters = {p.stem: p for p in sorted(Path(chapters_dir).glob("[0-9][0-9]_*.ipynb"))}
    rows = []
    for path in paths:
        row = grade_one(path, chapters, timeout)
        passed = sum(v == "통과" for v in row.results.values())
        log(f"{row.student}: {row.chapter or '?'} · 통과 {passed} · " + ("; ".join(row.notes) or "비고 없음"))
        rows.append(row)
    return rows


def _columns(rows: list[Row]) -> list[str]:
    cols: list[str] = []
    for r in rows:
        for ex in r.results:
            if ex not in cols:
                cols.append(ex)
    return sorted(cols, key=lambda x: tuple(int(p) for p in x.split(".")))


def write_csv(rows: list[Row], out: Path) -> None:
    cols = _columns(rows)
    with open(out, "w", encoding="utf-8-sig", newline="") as f:  # BOM: 엑셀이 한글을 바로 읽도록
        w = csv.writer(f)
        w.writerow(["학생", "장", *cols, "점수", "비고"])
        for r in rows:
            graded = [ex for ex in cols if not r.results.get(ex, "").startswith("글 답")]
            passed = sum(r.results.get(ex) == "통과" for ex in graded)
            w.writerow([r.student, r.chapter, *(r.results.get(ex, "") for ex in cols),
                        f"{passed}/{len(graded)}" if r.results else "", "; ".join(r.notes)])


def summary(rows: list[Row]) -> str:
    lines = [f"제출 {len(rows)}개"]
    for ex in _columns(rows):
        vals = [r.results[ex] for r in rows if ex in r.results]
        if all(v.startswith("글 답") for v in vals):
            lines.append(f"- {ex}: 글로 답하는 문제({len(vals)}명) — 채점자가 읽습니다.")
            continue
        hints = Counter(v.removeprefix("실패: ") for v in vals if v.startswith("실패"))
        common = f" 가장 흔한 힌트: '{hints.most_common(1)[0][0]}'({hints.most_common(1)[0][1]}명)." if hints else ""
        others = Counter(v for v in vals if v in ("미응답", "실행 안 됨", "검사 셀 없음"))
        rest = "".join(f", {k} {n}명" for k, n in others.items())
        lines.append(f"- {ex}: {len(vals)}명 가운데 {sum(v == '통과' for v in vals)}명 통과{rest}.{common}")
    broken = [r.student for r in rows if any(n.startswith(("노트북을 열 수 없음", "시간 초과", "어느 장")) for n in r.notes)]
    if broken:
        lines.append(f"채점하지 못한 제출: {', '.join(broken)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bertlab.course.grade", description="연습 노트북 폴더를 채점해 CSV로 씁니다.")
    p.add_argument("submissions", type=Path)
    p.add_argument("--out", type=Path, default=Path("grades.csv"))
    p.add_argument("--timeout", type=int, default=300, help="노트북 하나의 최대 실행 시간(초)")
    p.add_argument("--chapters", type=Path, default=Path(__file__).resolve().parents[2] / "notebooks",
                   help="장 노트북 폴더(어느 문제에 검사가 있는지 읽음)")
    a = p.parse_args(argv)
    try:
        rows = grade(a.submissions, a.chapters, a.timeout)
    except FileNotFoundError as err:
        print(f"오류: {err}", file=sys.stderr)
        return 2
    write_csv(rows, a.out)
    text = summary(rows)
    a.out.with_suffix(".summary.txt").write_text(text + "\n", encoding="utf-8")
    print(text)
    print(f"→ {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
