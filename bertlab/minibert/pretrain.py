"""번들 미니 BERT의 사전학습 레시피: MLM(15 %, 80/10/10) + NSP (7장과 부록 '번들 미니 BERT').

한 번에 재현하는 명령::

    python -m bertlab.minibert.pretrain all --work ~/.cache/bertlab/pretrain --tokenizer-from bertlab/assets/mini-bert

`all`은 말뭉치 구축 → WordPiece 학습(`--tokenizer-from`이 있으면 그 어휘를 씀) → 사전학습(체크포인트에서 이어 하기) → 평가 → 내보내기를 차례로 합니다.
중간에 끊겨도 같은 명령을 다시 실행하면 마지막 체크포인트에서 이어집니다.

품질은 '선택된 모든 위치를 [MASK]로 바꾼' 입력에서 잽니다. 80/10/10 그대로 재면, 바꾸지 않은 10 %를
모델이 그대로 베껴 맞히므로 정확도가 부풀려집니다(빈도 기준선 4~6 %가 13~15 %로 보임).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

import torch
import torch.nn.functional as F

from .. import data
from ..models import MINI_DIR
from ..senses import sense_separation
from .examples import collapse_words, collate, continuation_ids, encode_documents, label_collapsed, make_pairs, mask_tokens
from . import corpus as corpus_mod
from . import tokenizer as tok_mod


@dataclass
class ModelSize:
    hidden_size: int = 256
    num_hidden_layers: int = 4
    num_attention_heads: int = 4
    intermediate_size: int = 1024
    max_position_embeddings: int = 128


@dataclass
class TrainSettings:
    # 기본값 = run7의 설정. 번들 모델을 그대로 재현하는 명령은 그 모델의 training_settings.json에서 `reproduce_command`가
    # 만든다(기본값과 다른 설정만 선택지로; README와 모델 카드에 있음). 어휘를 새로 학습하면 토큰 id가 달라진다: `build` 참고.
    steps: int = 16000
    batch_size: int = 32
    max_len: int = 48
    lr: float = 5e-4
    warmup: int = 600
    weight_decay: float = 0.01
    nsp: bool = True
    seed: int = 0
    eval_every: int = 500
    save_every: int = 250
    threads: int = 2  # 번들 모델은 쉬는 2코어 CPU에서 2스레드로 학습했다. 코어를 다른 작업과 나눠 쓸 때는 1스레드가 빨랐다(탐색 기록)
    whole_word: bool = False  # 통단어 마스킹(단어의 ## 조각까지 함께 고름). run7은 False
    collapse_words: float = 0.0  # 조각이 둘 이상인 단어를 이 확률로 [MASK] 하나로 줄임(`collapse_words`). run7은 0
    mask_prob: float = 0.15  # 가리는 비율(처음). run7은 0.15 고정
    mask_prob_end: float = 0.15  # 마지막 스텝의 가리는 비율: 처음 값에서 이 값까지 선형으로 줄인다(이슈 25: 0.25 → 0.15)
    bf16: bool = False  # 이 CPU(bf16 연산 장치 없음)에서는 bf16 autocast가 fp32보다 35배 느렸다


# 말뭉치 설정의 기본값(= run7). `settings.json`의 "corpus"에 적히고, 명령줄에서는 --everyday-v2 같은 선택지다.
CORPUS_DEFAULTS = {"everyday_v2": False, "everyday_v3": False, "template_docs": 2000, "sense_repeat": 1}


def reproduce_command(settings: dict, work: str = "~/.cache/bertlab/pretrain") -> str:
    """이 학습 설정(`settings.json`, 모델의 `training_settings.json`)을 다시 만드는 `all` 명령. 기본값과 다른 것만 적는다."""
    flags = []
    for key, default in CORPUS_DEFAULTS.items():
        value = settings.get("corpus", {}).get(key, default)
        if value != default:
            flags.append(f"--{key.replace('_', '-')}" + ("" if value is True else f" {value}"))
    for cls, section in ((ModelSize, "size"), (TrainSettings, "train")):
        for f in cls.__dataclass_fields__.values():
            value = settings.get(section, {}).get(f.name, f.default)
            if value != f.default:
                flags.append(f"--{f.name.replace('_', '-')} {str(value).lower() if isinstance(value, bool) else value}")
    return " ".join(["python -m bertlab.minibert.pretrain all", f"--work {work}",
                     "--tokenizer-from bertlab/assets/mini-bert", *flags])


# ---------------------------------------------------------------- 모델과 손실


def new_model(vocab_size: int, size: ModelSize, seed: int):
    from transformers import BertConfig, BertForPreTraining

    torch.manual_seed(seed)
    config = BertConfig(vocab_size=vocab_size, **asdict(size), type_vocab_size=2, hidden_act="gelu")
    return BertForPreTraining(config)


def pretraining_loss(model, batch, labels, nsp: bool = True, bf16: bool = False):
    """MLM 로짓은 마스크된 위치에서만 계산합니다(어휘 크기 × 전체 위치를 계산하지 않아 빠름)."""
    ctx = torch.autocast("cpu", dtype=torch.bfloat16) if bf16 else torch.autocast("cpu", enabled=False)
    with ctx:
        out = model.bert(
            input_ids=batch["input_ids"],
            attention_mask=batch["attention_mask"],
            token_type_ids=batch["token_type_ids"],
        )
        sel = labels != -100
        mlm_logits = model.cls.predictions(out.last_hidden_state[sel])
        nsp_logits = model.cls.seq_relationship(out.pooler_output)
    mlm_loss = F.cross_entropy(mlm_logits.float(), labels[sel])
    nsp_loss = F.cross_entropy(nsp_logits.float(), batch["next_sentence_label"])
    loss = mlm_loss + nsp_loss if nsp else mlm_loss
    return loss, mlm_loss, nsp_loss, mlm_logits, nsp_logits


@torch.no_grad()
def evaluate(model, eval_batches, most_frequent_id: int) -> dict:
    """선택된 모든 위치를 [MASK]로 바꾼 입력에서: MLM 손실·정확도, 최빈 토큰 기준선, NSP 정확도."""
    model.eval()
    n = correct = base = nsp_correct = nsp_n = 0
    loss_sum = 0.0
    for batch, inputs, labels in eval_batches:
        b = dict(batch, input_ids=inputs)
        _, mlm_loss, _, mlm_logits, nsp_logits = pretraining_loss(model, b, labels)
        gold = labels[labels != -100]
        k = gold.numel()
        loss_sum += mlm_loss.item() * k
        n += k
        correct += (mlm_logits.argmax(-1) == gold).sum().item()
        base += (gold == most_frequent_id).sum().item()
        nsp_correct += (nsp_logits.argmax(-1) == batch["next_sentence_label"]).sum().item()
        nsp_n += len(batch["next_sentence_label"])
    model.train()
    return {
        "mlm_loss": loss_sum / max(n, 1),
        "mask_acc": correct / max(n, 1),
        "freq_baseline_acc": base / max(n, 1),
        "nsp_acc": nsp_correct / max(nsp_n, 1),
        "positions": n,
    }


def make_eval_batches(enc_docs, tokenizer, max_len: int, batch_size: int = 64, seed: int = 1234):
    rng = random.Random(seed)
    pairs = make_pairs(enc_docs, max_len, rng)
    g = torch.Generator().manual_seed(seed)
    batches = []
    for i in range(0, len(pairs), batch_size):
        batch = collate(pairs[i : i + batch_size], tokenizer)
        inputs, labels = mask_tokens(batch["input_ids"], tokenizer, g, all_mask=True)
        batches.append((batch, inputs, labels))
    return batches


# ---------------------------------------------------------------- 학습 루프 (이어 하기 가능)


def mask_prob_at(step: int, settings: TrainSettings) -> float:
    """가리는 비율: `mask_prob`에서 `mask_prob_end`까지 학습 내내 선형으로(둘이 같으면 고정)."""
    progress = min(1.0, step / max(1, settings.steps - 1))
    return settings.mask_prob + (settings.mask_prob_end - settings.mask_prob) * progress


def lr_at(step: int, settings: TrainSettings) -> float:
    if step < settings.warmup:
        return settings.lr * (step + 1) / settings.warmup
    progress = (step - settings.warmup) / max(1, settings.steps - settings.warmup)
    return settings.lr * max(0.0, 1.0 - progress)


def _atomic_save(obj, path: Path) -> None:
    tmp = path.with_suffix(".tmp")
    torch.save(obj, tmp)
    os.replace(tmp, path)


def train(work: Path, settings: TrainSettings, size: ModelSize, log=print) -> Path:
    """`work/corpus`와 `work/tokenizer`로 사전학습합니다. `work/state.pt`가 있으면 거기서 이어 합니다."""
    from transformers import AutoTokenizer

    work = Path(work)
    torch.set_num_threads(settings.threads)
    tokenizer = AutoTokenizer.from_pretrained(work / "tokenizer")
    train_docs = data.read_documents(work / "corpus" / "train.txt")
    held_docs = data.read_documents(work / "corpus" / "heldout.txt")
    enc_train = encode_documents(tokenizer, train_docs)
    enc_held = encode_documents(tokenizer, held_docs)
    freq = Counter(t for d in enc_train for s in d for t in s)
    most_frequent_id = freq.most_common(1)[0][0]
    eval_batches = make_eval_batches(enc_held, tokenizer, settings.max_len)
    sense_rows = data.read_senses("eval")
    cont_table = continuation_ids(tokenizer) if settings.whole_word or settings.collapse_words > 0 else None
    continuation = cont_table if settings.whole_word else None

    model = new_model(len(tokenizer), size, settings.seed)
    no_decay = ("bias", "LayerNorm.weight")
    groups = [
        {"params": [p for n, p in model.named_parameters() if not n.endswith(no_decay)], "weight_decay": settings.weight_decay},
        {"params": [p for n, p in model.named_parameters() if n.endswith(no_decay)], "weight_decay": 0.0},
    ]
    opt = torch.optim.AdamW(groups, lr=settings.lr, betas=(0.9, 0.999), eps=1e-6)
    step, epoch, resume_bi, state = 0, 0, 0, {}
    state_path = work / "state.pt"
    if state_path.exists():
        state = torch.load(state_path, weights_only=False)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        step, epoch, resume_bi = state["step"], state["epoch"], state["next_batch"]
        if "torch_rng" in state:  # 드롭아웃의 난수까지 이어 받아, 끊기지 않은 학습과 같은 결과가 나오게
            torch.set_rng_state(state["torch_rng"])
        log(f"체크포인트에서 이어 합니다: step {step}")
    model.train()
    log_path = work / "log.jsonl"
    if step and log_path.exists():  # 체크포인트 뒤에 적힌 기록(끊기기 직전의 몇 스텝)은 다시 학습하므로 지운다
        kept = [x for x in log_path.read_text(encoding="utf-8").splitlines() if x.strip() and json.loads(x)["step"] <= step]
        log_path.write_text("".join(x + "\n" for x in kept), encoding="utf-8")
    g = torch.Generator()
    t0 = time.time() - state.get("sec", 0.0)  # 기록의 'sec'는 이어 한 시간까지 합친 학습 시간
    while step < settings.steps:
        rng = random.Random(settings.seed * 1000 + epoch)
        pairs = make_pairs(enc_train, settings.max_len, rng)
        rng.shuffle(pairs)
        n_batches = len(pairs) // settings.batch_size
        for bi in range(resume_bi, n_batches):
            if step >= settings.steps:
                break
            g.manual_seed(settings.seed * 10_000_019 + step)
            batch_pairs = pairs[bi * settings.batch_size : (bi + 1) * settings.batch_size]
            collapsed = None
            if settings.collapse_words > 0:
                batch_pairs, collapsed = collapse_words(batch_pairs, cont_table, g, settings.collapse_words, tokenizer.mask_token_id)
            batch = collate(batch_pairs, tokenizer)
            inputs, labels = mask_tokens(batch["input_ids"], tokenizer, g, prob=mask_prob_at(step, settings),
                                         continuation=continuation)
            if collapsed:
                label_collapsed(labels, batch_pairs, collapsed)
            for group in opt.param_groups:
                group["lr"] = lr_at(step, settings)
            loss, mlm_loss, nsp_loss, _, _ = pretraining_loss(
                model, dict(batch, input_ids=inputs), labels, nsp=settings.nsp, bf16=settings.bf16
            )
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            step += 1
            record = None
            if step % 50 == 0:
                record = {"step": step, "loss": round(loss.item(), 4), "mlm": round(mlm_loss.item(), 4),
                          "nsp": round(nsp_loss.item(), 4), "lr": opt.param_groups[0]["lr"], "sec": round(time.time() - t0, 1)}
            if step % settings.eval_every == 0 or step == settings.steps:
                ev = evaluate(model, eval_batches, most_frequent_id)
                sep = sense_separation(model.bert, tokenizer, sense_rows) if sense_rows else {}
                record = dict(record or {"step": step}, eval=ev, senses=sep)
            if record:
                with open(log_path, "a", encoding="utf-8") as f:
                    f.write(json.dumps(record, ensure_ascii=False) + "\n")
                log(json.dumps(record, ensure_ascii=False))
            if step % settings.save_every == 0 or step == settings.steps:
                _atomic_save({"model": model.state_dict(), "optimizer": opt.state_dict(), "step": step,
                              "epoch": epoch, "next_batch": bi + 1, "settings": asdict(settings), "size": asdict(size),
                              "torch_rng": torch.get_rng_state(), "sec": time.time() - t0}, state_path)
        epoch, resume_bi = epoch + 1, 0
    return state_path


def export(work: Path, out_dir: Path) -> Path:
    """체크포인트를 `save_pretrained` 형식(가중치는 fp16, 읽으면 fp32)으로 내보냅니다."""
    from transformers import AutoTokenizer, BertConfig, BertForPreTraining

    work, out_dir = Path(work), Path(out_dir)
    state = torch.load(work / "state.pt", weights_only=False)
    tokenizer = AutoTokenizer.from_pretrained(work / "tokenizer")
    config = BertConfig(vocab_size=len(tokenizer), **state["size"], type_vocab_size=2, hidden_act="gelu")
    model = BertForPreTraining(config)
    model.load_state_dict(state["model"])
    if out_dir.exists():
        shutil.rmtree(out_dir)
    half = {k: v.half().contiguous() for k, v in model.state_dict().items()}
    model.save_pretrained(out_dir, state_dict=half)
    tokenizer.save_pretrained(out_dir)
    if (work / "probes.json").exists():  # 레시피를 찾는 동안의 탐색 기록(모델 카드에 실림)
        shutil.copy(work / "probes.json", out_dir / "probes.json")
    cfg = json.loads((out_dir / "config.json").read_text())
    cfg["dtype"] = "float32"  # 저장은 fp16, 읽을 때는 fp32로
    (out_dir / "config.json").write_text(json.dumps(cfg, indent=2, ensure_ascii=False) + "\n")
    return out_dir


def build(
    work: Path, template_docs: int, vocab_size: int, use_debian: bool = True, tokenizer_from: Path | None = None,
    everyday_v2: bool = False, everyday_v3: bool = False, sense_repeat: int = 1, log=print,
) -> None:
    """말뭉치와 토크나이저를 만듭니다(이미 있으면 건너뜀).

    `tokenizers`의 WordPiece 학습기는 빈도가 같은 후보의 순서를 실행마다 무작위로 정하므로, 같은 말뭉치로도 어휘가 몇 토큰,
    토큰 id가 여러 곳 달라지고 따라서 학습된 가중치도 달라집니다. 번들 모델을 그대로 재현하려면 `tokenizer_from`에 번들 모델
    폴더를 주어 그 어휘를 씁니다(학습 자체는 시드가 고정되어 있어 같은 어휘면 같은 가중치가 나옵니다).
    """
    work = Path(work)
    if tokenizer_from is not None and not (Path(tokenizer_from) / "tokenizer.json").exists():
        raise FileNotFoundError(f"--tokenizer-from: {tokenizer_from}에 tokenizer.json이 없습니다.")
    if not (work / "corpus" / "train.txt").exists():
        c = corpus_mod.build_corpus(work / "debian", template_docs=template_docs, use_debian=use_debian, everyday_v2=everyday_v2,
                                    everyday_v3=everyday_v3, sense_repeat=sense_repeat)
        corpus_mod.save_corpus(c, work / "corpus")
        log(json.dumps({"corpus": c.stats["train"], "heldout": c.stats["heldout"]}, ensure_ascii=False))
    if (work / "tokenizer" / "tokenizer.json").exists():
        return
    if tokenizer_from is not None:
        from transformers import AutoTokenizer

        hf = AutoTokenizer.from_pretrained(tokenizer_from)
        tok_mod.save_tokenizer(hf, work / "tokenizer")
        log(f"어휘 {len(hf)}개({tokenizer_from}에서 가져옴)")
    else:
        docs = data.read_documents(work / "corpus" / "train.txt")
        vocab = tok_mod.train_wordpiece((s for d in docs for s in d), vocab_size=vocab_size)
        hf = tok_mod.make_hf_tokenizer(vocab, model_max_length=ModelSize.max_position_embeddings)
        tok_mod.save_tokenizer(hf, work / "tokenizer")
        log(f"어휘 {len(hf)}개")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bertlab.minibert.pretrain", description="번들 미니 BERT 사전학습 레시피")
    p.add_argument("command", choices=["build", "train", "export", "all"])
    p.add_argument("--work", type=Path, default=Path.home() / ".cache" / "bertlab" / "pretrain")
    p.add_argument("--out", type=Path, default=MINI_DIR)
    p.add_argument("--template-docs", type=int, default=CORPUS_DEFAULTS["template_docs"])
    p.add_argument("--everyday-v2", action="store_true", help="assets/text/everyday_v2/의 일상 말뭉치도 넣음(run7은 없이)")
    p.add_argument("--everyday-v3", action="store_true", help="minibert/text/everyday_v3/의 일상 말뭉치도 넣음(held-out 문서 제외)")
    p.add_argument("--sense-repeat", type=int, default=CORPUS_DEFAULTS["sense_repeat"],
                   help="동음이의어 학습 문장·문단을 학습 글에 몇 번 넣을지(run7은 1)")
    p.add_argument("--vocab-size", type=int, default=12000)
    p.add_argument("--no-debian", action="store_true", help="Debian 문서 없이 직접 쓴 문장만(테스트용)")
    p.add_argument("--tokenizer-from", type=Path, default=None,
                   help="어휘를 새로 학습하지 않고 이 폴더(예: bertlab/assets/mini-bert)의 토크나이저를 씀: 번들 모델을 그대로 재현할 때")
    for f in ModelSize.__dataclass_fields__.values():
        p.add_argument("--" + f.name.replace("_", "-"), type=f.type if f.type != "int" else int, default=f.default)
    for f in TrainSettings.__dataclass_fields__.values():
        if f.type == "bool":
            p.add_argument("--" + f.name.replace("_", "-"), type=lambda s: s.lower() in {"1", "true", "yes"}, default=f.default)
        else:
            p.add_argument("--" + f.name.replace("_", "-"), type={"int": int, "float": float}[f.type], default=f.default)
    return p


def main(argv: list[str] | None = None) -> None:
    a = parser().parse_args(argv)
    size = ModelSize(**{k: int(getattr(a, k)) for k in ModelSize.__dataclass_fields__})
    settings = TrainSettings(**{k: getattr(a, k) for k in TrainSettings.__dataclass_fields__})
    a.work.mkdir(parents=True, exist_ok=True)
    if a.command in {"build", "all"}:
        build(a.work, a.template_docs, a.vocab_size, not a.no_debian, a.tokenizer_from, a.everyday_v2, a.everyday_v3,
              a.sense_repeat)
    if a.command in {"train", "all"}:
        corpus = {key: getattr(a, key) for key in CORPUS_DEFAULTS}
        (a.work / "settings.json").write_text(json.dumps({"size": asdict(size), "train": asdict(settings), "corpus": corpus}, indent=2))
        train(a.work, settings, size)
    if a.command in {"export", "all"}:
        print(f"내보냄: {export(a.work, a.out)}")


if __name__ == "__main__":
    main(sys.argv[1:])
