"""모델을 여는 단 하나의 문: `load_bert()` (1장에서 처음 씁니다).

- ``"mini"``: 패키지에 들어 있는 한국어 미니 BERT (`bertlab/assets/mini-bert`). 네트워크가 필요 없습니다.
- ``"mbert"``: 원래 강의의 모델 `google-bert/bert-base-multilingual-cased`.
- 그 밖의 허브 id(`klue/bert-base` 등)나 로컬 디렉터리.
- 이름을 주지 않으면(기본값): 환경 변수 `BERTLAB_MODEL`이 있으면 그 모델, 없으면 **언제나 번들 미니 BERT**.
  인터넷이 되는 노트북에서도 본문의 숫자와 같은 모델이 열리고, mBERT는 학생이 직접 고를 때만 엽니다.
- ``"auto"``: 허브에 닿거나 캐시에 있으면 mBERT, 아니면 미니 모델(직접 고를 때만).

허브에 닿을 수 있는지는 짧은 시간 제한으로 한 번만 확인하고, 오프라인이면 transformers를 불러오기 **전에**
`HF_HUB_OFFLINE=1`을 정합니다. 그렇지 않으면 transformers가 46~120초 동안 재시도합니다.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import urllib.request
from dataclasses import dataclass
from pathlib import Path

MBERT_ID = "google-bert/bert-base-multilingual-cased"
MINI_DIR = Path(__file__).resolve().parent / "assets" / "mini-bert"
HUB_URL = os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")
PROBE_TIMEOUT_S = 3.0

ALIASES = {"mbert": MBERT_ID, "mini": "mini"}
_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)?$")
_probe_cache: dict[str, bool] = {}


@dataclass(frozen=True)
class Choice:
    """`load_bert`가 무엇을 어디서 열지에 대한 결정."""

    name: str  # 사용자가 준 이름(별칭 풀기 전)
    source: str  # 로컬 디렉터리 경로 또는 허브 id
    offline: bool  # True면 네트워크 없이 로컬 파일/캐시만 쓴다
    reason: str  # 사람이 읽을 한 줄 설명

    @property
    def is_mini(self) -> bool:
        return Path(self.source) == MINI_DIR


def model_label(source: str | os.PathLike) -> str:
    """출력과 표에 쓰는 모델 이름. 빌드한 컴퓨터의 절대 경로가 웹사이트에 새지 않도록 경로 대신 고정된 이름을 씁니다.

    번들 모델은 ``"mini (bertlab/assets/mini-bert)"``, 로컬 디렉터리는 ``"로컬: <폴더 이름>"``, 허브 id는 그대로.
    """
    source = os.fspath(source) if source else ""
    if not source:
        return ""
    path = Path(source).expanduser()
    if path.is_dir():
        if path.resolve() == MINI_DIR:
            return "mini (bertlab/assets/mini-bert)"
        return f"로컬: {path.resolve().name}"
    return source


def transformers_version() -> str:
    """transformers를 import하지 않고 설치된 버전을 읽습니다."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("transformers")
    except PackageNotFoundError:
        return "(설치 안 됨)"


def url_reachable(url: str, timeout: float = PROBE_TIMEOUT_S, ok_below: int = 500) -> bool:
    """`url`이 `timeout`초 안에 (상태 코드 `ok_below` 미만으로) 응답하면 True. 결과는 프로세스 안에서 기억합니다.

    DNS 조회에는 시간 제한이 없으므로 별도 스레드에서 요청하고 `timeout`초만 기다립니다.
    `HF_HUB_OFFLINE=1`이 이미 정해져 있으면(테스트, 책 빌드) 묻지 않고 False입니다.
    모델(`hub_reachable`)과 데이터(`bertlab.data`)가 함께 씁니다.
    """
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in {"1", "true", "yes", "on"}:
        return False
    if url in _probe_cache:
        return _probe_cache[url]
    result = {"ok": False}

    def probe() -> None:
        try:
            req = urllib.request.Request(url, method="HEAD")
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                result["ok"] = resp.status < ok_below
        except Exception:  # 연결 실패, DNS 실패, 시간 초과, HTTP 오류 모두 '닿지 않음'
            result["ok"] = False

    thread = threading.Thread(target=probe, daemon=True)
    thread.start()
    thread.join(timeout)
    _probe_cache[url] = bool(result["ok"])
    return _probe_cache[url]


def hub_reachable(timeout: float = PROBE_TIMEOUT_S) -> bool:
    """허브가 `timeout`초 안에 응답하면 True (mBERT의 모델 정보 주소로 확인)."""
    return url_reachable(f"{HUB_URL}/api/models/{MBERT_ID}", timeout)


def hf_cache_dir() -> Path:
    """huggingface_hub를 import하지 않고 허브 캐시 디렉터리를 계산합니다."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    xdg = os.environ.get("XDG_CACHE_HOME", str(Path.home() / ".cache"))
    return Path(xdg).expanduser() / "huggingface" / "hub"


def is_cached(repo_id: str) -> bool:
    """허브 모델 `repo_id`의 설정과 가중치가 캐시에 있으면 True."""
    snapshots = hf_cache_dir() / f"models--{repo_id.replace('/', '--')}" / "snapshots"
    if not snapshots.is_dir():
        return False
    for snap in snapshots.iterdir():
        has_weights = any((snap / w).exists() for w in ("model.safetensors", "pytorch_model.bin"))
        if (snap / "config.json").exists() and has_weights:
            return True
    return False


def _mini_choice(name: str, reason: str) -> Choice:
    if not (MINI_DIR / "config.json").is_file():
        raise FileNotFoundError(
            f"번들된 미니 BERT가 없습니다: {MINI_DIR}\n"
            "bertlab을 저장소에서 다시 설치하거나(`pip install -e .`), "
            "`python -m bertlab.minibert.pretrain`으로 모델을 다시 만드세요."
        )
    return Choice(name, str(MINI_DIR), True, reason)


DEFAULT_REASON = "기본값: 패키지에 든 번들 미니 BERT(네트워크 불필요, 본문의 숫자와 같은 모델). mBERT는 load_bert(\"mbert\")로 고릅니다."


def decide(name: str | os.PathLike | None = None) -> Choice:
    """이름을 받아 무엇을 어디서 열지 정합니다(모델은 아직 불러오지 않음).

    이름이 없으면 `BERTLAB_MODEL`, 그것도 없으면 번들 미니 BERT입니다. 잘못된 이름·경로, 닿지 않는 허브는 여기서 바로
    한국어 오류로 알립니다.
    """
    if name is None:
        env_name = os.environ.get("BERTLAB_MODEL", "").strip()
        if not env_name:
            return _mini_choice("mini", DEFAULT_REASON)
        choice = decide(env_name)
        detail = "네트워크 불필요" if choice.is_mini else choice.reason.rstrip(".")
        return Choice(env_name, choice.source, choice.offline, f"환경 변수 BERTLAB_MODEL의 값({env_name})을 따릅니다({detail}).")
    if isinstance(name, os.PathLike):
        name = os.fspath(name)
    if not isinstance(name, str) or not name.strip():
        raise TypeError(
            f"모델 이름은 문자열이어야 합니다 (받은 값: {name!r}). "
            "예: 'auto', 'mini', 'mbert', 'klue/bert-base' 또는 로컬 디렉터리 경로."
        )
    name = name.strip()
    if name == "auto":
        if hub_reachable():
            return Choice("auto", MBERT_ID, False, "허브에 연결되어 원래 강의의 mBERT를 씁니다.")
        if is_cached(MBERT_ID):
            return Choice("auto", MBERT_ID, True, "허브에는 닿지 않지만 mBERT가 캐시에 있어 캐시에서 엽니다.")
        return _mini_choice(
            "auto", "허브에 닿지 않고 mBERT 캐시도 없어, 오프라인용 번들 미니 BERT를 씁니다."
        )
    if name == "mini":
        return _mini_choice(name, "'mini'를 직접 골랐습니다(네트워크 불필요).")

    source = ALIASES.get(name, name)
    local = Path(source).expanduser()
    if local.is_dir():
        if not (local / "config.json").is_file():
            raise FileNotFoundError(
                f"'{local}' 디렉터리에 config.json이 없습니다. `save_pretrained`로 저장한 모델 디렉터리를 주세요."
            )
        return Choice(name, str(local.resolve()), True, f"로컬 디렉터리({local.name})에서 엽니다.")
    if source.startswith((".", "/", "~")) or source.count("/") > 1 or "\\" in source:
        raise FileNotFoundError(
            f"모델 디렉터리 '{source}'가 없습니다. 경로를 확인하거나, 허브 id(예: 'klue/bert-base') 또는 'mini'를 쓰세요."
        )
    if not _HUB_ID.match(source):
        raise ValueError(
            f"알 수 없는 모델 이름입니다: '{name}'. "
            "'auto', 'mini', 'mbert', 허브 id(예: 'klue/bert-base') 또는 로컬 디렉터리 경로를 쓰세요."
        )
    if is_cached(source):
        return Choice(name, source, True, f"캐시에 있는 허브 모델({source})을 엽니다.")
    if hub_reachable():
        return Choice(name, source, False, f"허브에서 모델({source})을 내려받습니다.")
    raise ConnectionError(
        f"허브({HUB_URL})에 연결할 수 없고 모델('{source}')이 캐시에도 없어 '{name}'을(를) 열 수 없습니다. "
        "번들 미니 BERT로 이어 가려면 load_bert('mini')를 쓰세요(Colab에서는 준비 셀의 MODEL을 \"mini\"로 바꾸고 "
        "그 셀부터 다시 실행). 인터넷이 되는 곳이라면 연결을 확인한 뒤 다시 실행하세요."
    )


def resolve(name: str | os.PathLike | None = None) -> str:
    """`decide`의 결과 중 `from_pretrained`에 넘길 경로/허브 id만 돌려주고, 오프라인이면 환경을 맞춥니다."""
    choice = decide(name)
    _prepare_environment(choice)
    return choice.source


def _prepare_environment(choice: Choice) -> None:
    """오프라인이면 transformers를 불러오기 전에 HF_HUB_OFFLINE을 켭니다."""
    if choice.offline:
        os.environ["HF_HUB_OFFLINE"] = "1"


def model_choice_line(name: str | None = None) -> str:
    """`setup()`이 출력하는 한 줄: 기본값으로 어떤 모델이 열릴지와 그 이유."""
    try:
        choice = decide(name)
    except (FileNotFoundError, ConnectionError, ValueError, TypeError) as err:
        return f"열 수 없음 — {err}"
    _prepare_environment(choice)
    return f"{model_label(choice.source)} — {choice.reason}"


class ModelLoadError(RuntimeError):
    """모델 파일을 읽는 중 생긴 오류를 한국어 설명으로 감쌉니다."""


def load_bert(name: str | os.PathLike | None = None, *, quiet: bool = False):
    """토크나이저와 `BertModel`을 돌려줍니다: ``tokenizer, model = load_bert()``.

    모델은 평가 모드이고, eager 어텐션(그래야 `output_attentions`가 값을 돌려줌)에
    `output_attentions`와 `output_hidden_states`가 켜져 있습니다.
    """
    from transformers import BertModel

    return _load(BertModel, name, quiet)


def load_mlm(name: str | os.PathLike | None = None, *, quiet: bool = False):
    """토크나이저와 빈칸 채우기(MLM) 헤드가 달린 `BertForMaskedLM`을 돌려줍니다(1장의 맛보기, 부록).

    번들 미니 BERT는 MLM + NSP로 사전학습한 체크포인트라 MLM 헤드의 가중치가 들어 있습니다.
    """
    from transformers import BertForMaskedLM

    return _load(BertForMaskedLM, name, quiet)


def _load(model_class, name, quiet: bool):
    choice = decide(name)
    _prepare_environment(choice)
    if not quiet:
        print(f"모델: {model_label(choice.source)} — {choice.reason}")

    from transformers import AutoTokenizer
    from transformers.utils import logging as hf_logging

    verbosity = hf_logging.get_verbosity()
    bars = hf_logging.is_progress_bar_enabled()
    hf_logging.set_verbosity_error()  # BertForPreTraining 체크포인트의 쓰지 않는 헤드(cls.*)에 대한 경고는 감춘다
    hf_logging.disable_progress_bar()  # 노트북 출력에 로딩 진행 막대를 남기지 않는다
    try:
        tokenizer = AutoTokenizer.from_pretrained(choice.source, local_files_only=choice.offline)
        model, info = model_class.from_pretrained(
            choice.source,
            attn_implementation="eager",
            output_attentions=True,
            output_hidden_states=True,
            local_files_only=choice.offline,
            output_loading_info=True,
        )
    except OSError as err:
        raise ModelLoadError(
            f"모델('{choice.source}')을 불러오지 못했습니다: {str(err).splitlines()[0]}\n"
            "모델 이름을 확인하거나, 인터넷 연결을 확인하거나, load_bert('mini')를 쓰세요."
        ) from None
    finally:
        hf_logging.set_verbosity(verbosity)
        if bars:
            hf_logging.enable_progress_bar()
    missing = [k for k in info.get("missing_keys", []) if "position_ids" not in k]
    if missing:
        print(f"주의: 체크포인트에 없어 새로 초기화된 가중치 {len(missing)}개: {missing[:4]} ...", file=sys.stderr)
    model.eval()
    add_length_guard(model)
    _LAST["tokenizer"] = tokenizer
    _LAST["mlm" if model_class.__name__.endswith("MaskedLM") else "model"] = model
    return tokenizer, model


_LAST: dict = {}


def last_loaded(kind: str = "model"):
    """이 파이썬 프로세스(노트북 커널)가 마지막으로 연 것: ``"model"``(load_bert), ``"mlm"``(load_mlm), ``"tokenizer"``.

    연습문제 검사(`bl.check`)가 학생과 같은 모델로 기준값을 계산할 때 씁니다.
    """
    if kind not in ("model", "mlm", "tokenizer"):
        raise ValueError(f"kind는 'model', 'mlm', 'tokenizer' 가운데 하나입니다 (받은 값: {kind!r}).")
    if kind not in _LAST:
        what = "bl.load_mlm()" if kind == "mlm" else "bl.load_bert()"
        raise RuntimeError(f"아직 연 모델이 없습니다: 먼저 {what}을 실행하세요.")
    return _LAST[kind]


def fill_mask(model, tokenizer, text: str, k: int = 5) -> list[list[tuple[str, float]]]:
    """문장 속 `[MASK]`마다 모델이 고른 상위 `k`개 (토큰, 확률). `model`은 `load_mlm`이 준 모델(1장).

    `[MASK]`가 없으면, 또는 빈 문장이나 너무 긴 문장이면 한국어 `ValueError`를 냅니다.
    """
    import torch

    enc = encode(tokenizer, text, model=model)
    positions = (enc["input_ids"][0] == tokenizer.mask_token_id).nonzero().flatten().tolist()
    if not positions:
        raise ValueError(f"문장에 {tokenizer.mask_token}이 없습니다: 가릴 자리에 {tokenizer.mask_token}을 넣어 주세요.")
    with torch.no_grad():
        probs = model(**enc).logits[0, positions].softmax(-1)
    top = probs.topk(k, dim=-1)
    return [
        list(zip(tokenizer.convert_ids_to_tokens(ids.tolist()), vals.tolist()))
        for vals, ids in zip(top.values, top.indices)
    ]


_WORD_SCORES = ("sum", "mean")


def _piece_sets(tokenizer):
    """(단어 첫 조각 id 텐서, 이어지는 '##' 조각 id 텐서): 한글·숫자·라틴 글자가 든 일반 토큰만(특수 토큰, 문장 부호 제외)."""
    import torch

    cache = getattr(tokenizer, "_bertlab_piece_sets", None)
    if cache is not None:
        return cache
    special = set(tokenizer.all_special_ids)
    first, cont = [], []
    for tok, i in tokenizer.get_vocab().items():
        if i in special or tok.startswith("[unused"):
            continue
        body = tok[2:] if tok.startswith("##") else tok
        if not body or not any(ch.isalnum() for ch in body):
            continue
        (cont if tok.startswith("##") else first).append(i)
    cache = (torch.tensor(sorted(first)), torch.tensor(sorted(cont)))
    try:
        tokenizer._bertlab_piece_sets = cache
    except AttributeError:
        pass
    return cache


def fill_word(model, tokenizer, text: str, k: int = 5, *, max_pieces: int = 3, beam: int = 8,
              score: str = "sum") -> list[tuple[str, float]]:
    """`[MASK]` 하나가 어절 하나를 통째로 가린 문장에서, 그 자리에 들어갈 어절 상위 `k`개를 (어절, 점수)로 돌려줍니다(1장).

    `[MASK]` 토큰 하나에는 WordPiece 조각 하나만 들어가지만, 한국어 어절은 흔히 조각 여럿('국밥' '##을')입니다. 그래서
    조각 수 n = 1…`max_pieces`마다 빈칸을 `[MASK]` n개로 바꾸고, 왼쪽부터 한 조각씩 빔 탐색으로 채웁니다(첫 조각은 단어 첫머리
    조각, 나머지는 '##' 조각). 후보의 점수는 PLL-word-l2r(Kauf & Ivanova, 2023)입니다: 조각마다, 그 조각과 그 뒤 조각은 가리고
    앞 조각은 보인 채로 모델이 준 로그 확률을 더합니다. ``score="mean"``이면 조각 수로 나눕니다. 조각 수가 다른 후보를 한
    목록에서 견주며, 같은 어절이 두 가지로 잘려 나오면 점수가 높은 쪽을 씁니다. `model`은 `load_mlm`이 준 모델입니다.

    `[MASK]`가 없거나 둘 이상이면, 빈칸에 조사가 붙어 있으면('[MASK]를'), 빈 문장이나 너무 긴 문장이면 한국어 `ValueError`.
    """
    import re as _re

    import torch

    if not isinstance(text, str) or not text.strip():
        raise ValueError("문장이 비어 있습니다: 어절 하나를 [MASK]로 가린 문장을 주세요.")
    mask = tokenizer.mask_token
    count = text.count(mask)
    if count != 1:
        what = "없습니다" if count == 0 else f"{count}개 있습니다"
        raise ValueError(f"fill_word는 {mask}가 정확히 하나인 문장을 받습니다({mask}가 {what}). 어절 하나를 {mask}로 가려 주세요.")
    if score not in _WORD_SCORES:
        raise ValueError(f"score는 {_WORD_SCORES} 가운데 하나입니다 (받은 값: {score!r}).")
    if not 1 <= max_pieces <= 5 or k < 1 or beam < 1:
        raise ValueError("max_pieces는 1~5, k와 beam은 1 이상이어야 합니다.")
    left, right = text.split(mask)
    if _re.search(r"[가-힣A-Za-z0-9]$", left) or _re.match(r"^[가-힣A-Za-z0-9]", right):
        raise ValueError(
            f"{mask}가 어절 하나를 통째로 가려야 합니다: '{mask}를'처럼 조사나 글자를 붙이지 말고 '{mask}' 앞뒤를 띄우세요"
            " (붙여 쓰면 뒤 글자가 단어 첫머리 조각으로 잘려 모델이 모르는 입력이 됩니다).")
    first_ids, cont_ids = _piece_sets(tokenizer)
    best: dict[str, float] = {}
    for n in range(1, max_pieces + 1):
        enc = encode(tokenizer, left + " ".join([mask] * n) + right, model=model)
        ids = enc["input_ids"][0]
        slots = (ids == tokenizer.mask_token_id).nonzero().flatten().tolist()
        beams = [([], 0.0)]  # (채운 조각 id, 로그 확률 합)
        for step, pos in enumerate(slots):
            batch = ids.repeat(len(beams), 1)
            for b, (pieces, _) in enumerate(beams):
                batch[b, slots[: len(pieces)]] = torch.tensor(pieces, dtype=batch.dtype) if pieces else batch[b, slots[:0]]
            extra = {key: val.repeat(len(beams), 1) for key, val in enc.items() if key != "input_ids"}
            with torch.no_grad():
                logp = model(input_ids=batch, **extra).logits[:, pos].log_softmax(-1)
            allowed = first_ids if step == 0 else cont_ids
            # 빔마다 지금까지의 합에 이 조각의 로그 확률을 더하고, 그 합이 큰 beam개를 남긴다
            cand = logp[:, allowed] + torch.tensor([total for _, total in beams], dtype=logp.dtype)[:, None]
            top = cand.flatten().topk(min(beam, cand.numel()))
            beams = [(beams[i // len(allowed)][0] + [int(allowed[i % len(allowed)])], float(v))
                     for v, i in zip(top.values.tolist(), top.indices.tolist())]
        for pieces, total in beams:
            word = tokenizer.convert_tokens_to_string(tokenizer.convert_ids_to_tokens(pieces)).replace(" ", "")
            value = total / n if score == "mean" else total
            if value > best.get(word, float("-inf")):
                best[word] = value
    return sorted(best.items(), key=lambda kv: kv[1], reverse=True)[:k]


def _too_long(n: int, limit: int) -> str:
    return (
        f"입력이 너무 깁니다: 토큰 {n:,}개(특수 토큰 포함)인데 이 모델은 최대 {limit:,}개까지 받습니다"
        " (config.max_position_embeddings). 문장을 나누거나 bl.encode(..., truncate=True)로 앞부분만 쓰세요."
    )


def add_length_guard(model):
    """모델이 받을 수 있는 길이(위치 임베딩 수)보다 긴 입력이 들어오면 한국어 `ValueError`를 냅니다.

    그냥 두면 transformers 안쪽에서 ``RuntimeError: The size of tensor a (1602) must match ... (128)`` 같은
    알아보기 어려운 오류가 납니다. `load_bert`와 `bl.train.load_classifier`가 부릅니다. 같은 모델에 두 번 걸지 않습니다.
    """
    config = getattr(model, "config", None)
    limit = getattr(config, "max_position_embeddings", None)
    if limit is None or getattr(model, "_bertlab_length_guard", False):
        return model

    def check(module, args, kwargs):
        ids = kwargs.get("input_ids", args[0] if args else None)
        embeds = kwargs.get("inputs_embeds")
        shape = getattr(ids if ids is not None else embeds, "shape", None)
        if shape is not None and len(shape) >= 2:
            n = shape[1]
            if n > limit:
                raise ValueError(_too_long(n, limit))

    model.register_forward_pre_hook(check, with_kwargs=True)
    model._bertlab_length_guard = True
    return model


def encode(tokenizer, text, text_pair=None, *, model=None, truncate: bool = False, return_tensors: str | None = "pt", **kwargs):
    """학생이 준 문장을 토큰화합니다. 빈 문장과 너무 긴 문장은 한국어 메시지로 알립니다(1장, 그리고 장마다 '내 문장으로').

    - 빈 문장(공백만 있는 것 포함): `ValueError`.
    - 모델의 최대 길이(`model.config.max_position_embeddings`, 모델이 없으면 `tokenizer.model_max_length`)보다 길면
      `truncate=False`(기본값)일 때 `ValueError`, `truncate=True`면 앞부분만 쓰고 그렇게 했다고 한 줄로 알립니다.
    """
    for name, value in (("text", text), ("text_pair", text_pair)):
        if value is None and name == "text_pair":
            continue
        if not isinstance(value, str):
            raise TypeError(f"{name}은 문자열이어야 합니다 (받은 값: {type(value).__name__}).")
        if not value.strip():
            raise ValueError(f"문장이 비어 있습니다({name}): 글자를 하나 이상 넣어 주세요.")
    config = getattr(model, "config", None)
    limit = getattr(config, "max_position_embeddings", None) or tokenizer.model_max_length
    enc = tokenizer(text, text_pair, return_tensors=return_tensors, **kwargs)
    ids = enc["input_ids"]
    n = ids.shape[-1] if hasattr(ids, "shape") else len(ids)
    if n > limit:
        if not truncate:
            raise ValueError(_too_long(n, limit))
        print(f"주의: 토큰 {n:,}개 가운데 앞의 {limit:,}개만 씁니다(이 모델의 최대 길이).")
        enc = tokenizer(text, text_pair, return_tensors=return_tensors, truncation=True, max_length=limit, **kwargs)
    return enc


def _size_table_class():
    import pandas as pd

    class SizeTable(pd.DataFrame):
        """`describe`의 표: 보통 DataFrame이고, 노트북에서는 큰 수에 천 단위 쉼표를 넣어 보여 줍니다(5,694,720)."""

        @property
        def _constructor(self):
            return pd.DataFrame

        def _repr_html_(self):
            return self.style.format("{:,}")._repr_html_()

    return SizeTable


def _SizeTable(*args, **kwargs):
    return _size_table_class()(*args, **kwargs)


def describe(model) -> "pandas.DataFrame":  # noqa: F821
    """모델 크기를 한 줄 표로: 층 수, 헤드 수, 은닉 크기, 헤드당 크기, 어휘 수, 최대 길이, 파라미터 수."""
    import pandas as pd

    config = getattr(model, "config", None)
    if config is None or not hasattr(config, "num_hidden_layers"):
        raise TypeError(f"BERT 모델(transformers PreTrainedModel)이 필요합니다 (받은 값: {type(model).__name__}).")
    n_params = sum(p.numel() for p in model.parameters())
    return _SizeTable(
        [
            {
                "층 수": config.num_hidden_layers,
                "헤드 수": config.num_attention_heads,
                "은닉 크기": config.hidden_size,
                "헤드당 크기": config.hidden_size // config.num_attention_heads,
                "FFN 크기": config.intermediate_size,
                "어휘 수": config.vocab_size,
                "최대 길이": config.max_position_embeddings,
                "파라미터 수": n_params,
            }
        ],
        index=[model_label(getattr(config, "_name_or_path", "")) or type(model).__name__],
    )
