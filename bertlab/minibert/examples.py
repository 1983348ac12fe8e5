"""사전학습 예제 만들기: 문서를 토큰 id로, BERT 방식의 문장 쌍(NSP), 배치, MLM 가리기(조각 단위·통단어·단어를 [MASK] 하나로).

`pretrain`(학습 루프)과 `modelcard`(평가)가 함께 씁니다.
"""

from __future__ import annotations

import random

import torch


def encode_documents(tokenizer, docs: list[list[str]]) -> list[list[list[int]]]:
    """문서마다 문장별 토큰 id 목록(특수 토큰 없이)."""
    flat = [s for d in docs for s in d]
    ids = tokenizer(flat, add_special_tokens=False)["input_ids"]
    out, i = [], 0
    for d in docs:
        out.append(ids[i : i + len(d)])
        i += len(d)
    return out


def make_pairs(enc_docs: list[list[list[int]]], max_len: int, rng: random.Random) -> list[tuple[list[int], list[int], int]]:
    """BERT 방식의 문장 쌍: 연속된 문장을 모아 A/B로 나누고, 절반은 B를 다른 문서에서 가져온다(NSP 라벨 1).

    라벨 0 = B가 실제 다음 문장, 1 = 무작위 문장.
    """
    budget = max_len - 3  # [CLS] A [SEP] B [SEP]
    pairs = []
    n_docs = len(enc_docs)
    for d_idx, doc in enumerate(enc_docs):
        target = budget if rng.random() > 0.1 else rng.randint(8, budget)  # 가끔 짧은 예제도
        chunk: list[list[int]] = []
        length = 0
        for s_idx, sent in enumerate(doc):
            chunk.append(sent)
            length += len(sent)
            if s_idx == len(doc) - 1 or length >= target:
                if len(chunk) >= 2 or n_docs > 1:
                    a_end = rng.randint(1, len(chunk) - 1) if len(chunk) >= 2 else 1
                    a = [t for s in chunk[:a_end] for t in s]
                    if len(chunk) == 1 or rng.random() < 0.5:
                        other = rng.randrange(n_docs - 1)
                        other += other >= d_idx
                        odoc = enc_docs[other]
                        start = rng.randrange(len(odoc))
                        b = [t for s in odoc[start:] for t in s]
                        label = 1
                    else:
                        b = [t for s in chunk[a_end:] for t in s]
                        label = 0
                    while len(a) + len(b) > budget:  # 긴 쪽을 자른다
                        if len(a) > len(b):
                            a.pop()
                        else:
                            b.pop()
                    if a and b:
                        pairs.append((a, b, label))
                chunk, length = [], 0
    return pairs


def collate(pairs, tokenizer) -> dict[str, torch.Tensor]:
    cls, sep, pad = tokenizer.cls_token_id, tokenizer.sep_token_id, tokenizer.pad_token_id
    seqs = [[cls] + a + [sep] + b + [sep] for a, b, _ in pairs]
    types = [[0] * (len(a) + 2) + [1] * (len(b) + 1) for a, b, _ in pairs]
    width = max(map(len, seqs))
    ids = torch.full((len(seqs), width), pad, dtype=torch.long)
    tt = torch.zeros_like(ids)
    for i, (s, t) in enumerate(zip(seqs, types)):
        ids[i, : len(s)] = torch.tensor(s)
        tt[i, : len(t)] = torch.tensor(t)
    return {
        "input_ids": ids,
        "token_type_ids": tt,
        "attention_mask": (ids != pad).long(),
        "next_sentence_label": torch.tensor([lab for _, _, lab in pairs]),
    }


def mask_tokens(
    input_ids: torch.Tensor,
    tokenizer,
    generator: torch.Generator,
    prob: float = 0.15,
    all_mask: bool = False,
    continuation: torch.Tensor | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """MLM 마스킹. 특수 토큰이 아닌 위치의 `prob`를 고르고, 고른 위치를 80 % [MASK], 10 % 무작위, 10 % 그대로.

    `all_mask=True`면 고른 위치를 모두 [MASK]로 바꿉니다(평가용). 돌려주는 labels는 고르지 않은 곳이 -100.
    `continuation`(어휘 id마다 '##' 조각인지를 담은 bool 텐서, `continuation_ids`)을 주면 통단어 마스킹:
    단어(첫 조각 + 뒤따르는 ## 조각들)를 `prob`의 확률로 통째로 고릅니다. 한국어에서는 '다리 ##를'처럼
    어절이 통째로 가려지므로, 모델이 붙어 있는 조사 대신 문장의 다른 말에서 단서를 찾아야 합니다.
    """
    special = torch.tensor(tokenizer.all_special_ids)
    candidates = ~torch.isin(input_ids, special)
    draw = torch.rand(input_ids.shape, generator=generator) < prob
    if continuation is None:
        selected = draw & candidates
        starts = candidates
    else:
        is_cont = continuation[input_ids] & candidates
        word = torch.cumsum((~is_cont).long(), dim=1)  # 같은 단어의 조각은 같은 번호
        starts = ~is_cont & candidates
        # 단어 번호마다 첫 조각의 추첨 결과를 모아(## 조각은 0을 더함) 같은 단어의 모든 조각에 나눠 준다
        chosen = torch.zeros(input_ids.shape[0], input_ids.shape[1] + 1, dtype=torch.long)
        chosen.scatter_add_(1, word, (draw & starts).long())
        selected = chosen.gather(1, word).bool() & candidates
    # 문장마다 최소 한 위치는 고른다
    none = selected.sum(1) == 0
    if none.any():
        for row in torch.nonzero(none).flatten().tolist():
            cand = torch.nonzero(starts[row]).flatten()
            if len(cand):
                pick = cand[torch.randint(len(cand), (1,), generator=generator)]
                if continuation is None:
                    selected[row, pick] = True
                else:
                    selected[row] = (word[row] == word[row, pick]) & candidates[row]
    labels = torch.where(selected, input_ids, torch.full_like(input_ids, -100))
    inputs = input_ids.clone()
    if all_mask:
        inputs[selected] = tokenizer.mask_token_id
        return inputs, labels
    r = torch.rand(input_ids.shape, generator=generator)
    inputs[selected & (r < 0.8)] = tokenizer.mask_token_id
    random_pos = selected & (r >= 0.8) & (r < 0.9)
    inputs[random_pos] = torch.randint(len(special), len(tokenizer), (int(random_pos.sum()),), generator=generator)
    return inputs, labels


def collapse_words(pairs, continuation: torch.Tensor, generator: torch.Generator, prob: float, mask_id: int):
    """단어를 통째로 [MASK] 하나로: 조각이 둘 이상인 단어(첫 조각 + ## 조각들)를 `prob`의 확률로 [MASK] 토큰 하나로 줄이고,
    그 자리의 정답을 단어의 첫 조각으로 둡니다.

    독자는 빈칸에 어절 하나를 가리는 [MASK]를 하나만 씁니다(fill-mask, 실습실, 수용 세트). 조각 단위로만 가려 학습한 모델은
    [MASK] 하나를 조각 하나로 읽으므로, 이런 입력도 사전학습에서 보게 하려는 것입니다. 돌려주는 값: 새 쌍들과, 쌍마다
    ``(문장 A=0·B=1, 그 문장 안의 위치, 정답 id)`` 목록.
    """
    is_cont = continuation.tolist()  # 토큰마다 텐서를 색인하지 않도록 한 번만 목록으로
    out, targets = [], []
    for a, b, label in pairs:
        segments, found = [], []
        for seg_index, seg in enumerate((a, b)):
            words: list[list[int]] = []
            for tok in seg:
                if words and is_cont[tok]:
                    words[-1].append(tok)
                else:
                    words.append([tok])
            draws = torch.rand(len(words), generator=generator).tolist()
            new: list[int] = []
            for word, r in zip(words, draws):
                if len(word) >= 2 and not is_cont[word[0]] and r < prob:
                    found.append((seg_index, len(new), word[0]))
                    new.append(mask_id)
                else:
                    new.extend(word)
            segments.append(new)
        out.append((segments[0], segments[1], label))
        targets.append(found)
    return out, targets


def label_collapsed(labels: torch.Tensor, pairs, found) -> None:
    """`collapse_words`가 줄인 자리의 정답(첫 조각)을 `collate`한 배치의 labels에 적습니다([CLS] A [SEP] B [SEP] 순서).
    그 자리의 [MASK]는 특수 토큰이어서 `mask_tokens`가 고르지 않으므로, 정답은 여기서만 생깁니다."""
    for row, hits in enumerate(found):
        for seg_index, pos, target in hits:
            labels[row, 1 + pos if seg_index == 0 else 2 + len(pairs[row][0]) + pos] = target


def continuation_ids(tokenizer) -> torch.Tensor:
    """어휘 id마다 WordPiece 이어 붙는 조각('##'로 시작)인지: 통단어 마스킹(`mask_tokens`)에 씁니다."""
    tokens = tokenizer.convert_ids_to_tokens(list(range(len(tokenizer))))
    return torch.tensor([t.startswith("##") for t in tokens])
