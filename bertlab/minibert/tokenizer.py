"""미니 BERT의 WordPiece 어휘 학습 (1장의 WordPiece 설명과 부록 '번들 미니 BERT').

함정 두 가지를 여기서 처리합니다.

- 문서 말뭉치에는 한글 음절이 1,200개 남짓뿐이라, 그대로 학습하면 '밥', '먹' 같은 일상 음절이 [UNK]가 됩니다.
  KS X 1001의 상용 한글 2,350자를 단어 첫머리용과 `##` 이어붙임용 두 벌 모두 어휘에 넣습니다.
- 말뭉치에 자주 나오는 '배를', '눈이' 같은 '낱말+조사'는 WordPiece가 통째로 한 토큰으로 배웁니다. 그러면 책이 다루는
  다의어(배, 눈, 말, 밤, 차, 다리)의 벡터가 뜻보다 뒤에 붙은 조사에 따라 갈립니다. 이 여섯 낱말에 조사가 붙은 토큰은
  어휘에서 빼서, mBERT처럼 '배를' → '배' + '##를'로 잘리게 합니다.
- 'ㅋㅋ', 'ㅠㅠ' 같은 호환용 자모(U+3131–U+3163)도 두 꼴 모두 넣습니다. 빠지면 감정 문장의 'ㅋㅋ'가 [UNK]가 됩니다.
- transformers 5에서 `BertTokenizerFast(vocab_file=...)`는 경고 없이 5개짜리 어휘를 만듭니다.
  그래서 `tokenizers` 객체를 직접 만들어 넘기고, 저장 후 다시 읽어 어휘 크기를 확인합니다.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]

# 책이 뜻을 구별해 보는 다의어: 조사가 붙은 꼴을 한 토큰으로 두지 않는다
STUDIED_WORDS = ("배", "눈", "말", "밤", "차", "다리")
PARTICLES = (
    "이", "가", "은", "는", "을", "를", "에", "에서", "에게", "의", "와", "과", "도", "만", "로", "으로",
    "까지", "부터", "처럼", "보다", "이나", "나", "랑", "이랑", "에는", "에도", "에서는", "으로는", "로는",
    "에서도", "에게는", "만큼", "마다", "조차", "밖에", "한테", "께", "이다", "였다", "이었다", "인데",
)


def compatibility_jamo() -> list[str]:
    """호환용 한글 자모 ㄱ–ㅎ, ㅏ–ㅣ(U+3131–U+3163, 51자): 'ㅋㅋ', 'ㅠㅠ' 같은 초성체를 위한 것."""
    return [chr(c) for c in range(0x3131, 0x3164)]


def is_word_with_particle(token: str, words: tuple[str, ...] = STUDIED_WORDS) -> bool:
    """`token`이 `words` 중 하나에 조사가 붙은 꼴인가('배를' → True, '배우' → False)."""
    return any(token.startswith(w) and token[len(w):] in PARTICLES for w in words)


def ksx1001_hangul() -> list[str]:
    """KS X 1001(EUC-KR)에 들어 있는 상용 한글 음절 2,350자."""
    out = []
    for code in range(0xAC00, 0xD7A4):
        ch = chr(code)
        # 파이썬의 euc-kr 코덱은 나머지 음절도 8바이트 조합 시퀀스로 인코딩하므로, 2바이트 완성형만 센다
        if len(ch.encode("euc-kr")) == 2:
            out.append(ch)
    return out


def _build_tokenizer(vocab: dict[str, int]):
    from tokenizers import Tokenizer, decoders, normalizers, pre_tokenizers, processors
    from tokenizers.models import WordPiece

    tok = Tokenizer(WordPiece(vocab, unk_token="[UNK]", continuing_subword_prefix="##", max_input_chars_per_word=100))
    # BERT 정규화: 소문자화·악센트 제거를 끈다(끄지 않으면 한글이 자모로 분해됨)
    tok.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=False, lowercase=False
    )
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    tok.decoder = decoders.WordPiece(prefix="##")
    return tok


def train_wordpiece(
    sentences: Iterable[str],
    vocab_size: int = 12000,
    min_frequency: int = 2,
    cover_syllables: bool = True,
    split_words: tuple[str, ...] = STUDIED_WORDS,
) -> dict[str, int]:
    """문장들로 WordPiece 어휘를 학습해 {토큰: id}를 돌려줍니다(특수 토큰이 0..4번).

    `cover_syllables=True`면 상용 한글 2,350자와 호환용 자모 51자를 `X`와 `##X` 두 꼴로 모두 넣고, 그만큼
    학습 어휘를 줄여 전체 크기를 `vocab_size`에 맞춥니다. `split_words`의 낱말에 조사가 붙은 토큰은 빼고,
    낱말 자체는 어휘에 넣습니다.
    """
    from tokenizers import Tokenizer, normalizers, pre_tokenizers, trainers
    from tokenizers.models import WordPiece

    syllables = ksx1001_hangul() + compatibility_jamo() if cover_syllables else []
    extra = list(split_words) + syllables + ["##" + s for s in syllables]
    learn_size = vocab_size - len(extra)
    if learn_size < 1000:
        raise ValueError(f"vocab_size={vocab_size}는 너무 작습니다: 음절·자모·다의어 {len(extra)}개를 넣고도 학습 어휘가 1,000개 이상 남아야 합니다.")
    tok = Tokenizer(WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=False, lowercase=False
    )
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(
        vocab_size=learn_size,
        min_frequency=min_frequency,
        special_tokens=SPECIAL_TOKENS,
        continuing_subword_prefix="##",
    )
    tok.train_from_iterator(sentences, trainer=trainer)
    learned = sorted(tok.get_vocab().items(), key=lambda kv: kv[1])
    vocab: dict[str, int] = {}
    for token, _ in learned:
        if not is_word_with_particle(token, split_words):
            vocab.setdefault(token, len(vocab))
    for token in extra:
        vocab.setdefault(token, len(vocab))
    # 학습 어휘와 음절이 겹친 만큼 남는 자리는 채우지 않는다: 크기는 vocab_size 이하
    return vocab


def make_hf_tokenizer(vocab: dict[str, int], model_max_length: int = 128):
    """{토큰: id}로 transformers의 BERT 토크나이저를 만듭니다(저장·재로딩해도 어휘가 그대로)."""
    from transformers import BertTokenizerFast

    if list(vocab)[: len(SPECIAL_TOKENS)] != SPECIAL_TOKENS:
        raise ValueError(f"어휘의 처음 다섯 토큰은 {SPECIAL_TOKENS}이어야 합니다.")
    hf = BertTokenizerFast(
        tokenizer_object=_build_tokenizer(vocab),
        do_lower_case=False,
        strip_accents=False,
        tokenize_chinese_chars=True,
        model_max_length=model_max_length,
        unk_token="[UNK]",
        sep_token="[SEP]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        mask_token="[MASK]",
    )
    if len(hf) != len(vocab):
        raise RuntimeError(f"토크나이저 어휘 크기가 {len(hf)}로, 기대한 {len(vocab)}와 다릅니다.")
    return hf


def save_tokenizer(tokenizer, out_dir: Path) -> None:
    """저장하고 다시 읽어 어휘 크기가 같은지 확인합니다(transformers 5의 5-토큰 함정 방지)."""
    from transformers import AutoTokenizer

    tokenizer.save_pretrained(out_dir)
    reloaded = AutoTokenizer.from_pretrained(out_dir)
    if len(reloaded) != len(tokenizer):
        raise RuntimeError(f"다시 읽은 토크나이저의 어휘가 {len(reloaded)}개입니다(저장 전 {len(tokenizer)}개).")


def unk_rate(tokenizer, sentences: Iterable[str]) -> dict[str, float]:
    """문장들의 [UNK] 비율과 어절당 조각 수."""
    n_tokens = n_unk = n_words = 0
    unk_id = tokenizer.unk_token_id
    for s in sentences:
        ids = tokenizer(s, add_special_tokens=False)["input_ids"]
        n_tokens += len(ids)
        n_unk += sum(i == unk_id for i in ids)
        n_words += len(s.split())
    return {
        "unk_rate": n_unk / max(n_tokens, 1),
        "pieces_per_word": n_tokens / max(n_words, 1),
        "tokens": n_tokens,
        "words": n_words,
    }
