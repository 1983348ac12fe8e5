"""연습문제 자기 점검(bl.check)의 뼈대: 정답·오답·미응답·점검 목록, 잘못된 문제 번호, 채점 도구가 읽는 JSON."""

from __future__ import annotations

import pytest
import torch

import bertlab as bl
from bertlab import checks


@pytest.fixture()
def demo():
    """시험용 문제 두 개(커널의 모델 대신 상수 기준값)."""

    @checks.exercise("9.1", "소프트맥스", fields=("weights",), revisit="9장 '소프트맥스' 절", page="notebooks/09_demo")
    def _softmax(ctx, weights):
        ref = torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]).softmax(-1)
        w = checks.as_tensor(weights, "weights")
        checks.same_shape(w, ref, "weights", "질의 수, 키 수")
        checks.rows_sum_to_one(w, "weights")
        checks.close(w, ref, "weights")
        return "행마다 합이 1인 가중치가 기준값과 같습니다."

    checks.open_question("9.2", "왜 나누나", revisit="9장", page="notebooks/09_demo",
                         points=["점수의 분산이 d_k에 비례한다", "소프트맥스가 포화된다"])
    yield
    checks.EXERCISES.pop("9.1")
    checks.EXERCISES.pop("9.2")


def test_right_answer(demo):
    v = bl.check("9.1", weights=torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]).softmax(-1))
    assert v.ok and str(v).startswith("✅ 9.1 정답입니다")


@pytest.mark.parametrize("answer, hint", [
    (torch.ones(3), "모양이 (3,)입니다. 기대한 모양은 (2, 3) (질의 수, 키 수)"),
    (torch.ones(2, 3), "행 합이 1이 아닙니다"),
    (torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]).softmax(0), "행 합이 1이 아닙니다"),
    (torch.tensor([[0.2, 0.3, 0.5], [1 / 3, 1 / 3, 1 / 3]]), "자릿수는 맞음"),
    ("0.5", "숫자 텐서여야"),
])
def test_wrong_answers_get_a_korean_hint_without_the_answer(demo, answer, hint):
    v = bl.check("9.1", weights=answer)
    assert v.status == "wrong" and hint in v.message, v.message
    assert "다시 볼 곳: 9장 '소프트맥스' 절" in v.message
    assert "0.665" not in v.message and "0.090" not in v.message  # 기준값을 흘리지 않는다


@pytest.mark.parametrize("blank", [..., None, [], ""])
def test_unanswered_is_gentle(demo, blank):
    v = bl.check("9.1", weights=blank)
    assert v.status == "unanswered" and "아직 답이 없습니다" in v.message


def test_open_question_points_and_errors(demo):
    v = bl.points("9.2")
    assert v.status == "points" and "포화" in v.message
    assert bl.check("9.2").status == "points"
    with pytest.raises(KeyError, match="문제 번호 '9.9'를 모릅니다"):
        bl.check("9.9", x=1)
    with pytest.raises(TypeError, match="받지 않는 이름"):
        bl.check("9.1", wieghts=1)


def test_grader_reads_json(demo):
    bundle = bl.check("9.1", weights=...)._repr_mimebundle_()
    assert bundle[checks.MIME] == {"exercise": "9.1", "status": "unanswered", "message": bundle[checks.MIME]["message"],
                                   "hint": "미응답"}


def test_every_registered_check_names_its_page():
    checks._load_all()
    for ex in checks.EXERCISES.values():
        assert ex.page.startswith("notebooks/") and ex.revisit, ex.id
        assert ex.checker is not None or ex.points, ex.id
