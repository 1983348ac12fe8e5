"""연습문제 자기 점검: ``bl.check("3.2", pad_share=pad_share)``.

학생이 계산한 값을 **같은 커널에서 모델로 계산한 기준값**과 견주어 한국어 한 줄로 알려 줍니다. 기준값을 숫자로 적어 두지
않으므로 mBERT나 다른 모델로 바꿔도 그대로 맞습니다.

- 맞으면: ``✅ 3.2 정답입니다 — …`` 한 줄.
- 틀리면: 답을 알려 주지 않는 힌트(모양이 다름, 행의 합이 1이 아님, 자릿수가 다름, 다시 볼 절) 한 줄.
- 아직 답이 없으면(``...``, ``None``, 빈 값): 부드러운 안내 한 줄. 예외를 내지 않으므로 노트북은 끝까지 돕니다.
- 글로 답하는 문제는 ``bl.points("3.5")``가 답에 들어가야 할 점검 목록을 보여 줍니다(원할 때만).

결과는 화면의 글과 함께 기계가 읽는 JSON(``application/vnd.bertlab.check+json``)으로도 나가서, 채점 도구
(``python -m bertlab.course.grade``)가 실행한 노트북에서 그대로 모읍니다.

otter-grader를 쓰지 않은 까닭: otter의 검사는 학생 노트북 밖의 테스트 파일(정답이 든 .py/.yml)을 읽어야 하고, Colab에서
그 파일을 받으려면 네트워크가 필요하며, 메시지가 영어 doctest 출력입니다. 여기서는 기준값을 커널의 모델로 계산하므로
정답 파일이 없고, 메시지는 처음부터 한국어입니다.
"""

from __future__ import annotations

import importlib
import json
import math
from dataclasses import dataclass, field
from typing import Any, Callable

__all__ = ["check", "points", "Verdict", "exercise", "Problem", "EXERCISES", "MIME", "as_tensor", "scalar", "rate", "same_shape", "close",
           "rows_sum_to_one", "same_items"]

MIME = "application/vnd.bertlab.check+json"
CHAPTER_MODULES = ["ch01", "ch02", "ch03", "ch04", "ch05", "ch06", "ch07"]
SITE = "https://bertlab-kr.github.io/korean-bert-course/"


class Problem(Exception):
    """기준값과 다를 때 힌트 한 줄을 담아 던집니다(검사 함수 안에서만 씀)."""


@dataclass
class Exercise:
    id: str
    title: str
    fields: tuple[str, ...]
    revisit: str  # 다시 볼 곳(절 이름)
    page: str  # 웹사이트 쪽(notebooks/03_attention)
    checker: Callable[..., str] | None = None
    points: list[str] = field(default_factory=list)


EXERCISES: dict[str, Exercise] = {}


def exercise(id: str, title: str, *, fields: tuple[str, ...] = (), revisit: str, page: str, points: list[str] | None = None):
    """검사 함수를 문제 번호에 등록합니다. 함수는 답(키워드 인자)과 ``ctx``를 받아, 맞으면 확인 한 줄을 돌려주고
    틀리면 :class:`Problem`을 던집니다."""

    def register(fn):
        EXERCISES[id] = Exercise(id, title, tuple(fields), revisit, page, fn, list(points or []))
        return fn

    return register


def open_question(id: str, title: str, *, revisit: str, page: str, points: list[str]) -> None:
    """글로 답하는 문제: 검사 대신 점검 목록만 둡니다."""
    EXERCISES[id] = Exercise(id, title, (), revisit, page, None, list(points))


def _load_all() -> None:
    for name in CHAPTER_MODULES:
        try:
            importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as err:
            if err.name != f"{__name__}.{name}":
                raise


@dataclass
class Verdict:
    """검사 결과. 노트북에서는 한 줄 글로 보이고, 채점 도구는 JSON으로 읽습니다."""

    exercise: str
    status: str  # "correct" | "wrong" | "unanswered" | "points"
    message: str
    hint: str = ""

    ICONS = {"correct": "✅", "wrong": "❌", "unanswered": "✏️", "points": "📝"}

    @property
    def ok(self) -> bool:
        return self.status == "correct"

    def __str__(self) -> str:
        return f"{self.ICONS[self.status]} {self.exercise} {self.message}"

    def _repr_mimebundle_(self, include=None, exclude=None):
        data = {"exercise": self.exercise, "status": self.status, "message": self.message, "hint": self.hint}
        return {"text/plain": str(self), MIME: data}

    def __repr__(self) -> str:
        return str(self)


def _blank(value: Any) -> bool:
    if value is None or value is Ellipsis:
        return True
    if isinstance(value, (str, list, tuple, dict, set)) and len(value) == 0:
        return True
    return False


class Context:
    """검사 함수가 기준값을 계산할 때 쓰는 것: 이 노트북이 마지막으로 연 모델과 토크나이저(또는 직접 준 것)."""

    def __init__(self, model=None, tokenizer=None, mlm=None):
        from .. import models

        self._model, self._tokenizer, self._mlm = model, tokenizer, mlm
        self._models = models

    @property
    def model(self):
        if self._model is None:
            self._model = self._models.last_loaded("model")
        return self._model

    @property
    def tokenizer(self):
        if self._tokenizer is None:
            self._tokenizer = self._models.last_loaded("tokenizer")
        return self._tokenizer

    @property
    def mlm(self):
        if self._mlm is None:
            self._mlm = self._models.last_loaded("mlm")
        return self._mlm


def _where(ex: Exercise) -> str:
    return f"{ex.revisit}({SITE}{ex.page}.html)"


def check(exercise_id: str, *, model=None, tokenizer=None, mlm=None, **answers) -> Verdict:
    """문제 `exercise_id`의 답을 검사해 한국어 한 줄(:class:`Verdict`)을 돌려줍니다. 셀의 마지막 줄이면 그대로 보입니다.

    모델·토크나이저는 이 노트북이 마지막으로 `bl.load_bert`/`bl.load_mlm`으로 연 것을 씁니다. 다른 것을 쓰려면
    ``model=``, ``tokenizer=``로 줍니다.
    """
    _load_all()
    if exercise_id not in EXERCISES:
        known = ", ".join(sorted(EXERCISES)) or "(없음)"
        raise KeyError(f"문제 번호 '{exercise_id}'를 모릅니다. 검사가 있는 문제: {known}")
    ex = EXERCISES[exercise_id]
    if ex.checker is None:
        return points(exercise_id)
    unknown = sorted(set(answers) - set(ex.fields))
    if unknown:
        raise TypeError(f"{exercise_id}번 검사가 받지 않는 이름: {unknown}. 받는 이름: {list(ex.fields)}")
    missing = [f for f in ex.fields if _blank(answers.get(f))]
    if missing:
        names = ", ".join(missing)
        return Verdict(exercise_id, "unanswered",
                       f"아직 답이 없습니다: {names} 자리에 계산한 값을 넣고 이 셀을 다시 실행해 보세요.", "미응답")
    ctx = Context(model, tokenizer, mlm)
    try:
        message = ex.checker(ctx, **answers)
    except Problem as p:
        hint = str(p)
        return Verdict(exercise_id, "wrong", f"다시 해 보세요: {hint} 다시 볼 곳: {_where(ex)}", hint)
    except (TypeError, ValueError, IndexError, AttributeError, RuntimeError) as err:
        hint = f"답을 검사하다 멈췄습니다({type(err).__name__}: {str(err).splitlines()[0][:120]}). 값의 종류와 모양을 확인하세요."
        return Verdict(exercise_id, "wrong", f"다시 해 보세요: {hint} 다시 볼 곳: {_where(ex)}", hint)
    return Verdict(exercise_id, "correct", f"정답입니다 — {message}")


def points(exercise_id: str) -> Verdict:
    """글로 답하는 문제의 점검 목록: 내 답에 이 점들이 들어갔는지 스스로 확인합니다(원할 때만 실행)."""
    _load_all()
    if exercise_id not in EXERCISES:
        raise KeyError(f"문제 번호 '{exercise_id}'를 모릅니다.")
    ex = EXERCISES[exercise_id]
    if not ex.points:
        raise ValueError(f"{exercise_id}번에는 점검 목록이 없습니다. bl.check로 검사하세요.")
    body = "답에 들어가야 할 점:\n" + "\n".join(f"  - {p}" for p in ex.points)
    return Verdict(exercise_id, "points", body)


# ----------------------------------------------------------------------------- 검사 함수가 쓰는 도우미

def as_tensor(value, name: str):
    """텐서, 넘파이 배열, 숫자 목록을 float 텐서로. 안 되면 힌트."""
    import torch

    if isinstance(value, torch.Tensor):
        return value.detach().to(torch.float64)
    try:
        return torch.as_tensor(value, dtype=torch.float64)
    except (TypeError, ValueError, RuntimeError):
        raise Problem(f"{name}은(는) 숫자 텐서여야 합니다(받은 값의 종류: {type(value).__name__}).") from None


def scalar(value, name: str, how: str = ".mean()이나 .max()로 모은 뒤 float(...)나 .item()을 쓰세요.") -> float:
    """숫자 하나(0차원 텐서, 원소 하나인 배열, 파이썬 숫자)를 float로. 여러 개면 모으는 법(``how``)을 힌트로."""
    t = as_tensor(value, name)
    if t.numel() != 1:
        raise Problem(f"{name}은(는) 숫자 하나여야 합니다(받은 모양: {tuple(t.shape)}). {how}".rstrip())
    return float(t)


def rate(value, name: str) -> float:
    """0과 1 사이의 비율 하나. 백분율을 넣으면 그렇다고 알려 줍니다."""
    v = scalar(value, name)
    if not 0.0 <= v <= 1.0:
        raise Problem(f"{name}은(는) 비율이라 0과 1 사이입니다. 백분율(%)이 아니라 센 수를 전체 수로 나눈 값을 넣으세요.")
    return v


def same_shape(value, reference, name: str, dims: str = "") -> None:
    got, want = tuple(value.shape), tuple(reference.shape)
    if got != want:
        extra = f" ({dims})" if dims else ""
        raise Problem(f"{name}의 모양이 {got}입니다. 기대한 모양은 {want}{extra}입니다.")


def close(value, reference, name: str, *, rtol: float = 1e-4, atol: float = 1e-5) -> None:
    """숫자(스칼라 또는 텐서)가 기준값과 가까운지. 아니면 자릿수·부호로 힌트를 줍니다(답은 알려 주지 않음)."""
    import torch

    v, r = as_tensor(value, name), as_tensor(reference, "기준값")
    same_shape(v, r, name)
    if torch.allclose(v, r, rtol=rtol, atol=atol):
        return
    if not torch.isfinite(v).all():
        raise Problem(f"{name}에 nan이나 inf가 있습니다.")
    gv, gr = float(v.abs().mean()), float(r.abs().mean())
    if gr > 0 and gv > 0 and abs(math.log10(gv / gr)) >= 1:
        raise Problem(f"{name}의 크기가 기대한 값과 자릿수부터 다릅니다(10배 넘게 {'큼' if gv > gr else '작음'}).")
    if v.numel() == 1 and float(v) * float(r) < 0:
        raise Problem(f"{name}의 부호가 반대입니다.")
    raise Problem(f"{name}이(가) 기대한 값과 다릅니다(자릿수는 맞음). 계산 순서를 한 단계씩 확인하세요.")


def rows_sum_to_one(value, name: str) -> None:
    import torch

    v = as_tensor(value, name)
    if not torch.allclose(v.sum(-1), torch.ones_like(v.sum(-1)), atol=1e-4):
        raise Problem(f"{name}의 행 합이 1이 아닙니다. 소프트맥스를 마지막 축(키 방향, dim=-1)으로 했는지 확인하세요.")


def same_items(value, reference, name: str) -> None:
    if list(value) != list(reference):
        if len(value) != len(reference):
            raise Problem(f"{name}의 길이가 {len(value)}입니다(기대: {len(reference)}).")
        raise Problem(f"{name}의 길이는 맞지만 항목이 다릅니다.")


def dumps(verdict: Verdict) -> str:
    return json.dumps(verdict._repr_mimebundle_()[MIME], ensure_ascii=False)
