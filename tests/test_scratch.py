"""bertlab.scratch: 밑바닥 BERT가 transformers와 같은 값을 내는지(패딩 배치), 맞지 않는 가중치를 거절하는지."""

from __future__ import annotations

import pytest
import torch
from transformers import BertConfig, BertForPreTraining, BertForSequenceClassification, BertModel

from bertlab import scratch as S


def _hf_config(**overrides):
    kwargs = dict(
        vocab_size=120, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
        max_position_embeddings=64, attn_implementation="eager",
    )
    kwargs.update(overrides)
    return BertConfig(**kwargs)


def _assert_same(ours: S.Output, theirs):
    torch.testing.assert_close(ours.last_hidden_state, theirs.last_hidden_state)
    torch.testing.assert_close(ours.pooler_output, theirs.pooler_output)
    assert len(ours.attentions) == len(theirs.attentions)
    for a, b in zip(ours.attentions, theirs.attentions):
        torch.testing.assert_close(a, b)
    for a, b in zip(ours.hidden_states, theirs.hidden_states):
        torch.testing.assert_close(a, b)


def test_matches_transformers_on_padded_batch(tiny_bert, tiny_batch):
    ours = S.Bert.from_transformers(tiny_bert)
    batch = dict(tiny_batch)
    batch["token_type_ids"] = batch["token_type_ids"].clone()
    batch["token_type_ids"][0, 5:] = 1  # 문장 쌍처럼 세그먼트 B도 섞는다
    with torch.no_grad():
        theirs = tiny_bert(**batch, output_attentions=True, output_hidden_states=True)
        mine = ours(**batch)
    _assert_same(mine, theirs)
    # [PAD] 위치(두 번째 문장의 6번부터)는 어텐션을 한 톨도 받지 않는다
    for probs in mine.attentions:
        assert probs[1, :, :, 6:].abs().max() == 0


def test_loads_from_models_with_heads():
    torch.manual_seed(0)
    clf = BertForSequenceClassification(_hf_config(num_labels=2)).eval()
    ours = S.Bert.from_transformers(clf)  # 'bert.' 접두어가 붙은 이름도 읽는다
    ids = torch.randint(5, 120, (2, 7))
    mask = torch.tensor([[1] * 7, [1] * 4 + [0] * 3])
    with torch.no_grad():
        theirs = clf.bert(input_ids=ids, attention_mask=mask, output_attentions=True, output_hidden_states=True)
        _assert_same(ours(ids, mask), theirs)


def test_pretraining_heads_match():
    torch.manual_seed(0)
    hf = BertForPreTraining(_hf_config()).eval()
    ours = S.PreTraining.from_transformers(hf)
    ids = torch.randint(5, 120, (2, 8))
    mask = torch.tensor([[1] * 8, [1] * 5 + [0] * 3])
    with torch.no_grad():
        theirs = hf(input_ids=ids, attention_mask=mask)
        mlm, nsp, _ = ours(ids, mask)
    torch.testing.assert_close(mlm, theirs.prediction_logits)
    torch.testing.assert_close(nsp, theirs.seq_relationship_logits)
    # 가중치 공유: MLM 출력 행렬은 토큰 임베딩 그 자체
    assert ours.mlm_logits(torch.zeros(1, 32)).shape == (1, 120)


def test_matches_bundled_mini(mini_tokenizer):
    import bertlab as bl

    hf = BertModel.from_pretrained(bl.MINI_DIR, attn_implementation="eager").eval()
    ours = S.Bert.from_transformers(hf)
    batch = mini_tokenizer(["배 타고 배 먹으니 배 부르다.", "좋아요"], padding=True, return_tensors="pt")
    assert batch["attention_mask"][1].sum() < batch["attention_mask"].shape[1]  # 정말로 패딩이 있다
    with torch.no_grad():
        _assert_same(ours(**batch), hf(**batch, output_attentions=True, output_hidden_states=True))


def test_incompatible_weights_are_refused(tiny_bert):
    deeper = S.Bert(S.Config.from_hf(_hf_config(num_hidden_layers=3)))
    with pytest.raises(ValueError, match="원본에 없습니다"):
        S.load_weights(deeper, tiny_bert)
    wider = S.Bert(S.Config.from_hf(_hf_config(hidden_size=64)))
    with pytest.raises(ValueError, match="모양이 맞지 않는"):
        S.load_weights(wider, tiny_bert)
    with pytest.raises(TypeError):
        S.load_weights(wider, "bert-base")
    with pytest.raises(ValueError, match="GELU"):
        S.Config.from_hf(_hf_config(hidden_act="relu"))
    with pytest.raises(ValueError, match="나누어떨어져야"):
        S.Config(hidden_size=30, num_heads=4)
    with pytest.raises(ValueError, match="사전학습 헤드"):
        S.PreTraining.from_transformers(tiny_bert)


def test_untied_decoder_is_refused():
    torch.manual_seed(0)
    hf = BertForPreTraining(_hf_config(tie_word_embeddings=False)).eval()
    with torch.no_grad():
        hf.cls.predictions.decoder.weight.add_(1.0)
    with pytest.raises(ValueError, match="공유하지 않습니다"):
        S.PreTraining.from_transformers(hf)


def test_mask_bias_and_dropout():
    bias = S.additive_mask(torch.tensor([[1, 1, 0]]), torch.float32)  # 3장의 것을 그대로 쓴다
    assert bias.shape == (1, 1, 1, 3)
    assert bias[0, 0, 0, 0] == 0 and bias[0, 0, 0, 2] < -1e30
    torch.manual_seed(0)
    model = S.Bert(S.Config(vocab_size=50, hidden_size=16, num_layers=1, num_heads=2, intermediate_size=32, max_position=16))
    ids = torch.randint(0, 50, (2, 6))
    model.train()
    assert not torch.equal(model(ids).last_hidden_state, model(ids).last_hidden_state)  # 드롭아웃이 켜져 있다
    model.eval()
    torch.testing.assert_close(model(ids).last_hidden_state, model(ids).last_hidden_state)


def test_mask_tokens_has_one_definition():
    """MLM 마스킹은 가르치는 API(bertlab.scratch, 7장)에 한 벌만 있고, 미니 BERT 공장은 그것을 가져다 쓴다(이슈 30 §1)."""
    from bertlab.minibert import examples as E
    from bertlab.minibert import pretrain as P

    assert E.mask_tokens is S.mask_tokens and P.mask_tokens is S.mask_tokens
    assert E.continuation_ids is S.continuation_ids


def test_mask_tokens_rules(mini_tokenizer):
    """80/10/10, 특수 토큰은 고르지 않음, 문장마다 최소 한 자리, 평가용 all_mask, 통단어 마스킹."""
    from bertlab import data

    tok = mini_tokenizer
    docs = [s for d in data.read_documents(data.TEXT_DIR / "everyday_ko.txt") for s in d][:600]
    ids = tok(docs, padding=True, truncation=True, max_length=64, return_tensors="pt")["input_ids"]
    special = torch.isin(ids, torch.tensor(tok.all_special_ids))
    inputs, labels = S.mask_tokens(ids, tok, torch.Generator().manual_seed(0))
    chosen = labels != -100
    assert not (chosen & special).any()
    assert (labels[chosen] == ids[chosen]).all() and (inputs[~chosen] == ids[~chosen]).all()
    assert 0.13 < chosen.sum() / (~special).sum() < 0.18
    as_mask = (inputs[chosen] == tok.mask_token_id).float().mean()
    kept = (inputs[chosen] == ids[chosen]).float().mean()
    assert 0.76 < as_mask < 0.84 and 0.07 < kept < 0.13
    # 확률이 0이어도 문장마다 한 자리는 고른다(모든 문장이 손실에 들어가도록)
    _, labels0 = S.mask_tokens(ids, tok, torch.Generator().manual_seed(0), prob=0.0)
    assert ((labels0 != -100).sum(1) == 1).all()
    # 평가용: 고른 자리는 모두 [MASK]
    inputs_eval, labels_eval = S.mask_tokens(ids, tok, torch.Generator().manual_seed(0), all_mask=True)
    assert (inputs_eval[labels_eval != -100] == tok.mask_token_id).all()
    # 통단어: '##' 조각은 바로 앞 조각과 함께 골라지거나 함께 빠진다
    cont = S.continuation_ids(tok)
    assert cont.shape == (len(tok),) and not cont[tok.all_special_ids].any()
    _, labels_w = S.mask_tokens(ids, tok, torch.Generator().manual_seed(0), prob=0.3, continuation=cont)
    sel = labels_w != -100
    is_cont = cont[ids][:, 1:]
    assert is_cont.any() and (sel[:, 1:][is_cont] == sel[:, :-1][is_cont]).all() and sel[:, 1:][is_cont].any()
