"""사전학습 예제 만들기: 문서를 토큰 id로, BERT 방식의 문장 쌍(NSP), 배치, MLM 가리기(조각 단위·통단어·단어를 [MASK] 하나로).

`pretrain`(학습 루프)과 `modelcard`(평가)가 함께 씁니다. MLM 가리기(`mask_tokens`)와 '##' 조각 표(`continuation_ids`)는
7장이 설명하는 가르치는 API `bertlab.scratch`에 한 벌만 있고, 여기서는 그것을 가져다 씁니다(예전 이름 그대로 import됨).
"""

from __future__ import annotations

import random

import torch

from ..scratch import continuation_ids, mask_tokens

__all__ = ["encode_documents", "make_pairs", "collate", "mask_tokens", "continuation_ids", "collapse_words", "label_collapsed"]


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
