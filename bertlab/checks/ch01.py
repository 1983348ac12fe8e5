"""1장 토큰화의 연습문제 검사(`bl.check("1.1", ...)`).

기준값은 모두 커널의 토크나이저와 모델(``ctx.tokenizer``, ``ctx.model``, ``ctx.mlm``)로 그 자리에서 계산합니다. 그래서
미니 BERT든 mBERT든 같은 검사가 맞습니다. 문제의 문장들은 연습문제 준비 셀(태그 exercise-setup)과 같은 것을 여기서도 씁니다.
"""

from __future__ import annotations

from . import Problem, exercise, open_question

PAGE = "notebooks/01_tokenization"
# 연습문제 준비 셀과 같아야 합니다.
TWO = ("짧은 문장", "이 문장은 앞 문장보다 조금 더 깁니다.")  # 문제 1.2
FIXED_LENGTH = 20  # 문제 1.2의 max_length
PAIR = ("배가 고프다.", "밥을 먹자.")  # 문제 1.3
BLANK = "어제 저녁에 [MASK] 끓여 먹었다."  # 문제 1.4


def _tokens(value, name: str) -> list[str]:
    if isinstance(value, str) or not hasattr(value, "__iter__"):
        raise Problem(f"{name}은(는) 조각(문자열)의 목록이어야 합니다(받은 값의 종류: {type(value).__name__}).")
    items = list(value)
    if not all(isinstance(t, str) for t in items):
        raise Problem(f"{name}의 항목은 조각 문자열이어야 합니다. id가 아니라 tokenizer.tokenize가 주는 조각을 넣으세요.")
    return items


def _count(value, name: str) -> int:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise Problem(f"{name}은(는) 개수(정수 하나)여야 합니다(받은 값의 종류: {type(value).__name__}).") from None
    if number != int(number) or number < 0:
        raise Problem(f"{name}은(는) 개수라 0 이상의 정수입니다(받은 값: {number:g}).")
    return int(number)


# ----------------------------------------------------------------------------- 1.1

def name_pieces(tokenizer, name: str, sentence: str) -> tuple[list[str], list[str]]:
    """(이름만 자른 조각, 문장을 자른 조각 가운데 이름의 글자에 걸친 조각)."""
    alone = tokenizer.tokenize(name)
    enc = tokenizer(sentence, add_special_tokens=False, return_offsets_mapping=True)
    start = sentence.index(name)
    end = start + len(name)
    inside = [t for t, (a, b) in zip(enc.tokens(), enc["offset_mapping"]) if a < end and b > start]
    return alone, inside


@exercise("1.1", "이름은 몇 조각인가", fields=("name", "sentence", "alone", "in_sentence"),
          revisit="1장 'WordPiece: 단어를 자주 쓰이는 조각으로' 절", page=PAGE)
def _name(ctx, name, sentence, alone, in_sentence):
    if not isinstance(name, str) or not isinstance(sentence, str) or not name.strip():
        raise Problem("name과 sentence는 글(문자열)이어야 합니다. 이름과, 그 이름이 들어간 문장을 넣으세요.")
    if name not in sentence:
        raise Problem("sentence에 name이 그대로 들어 있지 않습니다. 이름이 들어간 문장을 쓰세요.")
    alone, in_sentence = _tokens(alone, "alone"), _tokens(in_sentence, "in_sentence")
    ref_alone, ref_inside = name_pieces(ctx.tokenizer, name, sentence)
    if alone != ref_alone:
        if alone == list(name) and ref_alone != list(name):
            raise Problem("alone이 글자 하나하나로 나뉘어 있습니다. 토크나이저로 자르면 어휘에 있는 조각 단위로 나뉘고, "
                          "앞 조각에 이어지는 조각에는 ##이 붙습니다.")
        if "".join(alone).replace("##", "") == name and ref_alone != [ctx.tokenizer.unk_token]:
            raise Problem("alone을 이어 붙이면 이름이 되지만 조각의 경계가 토크나이저의 결과와 다릅니다. 손으로 나누지 말고 "
                          "tokenizer.tokenize(name)의 결과를 쓰세요.")
        raise Problem("alone이 이름만 토큰화한 결과와 다릅니다. tokenizer.tokenize에 이름만 넣어 보세요.")
    if in_sentence != ref_inside:
        if in_sentence == ref_alone:
            raise Problem("in_sentence가 이름만 자른 결과와 같습니다. 문장 전체를 자른 뒤, 이름의 글자에 걸친 조각을 골라야 "
                          "합니다(return_offsets_mapping=True가 조각마다 글자 위치를 줍니다).")
        raise Problem("in_sentence가 문장 속에서 이름에 걸친 조각과 다릅니다. 조각의 글자 위치(offset)가 이름의 글자 범위와 "
                      "겹치는 조각을 모두 고르세요.")
    same = "같습니다" if ref_alone == ref_inside else "다릅니다(이름 끝 글자가 뒤의 말과 한 조각으로 묶였습니다)"
    return f"이름 '{name}'은(는) 따로 자르면 조각 {len(ref_alone)}개, 문장 속에서는 {len(ref_inside)}개이고, 두 결과가 {same}."


# ----------------------------------------------------------------------------- 1.2

def padded_shapes(tokenizer) -> tuple[tuple[int, int], tuple[int, int]]:
    longest = tokenizer(list(TWO), padding=True, return_tensors="pt")["input_ids"].shape
    fixed = tokenizer(list(TWO), padding="max_length", max_length=FIXED_LENGTH, return_tensors="pt")["input_ids"].shape
    return tuple(longest), tuple(fixed)


def _shape(value, name: str) -> tuple[int, ...]:
    try:
        shape = tuple(int(v) for v in value)
    except (TypeError, ValueError):
        raise Problem(f"{name}은(는) 텐서의 모양(정수 두 개, 예: tuple(x.shape))이어야 합니다.") from None
    if len(shape) != 2:
        raise Problem(f"{name}은(는) (문장 수, 길이) 두 값이어야 합니다(받은 값의 길이: {len(shape)}). "
                      "input_ids 텐서의 모양 전체를 넣으세요.")
    return shape


@exercise("1.2", "padding=True와 padding=\"max_length\"", fields=("longest_shape", "fixed_shape"),
          revisit="1장 '여러 문장을 한 배치로' 절", page=PAGE)
def _padding(ctx, longest_shape, fixed_shape):
    longest, fixed = _shape(longest_shape, "longest_shape"), _shape(fixed_shape, "fixed_shape")
    ref_longest, ref_fixed = padded_shapes(ctx.tokenizer)
    if (longest, fixed) == (ref_fixed, ref_longest) and ref_longest != ref_fixed:
        raise Problem("두 모양이 서로 바뀌었습니다. padding=True는 배치에서 가장 긴 문장에, padding=\"max_length\"는 "
                      "max_length에 맞춥니다.")
    for got, want, name in ((longest, ref_longest, "longest_shape"), (fixed, ref_fixed, "fixed_shape")):
        if got[0] != want[0]:
            raise Problem(f"{name}의 첫 값(문장 수)이 배치의 문장 수와 다릅니다. 준비 셀의 두 문장(two)을 한 번에 넣으세요.")
        if got != want:
            if name == "longest_shape" and got[1] == want[1] - 2:
                raise Problem("longest_shape의 길이가 특수 토큰 두 개만큼 짧습니다. tokenizer(...)는 [CLS]와 [SEP]을 붙입니다.")
            raise Problem(f"{name}의 길이(둘째 값)가 기대한 값과 다릅니다. 패딩 방식과 max_length를 확인하세요.")
    return (f"padding=True는 가장 긴 문장에 맞춰 {ref_longest}, padding=\"max_length\"는 {FIXED_LENGTH}까지 채워 "
            f"{ref_fixed}입니다.")


# ----------------------------------------------------------------------------- 1.3

def changed_positions(tokenizer, model) -> tuple[int, int, int]:
    """(세그먼트 id를 모두 0으로 바꾸면 입력 임베딩이 달라지는 위치 수, 둘째 문장(세그먼트 1)의 토큰 수, 전체 토큰 수)."""
    import torch

    enc = tokenizer(*PAIR, return_tensors="pt")
    emb = getattr(model, "bert", model).embeddings
    with torch.no_grad():
        e_pair = emb(input_ids=enc["input_ids"], token_type_ids=enc["token_type_ids"])
        e_zero = emb(input_ids=enc["input_ids"], token_type_ids=torch.zeros_like(enc["token_type_ids"]))
    changed = int(((e_pair - e_zero).abs().amax(dim=-1) > 1e-6).sum())
    return changed, int(enc["token_type_ids"].sum()), int(enc["input_ids"].shape[1])


@exercise("1.3", "세그먼트 id를 모두 0으로", fields=("n_changed",),
          revisit="1장 '문장 쌍과 세그먼트 id' 절", page=PAGE)
def _segments(ctx, n_changed):
    got = _count(n_changed, "n_changed")
    ref, n_second, n_all = changed_positions(ctx.tokenizer, ctx.model)
    if got != ref:
        if got == n_all and ref < n_all:
            raise Problem("n_changed가 입력의 모든 토큰 수와 같습니다. 세그먼트 id가 원래 0이던 첫 문장의 토큰은 입력 임베딩이 "
                          "그대로입니다. 토큰마다 두 임베딩을 견주어 달라진 위치만 세세요.")
        if got == ref - 1:
            raise Problem("하나가 모자랍니다. 둘째 문장 끝의 [SEP]도 세그먼트 1에 속합니다.")
        if got == 0:
            raise Problem("n_changed가 0입니다. token_type_ids를 모두 0으로 바꾼 입력과 원래 입력으로 입력 임베딩을 각각 계산해 "
                          "견주었는지 확인하세요.")
        raise Problem("n_changed가 기대한 값과 다릅니다. 입력 임베딩(model.embeddings)을 두 번 계산해 위치마다 견주세요.")
    return (f"세그먼트 id를 모두 0으로 바꾸면 둘째 문장의 토큰 {n_second}개([SEP] 포함)만 입력이 달라집니다. "
            "첫 문장은 원래도 세그먼트 0이었기 때문입니다.")


# ----------------------------------------------------------------------------- 1.4

def blank_candidates(tokenizer, mlm, k: int = 5) -> tuple[list[str], list[str]]:
    """(한 토큰 예측 상위 k개 토큰, 어절 채우기 상위 k개 어절)."""
    from ..models import fill_mask, fill_word

    tokens = [t for t, _ in fill_mask(mlm, tokenizer, BLANK, k=k)[0]]
    words = [w for w, _ in fill_word(mlm, tokenizer, BLANK, k=k)]
    return tokens, words


@exercise("1.4", "조각 여럿인 어절과 한 토큰 예측", fields=("n_multi", "shared"),
          revisit="1장 '맛보기: BERT가 빈칸을 채운다' 절", page=PAGE)
def _blank_words(ctx, n_multi, shared):
    multi, both = _count(n_multi, "n_multi"), _count(shared, "shared")
    tokens, words = blank_candidates(ctx.tokenizer, ctx.mlm)
    pieces = [len(ctx.tokenizer.tokenize(w)) for w in words]
    ref_multi = sum(n > 1 for n in pieces)
    ref_shared = sum(t in words for t in tokens)
    if multi > len(words):
        raise Problem(f"n_multi는 어절 채우기 상위 {len(words)}개 가운데 몇 개인지라 {len(words)}보다 클 수 없습니다.")
    if multi != ref_multi:
        if multi == len(words) - ref_multi:
            raise Problem("조각이 하나인 어절을 센 것 같습니다. tokenizer.tokenize로 자른 조각이 둘 이상인 어절을 세세요.")
        if multi == sum(len(w) > 1 for w in words):
            raise Problem("글자 수로 센 것 같습니다. 글자가 아니라 tokenizer.tokenize로 자른 조각의 수를 보세요.")
        raise Problem("n_multi가 기대한 값과 다릅니다. fill_word가 준 어절마다 tokenizer.tokenize로 잘라 조각 수를 보세요.")
    if both > len(words) - ref_multi:
        raise Problem("shared가 너무 큽니다. 조각이 둘 이상인 어절은 한 토큰 예측의 목록에 나올 수 없으므로, 한 조각인 어절의 "
                      "수보다 클 수 없습니다.")
    if both != ref_shared:
        raise Problem("shared가 기대한 값과 다릅니다. fill_mask의 토큰 다섯 개 가운데 fill_word의 어절 목록에 글자 그대로 "
                      "있는 것을 세세요.")
    return (f"어절 채우기 상위 {len(words)}개 가운데 {ref_multi}개는 조각이 둘 이상이라 [MASK] 하나로는 나올 수 없고, "
            f"두 목록에 함께 있는 것은 {ref_shared}개입니다.")


# ----------------------------------------------------------------------------- 1.5

open_question(
    "1.5", "한 글자 토큰만 남긴 어휘", revisit="1장 '어휘에 없는 글자는 얼마나 될까' 절", page=PAGE,
    points=[
        "[UNK]는 거의 그대로다: 지금 어휘가 덮던 글자는 한 글자 토큰만으로도 덮이므로, [UNK]는 여전히 어휘에 없는 "
        "글자('똠' 같은 한글이나 빠진 기호)에서만 생긴다.",
        "어절이 모두 음절 하나하나로 잘리므로 어절당 조각 수가 어절의 글자 수와 같아져 지금 어휘보다 커진다.",
        "같은 문장이 더 많은 토큰이 되어 최대 길이(이 모델은 config.max_position_embeddings)에 더 빨리 닿고, 어텐션의 "
        "계산은 길이의 제곱으로 늘어난다.",
        "조각 하나가 담는 뜻이 적어, 모델이 음절을 조합해 단어와 조사를 알아보는 일을 층 안에서 배워야 한다.",
    ],
)
