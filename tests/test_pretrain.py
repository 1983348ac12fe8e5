"""사전학습 레시피(bertlab.minibert: corpus, tokenizer, pretrain)를 작은 말뭉치로 몇 초 만에 끝까지 돌려 본다."""

from __future__ import annotations

import json
import random

import pytest
import torch

from bertlab import data as D
from bertlab import senses as S
from bertlab.minibert import corpus as C
from bertlab.minibert import examples as E
from bertlab.minibert import pretrain as P
from bertlab.minibert import tokenizer as T

TINY = P.ModelSize(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64, max_position_embeddings=64)


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """Debian 문서 없이(네트워크·apt 불필요) 직접 쓴 문장과 템플릿 문단 100개로 말뭉치와 어휘를 만든다."""
    w = tmp_path_factory.mktemp("pretrain")
    P.build(w, template_docs=100, vocab_size=6000, use_debian=False, log=lambda *_: None)
    return w


def test_ksx1001_has_2350_syllables():
    s = T.ksx1001_hangul()
    assert len(s) == 2350 and "밥" in s and "먹" in s and "똠" not in s


def test_word_with_particle_rule():
    assert T.is_word_with_particle("배를") and T.is_word_with_particle("다리에서")
    assert not T.is_word_with_particle("배우") and not T.is_word_with_particle("밤나무")
    assert not T.is_word_with_particle("배") and len(T.compatibility_jamo()) == 51


def test_sense_paragraphs_cover_every_sense():
    paragraphs = C.read_sense_paragraphs()
    senses = {(r["word"], r["sense"]) for r in D.read_senses("eval")}
    assert set(paragraphs) == senses
    eval_sents = {r["sentence"] for r in D.read_senses("eval")}
    for (word, sense), paras in paragraphs.items():
        assert len(paras) >= 10, (word, sense)
        for para in paras:
            assert not eval_sents.intersection(para)
            # 문단마다 그 뜻으로 쓰인 낱말이 어절 첫머리에 두 번 이상
            starts = sum(w.startswith(word) for s in para for w in s.split())
            assert starts >= 2, (word, sense, para)


def test_corpus_split_and_cleaning(work):
    stats = json.loads((work / "corpus" / "stats.json").read_text(encoding="utf-8"))
    assert stats["train"]["sentences"] > 1000 and stats["heldout"]["documents"] > 0
    train = {s for d in D.read_documents(work / "corpus" / "train.txt") for s in d}
    held = {s for d in D.read_documents(work / "corpus" / "heldout.txt") for s in d}
    assert not (train & held), "held-out 문장이 학습 말뭉치에 섞였다"
    eval_sents = {r["sentence"] for r in D.read_senses() if r["split"] != "train"}
    assert len(eval_sents) == len(D.read_senses("eval")) + len(D.read_senses("eval_particle"))
    assert not (train & eval_sents), "다의어 평가 문장이 학습 말뭉치에 섞였다"


def test_particle_controlled_sense_sentences():
    """eval_particle 문장: 뜻마다 8개, 단어는 문장에 한 번만 어절 첫머리에 나오고 늘 목적격 조사(을/를)가 붙는다."""
    from collections import Counter

    from transformers import AutoTokenizer

    from bertlab import MINI_DIR
    from bertlab.course.korean import josa

    rows = D.read_senses("eval_particle")
    assert set(Counter((r["word"], r["sense"]) for r in rows).values()) == {8}
    assert {(r["word"], r["sense"]) for r in rows} == {(r["word"], r["sense"]) for r in D.read_senses("eval")}
    assert not {r["sentence"] for r in rows} & {r["sentence"] for r in D.read_senses("eval")}
    tok = AutoTokenizer.from_pretrained(MINI_DIR)
    for r in rows:
        word, sentence = r["word"], r["sentence"]
        starts = [w for w in sentence.split() if w.startswith(word)]
        assert starts == [josa(word, "을/를")], sentence
        pieces = tok.tokenize(sentence)
        k = pieces.index(word)
        assert pieces[k + 1] == "##" + starts[0][len(word):], (sentence, pieces)


def test_cleaning_rules():
    assert C.is_clean_sentence("오늘은 날씨가 맑아서 공원을 걸었다.")
    assert not C.is_clean_sentence("자세한 내용은 https://example.org 를 보세요.")
    assert not C.is_clean_sentence("Ctrl+S 키를 누르면 저장됩니다.")
    assert not C.is_clean_sentence("This is English only text here.")
    blocks = C.html_blocks("<html><body><p>첫 문단입니다.</p><pre>code 코드</pre><p>둘째 문단입니다.</p></body></html>")
    assert blocks == ["첫 문단입니다.", "둘째 문단입니다."]
    with pytest.raises(ValueError, match="eval_particle"):
        D.read_senses("test")


def test_tokenizer_roundtrip_keeps_vocabulary(work):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(work / "tokenizer")
    vocab = tok.get_vocab()
    assert len(tok) == len(vocab) > 4700  # 2,350자 × 두 꼴 + 학습 어휘
    assert list(vocab)[:0] == [] and tok.convert_ids_to_tokens(list(range(5))) == T.SPECIAL_TOKENS
    assert "[UNK]" not in tok.tokenize("나는 밥을 먹었다")
    assert "[UNK]" not in tok.tokenize("완전 대박 ㅋㅋ ㅠㅠ")
    # 다의어에 조사가 붙은 꼴은 한 토큰이 아니라 낱말 + ## 조사로 잘린다
    for word in T.STUDIED_WORDS:
        assert tok.tokenize(f"{word}를 {word}가") == [word, "##를", word, "##가"]
        assert tok.tokenize(f"{word}에서")[0] == word
    with pytest.raises(ValueError, match="vocab_size"):
        T.train_wordpiece(["가나다"], vocab_size=5000)


def test_pairs_and_masking(work):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(work / "tokenizer")
    # 여러 문장으로 된 문서에서는 B의 절반이 실제 다음 문장, 절반이 다른 문서의 문장이다.
    # (한 문장짜리 조각은 실제 다음 문장이 없어 늘 무작위가 되므로, 실제 말뭉치에서는 무작위 비율이
    #  조금 높다: 번들 모델의 말뭉치에서 56 %. 모델 카드에 적혀 있다.)
    rng = random.Random(1)
    docs = [[[rng.randrange(5, 900) for _ in range(5)] for _ in range(6)] for _ in range(300)]
    labels = [lab for *_, lab in E.make_pairs(docs, 48, random.Random(0))]
    assert 0.42 < sum(labels) / len(labels) < 0.58
    enc = E.encode_documents(tok, D.read_documents(work / "corpus" / "train.txt"))
    pairs = E.make_pairs(enc, 48, random.Random(0))
    assert all(len(a) + len(b) <= 45 and a and b for a, b, _ in pairs)
    batch = E.collate(pairs[:256], tok)
    g = torch.Generator().manual_seed(0)
    inputs, labels_ = E.mask_tokens(batch["input_ids"], tok, g)
    sel = labels_ != -100
    special = torch.isin(batch["input_ids"], torch.tensor(tok.all_special_ids))
    assert not (sel & special).any()
    share = sel.sum() / (~special).sum()
    assert 0.12 < share < 0.19
    masked = (inputs[sel] == tok.mask_token_id).float().mean()
    kept = (inputs[sel] == batch["input_ids"][sel]).float().mean()
    assert 0.7 < masked < 0.9 and 0.05 < kept < 0.2  # 80/10/10
    inputs2, labels2 = E.mask_tokens(batch["input_ids"], tok, torch.Generator().manual_seed(0), all_mask=True)
    assert (inputs2[labels2 != -100] == tok.mask_token_id).all()  # 평가: 선택한 위치는 모두 [MASK]


def test_whole_word_masking(work):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(work / "tokenizer")
    cont = E.continuation_ids(tok)
    assert cont.shape == (len(tok),) and cont.any() and not cont[tok.all_special_ids].any()
    enc = E.encode_documents(tok, D.read_documents(work / "corpus" / "train.txt"))
    batch = E.collate(E.make_pairs(enc, 48, random.Random(0))[:256], tok)
    ids = batch["input_ids"]
    inputs, labels = E.mask_tokens(ids, tok, torch.Generator().manual_seed(0), continuation=cont)
    sel = labels != -100
    special = torch.isin(ids, torch.tensor(tok.all_special_ids))
    assert not (sel & special).any() and (sel.sum(1) > 0).all()
    # '##' 조각은 바로 앞 조각과 늘 함께 골리거나 함께 빠진다(단어가 통째로)
    is_cont = cont[ids][:, 1:]
    assert (sel[:, 1:][is_cont] == sel[:, :-1][is_cont]).all()
    assert is_cont.sum() > 50 and sel[:, 1:][is_cont].any()  # 시험이 헛돌지 않게: 여러 조각짜리 단어가 실제로 골렸다
    assert 0.10 < sel.sum() / (~special).sum() < 0.22
    masked = (inputs[sel] == tok.mask_token_id).float().mean()
    assert 0.7 < masked < 0.9  # 80/10/10은 조각마다


def test_collapse_words(work):
    """여러 조각짜리 단어가 [MASK] 하나로 줄고, 배치의 그 자리 정답은 단어의 첫 조각이다. 나머지 토큰은 그대로다."""
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(work / "tokenizer")
    cont = E.continuation_ids(tok)
    enc = E.encode_documents(tok, D.read_documents(work / "corpus" / "train.txt"))
    pairs = E.make_pairs(enc, 48, random.Random(0))[:128]
    new, found = E.collapse_words(pairs, cont, torch.Generator().manual_seed(0), 0.5, tok.mask_token_id)
    assert len(new) == len(pairs) == len(found) and sum(map(len, found)) > 20   # 실제로 줄인 단어가 있다
    for (a, b, label), (a2, b2, label2), hits in zip(pairs, new, found):
        assert label2 == label
        where = {(seg_index, pos): target for seg_index, pos, target in hits}
        for seg_index, (old, short) in enumerate(((a, a2), (b, b2))):
            rebuilt = []   # [MASK] 자리를 원래 단어(첫 조각 + 뒤따르는 ## 조각)로 되돌리면 원래 문장이 된다
            for pos, t in enumerate(short):
                if (seg_index, pos) in where:
                    assert t == tok.mask_token_id
                    first = len(rebuilt)
                    assert old[first] == where[seg_index, pos] and cont[old[first + 1]]
                    rebuilt.append(old[first])
                    while len(rebuilt) < len(old) and cont[old[len(rebuilt)]]:
                        rebuilt.append(old[len(rebuilt)])
                else:
                    rebuilt.append(t)
            assert rebuilt == old
    batch = E.collate(new, tok)
    inputs, labels = E.mask_tokens(batch["input_ids"], tok, torch.Generator().manual_seed(1))
    before = labels.clone()
    E.label_collapsed(labels, new, found)
    placed = labels != before
    assert int(placed.sum()) == sum(map(len, found))                              # 줄인 자리마다 정답 하나
    assert (batch["input_ids"][placed] == tok.mask_token_id).all()                 # 그 자리는 [MASK]이고
    assert sorted(labels[placed].tolist()) == sorted(t for hits in found for _, _, t in hits)  # 정답은 첫 조각
    # 확률 0이면 아무것도 바꾸지 않는다
    same, none = E.collapse_words(pairs, cont, torch.Generator().manual_seed(0), 0.0, tok.mask_token_id)
    assert same == pairs and not any(none)


def test_train_resume_export_load(work, tmp_path):
    from transformers import BertForMaskedLM, BertModel

    settings = P.TrainSettings(steps=4, batch_size=8, max_len=32, warmup=2, eval_every=4, save_every=2, threads=1)
    P.train(work, settings, TINY, log=lambda *_: None)
    state = torch.load(work / "state.pt", weights_only=False)
    assert state["step"] == 4
    settings.steps = 6  # 같은 명령을 다시 실행하면 체크포인트에서 이어 한다
    P.train(work, settings, TINY, log=lambda *_: None)
    assert torch.load(work / "state.pt", weights_only=False)["step"] == 6
    records = [json.loads(x) for x in (work / "log.jsonl").read_text().splitlines()]
    evals = [r for r in records if "eval" in r]
    assert {"mask_acc", "freq_baseline_acc", "nsp_acc", "mlm_loss"} <= set(evals[-1]["eval"])
    assert set(evals[-1]["senses"]) == {"배", "눈", "말", "밤", "차", "다리"}
    out = P.export(work, tmp_path / "model")
    for cls in (BertModel, BertForMaskedLM):
        m, info = cls.from_pretrained(out, output_loading_info=True)
        assert [k for k in info["missing_keys"] if "position_ids" not in k] == []
        assert next(m.parameters()).dtype == torch.float32  # fp16으로 저장, fp32로 읽힘


def test_resume_matches_an_uninterrupted_run(work, tmp_path):
    """끊었다가 이어 한 학습이 끊기지 않은 학습과 같은 가중치를 내고(드롭아웃 난수까지 이어 받음), 기록에 스텝이 겹치지 않는다."""
    import shutil

    runs = {}
    for name in ("straight", "resumed"):
        w = tmp_path / name
        for part in ("corpus", "tokenizer"):
            shutil.copytree(work / part, w / part)
        runs[name] = w
    # 체크포인트는 2, 4, 6스텝에, 기록(평가)은 5, 6스텝에 남는다
    settings = P.TrainSettings(steps=6, batch_size=8, max_len=32, warmup=2, eval_every=5, save_every=2, threads=1)
    P.train(runs["straight"], settings, TINY, log=lambda *_: None)

    class Interrupted(Exception):
        pass

    def stop_at_5(line):  # 5스텝의 기록을 쓴 직후, 다음 체크포인트(6스텝) 전에 끊긴다
        if '"step": 5' in line:
            raise Interrupted

    with pytest.raises(Interrupted):
        P.train(runs["resumed"], settings, TINY, log=stop_at_5)
    assert torch.load(runs["resumed"] / "state.pt", weights_only=False)["step"] == 4
    P.train(runs["resumed"], settings, TINY, log=lambda *_: None)
    a, b = (torch.load(w / "state.pt", weights_only=False) for w in runs.values())
    assert a["step"] == b["step"] == 6
    for k in a["model"]:
        assert torch.equal(a["model"][k], b["model"][k]), k
    records = [json.loads(x) for x in (runs["resumed"] / "log.jsonl").read_text().splitlines()]
    assert [r["step"] for r in records] == [5, 6]  # 끊기기 전에 적힌 5스텝 기록은 지워지고 다시 적힘
    straight = [json.loads(x) for x in (runs["straight"] / "log.jsonl").read_text().splitlines()]
    assert [r["eval"] for r in records] == [r["eval"] for r in straight]


def test_build_can_reuse_a_tokenizer(work, tmp_path):
    """`tokenizer_from`을 주면 어휘를 새로 학습하지 않고 그 토크나이저를 그대로 쓴다(번들 모델을 그대로 재현하는 길)."""
    import shutil

    from transformers import AutoTokenizer

    w = tmp_path / "copy"
    shutil.copytree(work / "corpus", w / "corpus")
    P.build(w, template_docs=100, vocab_size=6000, use_debian=False, tokenizer_from=work / "tokenizer", log=lambda *_: None)
    assert AutoTokenizer.from_pretrained(w / "tokenizer").get_vocab() == AutoTokenizer.from_pretrained(work / "tokenizer").get_vocab()
    with pytest.raises(FileNotFoundError, match="tokenizer.json이 없습니다"):
        P.build(tmp_path / "other", template_docs=100, vocab_size=6000, use_debian=False, tokenizer_from=tmp_path, log=lambda *_: None)


def test_word_token_index():
    class Off:
        def __init__(self, v):
            self.v = v

        def tolist(self):
            return self.v

    assert S.word_token_index("나는 배를 탔다", "배", Off([(0, 0), (0, 1), (1, 2), (3, 4), (4, 5), (6, 8), (0, 0)])) == 3
    with pytest.raises(ValueError, match="어절"):
        S.word_token_index("나는 밥을 먹었다", "배", Off([]))


def test_sense_gap_p_values():
    """순열 검정: 뜻이 완벽히 갈리는 벡터는 p가 아주 작고, 뜻과 무관한 벡터는 p = 1, 뜻이 하나뿐이면 오류."""

    def vectors(word, points):
        return [S.SenseVector(word, sense, torch.tensor([[x, y]]), 0) for sense, (x, y) in points]

    g = torch.Generator().manual_seed(0)
    noise = (0.05 * torch.randn(12, 2, generator=g)).tolist()
    split = vectors("배", [("boat", (1 + a, b)) for a, b in noise[:6]] + [("pear", (a, 1 + b)) for a, b in noise[6:]])
    same = vectors("눈", [("eye", (1.0, 1.0))] * 6 + [("snow", (1.0, 1.0))] * 6)
    p = S.sense_gap_p_values(split + same, permutations=500)
    # 12문장을 6:6으로 나누는 924가지 중 관측값만큼 큰 것은 관측 자신과 뜻을 맞바꾼 것 둘뿐
    assert p["배"] < 0.02 and p["눈"] == 1.0
    assert S.sense_gap_p_values(split, permutations=500) == {"배": p["배"]}  # 같은 seed면 같은 값
    with pytest.raises(ValueError, match="뜻이 하나뿐"):
        S.sense_gap_p_values(vectors("말", [("horse", (1.0, 0.0)), ("horse", (0.0, 1.0))]))
    with pytest.raises(ValueError, match="permutations"):
        S.sense_gap_p_values(split, permutations=0)


def test_mask_rate_decays_linearly():
    """이슈 25의 레시피: 가리는 비율이 처음 값에서 마지막 값까지 선형으로 줄고, 둘이 같으면(run7) 고정이다."""
    from bertlab.minibert.pretrain import TrainSettings, mask_prob_at

    s = TrainSettings(steps=101, mask_prob=0.25, mask_prob_end=0.15)
    assert mask_prob_at(0, s) == pytest.approx(0.25)
    assert mask_prob_at(50, s) == pytest.approx(0.20)
    assert mask_prob_at(100, s) == pytest.approx(0.15)
    assert {mask_prob_at(k, TrainSettings()) for k in (0, 7000, 15999)} == {0.15}


def test_sense_repeat_repeats_only_the_sense_text(tmp_path):
    one = C.build_corpus(tmp_path, use_debian=False, template_docs=0)
    three = C.build_corpus(tmp_path, use_debian=False, template_docs=0, sense_repeat=3)
    for name, s in one.stats["sources"].items():
        factor = 3 if name in {"senses_ko", "senses_paragraphs_ko"} else 1
        assert three.stats["sources"][name]["train"]["sentences"] == factor * s["train"]["sentences"], name
        assert three.stats["sources"][name]["heldout"] == s["heldout"], name
    assert len(three.heldout) == len(one.heldout)
    with pytest.raises(ValueError, match="sense_repeat"):
        C.build_corpus(tmp_path, use_debian=False, template_docs=0, sense_repeat=0)


def test_reproduce_command_parses_back_to_the_settings():
    """모델 카드와 README가 적는 재현 명령: 명령줄로 다시 읽으면 같은 학습 설정이 된다."""
    import shlex
    from dataclasses import asdict

    settings = {"size": asdict(P.ModelSize()),
                "train": {**asdict(P.TrainSettings()), "steps": 24000, "whole_word": True, "mask_prob": 0.25},
                "corpus": {**P.CORPUS_DEFAULTS, "everyday_v3": True, "sense_repeat": 3}}
    command = P.reproduce_command(settings)
    assert "--everyday-v3" in command and "--everyday-v2" not in command and "--mask-prob-end" not in command
    a = P.parser().parse_args(shlex.split(command)[3:])   # 'python -m bertlab.minibert.pretrain' 뒤
    assert a.command == "all"
    assert {k: getattr(a, k) for k in P.CORPUS_DEFAULTS} == settings["corpus"]
    assert asdict(P.TrainSettings(**{k: getattr(a, k) for k in P.TrainSettings.__dataclass_fields__})) == settings["train"]
    assert asdict(P.ModelSize(**{k: getattr(a, k) for k in P.ModelSize.__dataclass_fields__})) == settings["size"]
    # 기본값(run7)의 설정에는 덧붙는 선택지가 없다
    assert P.reproduce_command({}).endswith("--tokenizer-from bertlab/assets/mini-bert")


def test_readme_gives_the_bundled_models_command():
    from pathlib import Path

    from bertlab.models import MINI_DIR

    settings = json.loads((MINI_DIR / "training_settings.json").read_text(encoding="utf-8"))
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert P.reproduce_command(settings) in readme
    assert f"{settings['train']['steps']:,}스텝" in readme
