"""실습실(``book/lab.md``)이 브라우저에서 쓰는 모델 파일을 책을 빌드할 때 만드는 Sphinx 확장과 변환기.

변환기(:func:`convert`)는 ``bertlab/assets/mini-bert`` 를 읽어 두 파일을 씁니다.

``model-weights.js``
    가중치. 크기(층, 헤드, 은닉, 어휘, 위치)는 모두 ``config.json`` 에서 읽습니다.

    - 작은 텐서(편향, LayerNorm, 위치·세그먼트 임베딩, MLM 머리의 변환 층)는 원래 값 그대로(fp16 체크포인트면 fp16,
      아니면 fp32) 싣습니다. 적은 가중치로 출력에 큰 영향을 주는 텐서들입니다.
    - 큰 행렬(단어 임베딩, 층마다 Q·K·V·출력·FFN)은 **행마다 균등 양자화**합니다: 행 ``r`` 의 간격은
      ``s_r = std(W[r]) / k`` 이고 ``q = round(W / s_r)`` 를 저장하며 브라우저는 ``q · s_r`` 로 되돌립니다.
      정수 ``q`` 는 모든 행렬이 함께 쓰는 정규(canonical) 허프만 부호로 압축합니다.
    - ``k`` 는 파일이 예산(:data:`WEIGHTS_BUDGET_BYTES`)에 들어가는 가장 큰 값을 ``2^(j/4)`` 사다리에서 고릅니다.
      층이 늘어난 모델을 다시 학습해도 예산 안에서 정밀도만 조금 낮아집니다.
    - 바이너리를 ``file://`` 에서도 읽으려면 보통의 ``<script>`` 로 불러야 합니다(``fetch`` 와 ES 모듈은 막힘).
      base64(문자 하나에 6비트)를 쓰는 대신, 파일을 UTF-16LE(BOM 포함)로 쓰고 문자열 한 글자(2바이트)에 15비트를
      ``U+2100 + 값`` 으로 담습니다(효율 94%, base64는 75%). WHATWG Encoding 표준대로 브라우저는 BOM을 보고
      UTF-16으로 읽습니다. 이 범위에는 따옴표, 역슬래시, 줄바꿈, 서로게이트가 없습니다.

``tokenizer-vocab.js``
    ``tokenizer.json`` 의 어휘와 설정, 그리고 BertNormalizer/BertPreTokenizer의 글자 분류표(지우는 글자, 공백으로
    바꾸는 글자, 앞뒤에 공백을 넣는 한자, 문장 부호). 분류표는 설치된 ``tokenizers`` 에 모든 코드 포인트를 넣어
    보고 만들므로, 파이썬 토크나이저가 쓰는 유니코드 판과 정확히 같습니다.

Sphinx 확장(:func:`setup`)은 html 빌더일 때만 ``<outdir>/_static/lab/`` 에 위 두 파일을 만들고(출력이 입력보다
새것이면 건너뜀) ``book/_static/lab/`` 의 자바스크립트와 CSS를 그 옆에 복사합니다. 변환 결과는 빌드 폴더에만
두고 저장소에는 넣지 않습니다.

시험(``tests/test_lab.py``)은 ``sys.path`` 에 ``book/_ext`` 를 더해 :func:`convert` 를 직접 부릅니다.
"""
from __future__ import annotations

import hashlib
import heapq
import json
import shutil
from pathlib import Path

import numpy as np

FORMAT = "bertlab-lab-weights/1"
WEIGHTS_FILE = "model-weights.js"
TOKENIZER_FILE = "tokenizer-vocab.js"
WEIGHTS_BUDGET_BYTES = 7_650_000   # 실습실 파일 전체(가중치 + 어휘 + JS/CSS)를 8 MB 안에 두기 위한 가중치 파일 예산
CHAR_BASE = 0x2100                 # 15비트 값 v 를 문자 U+2100+v 로 싣는다 (U+2100..U+A0FF)
MAX_CODE_LEN = 24                  # 허프만 부호 길이 상한 (자바스크립트 해독기의 32비트 버퍼에 맞춤)
LADDER = [2 ** (j / 4) for j in range(40, 11, -1)]   # k 후보: 1024, 861, ..., 8 (큰 것부터)
# 원래 값 그대로 싣는 2차원 텐서(이름 끝부분). 작지만 출력에 영향이 큰 것들이다.
EXACT_2D = ("embeddings.position_embeddings.weight", "embeddings.token_type_embeddings.weight",
            "cls.predictions.transform.dense.weight")
SOURCE_FILES = ("config.json", "model.safetensors", "tokenizer.json")
STATIC_SUFFIXES = (".js", ".css")  # book/_static/lab 에서 빌드로 복사하는 파일 (README.md 는 복사하지 않음)

__all__ = ["FORMAT", "WEIGHTS_FILE", "TOKENIZER_FILE", "read_config", "load_tensors", "convert",
           "tokenizer_tables", "needs_update", "setup"]


# --- 설정과 체크포인트 ----------------------------------------------------------------------

def read_config(model_dir: str | Path) -> dict:
    """``config.json`` 에서 브라우저의 순전파에 필요한 크기와 상수를 읽습니다."""
    path = Path(model_dir) / "config.json"
    if not path.is_file():
        raise FileNotFoundError(f"{path} 가 없습니다: 실습실은 BertForPreTraining 체크포인트 폴더가 필요합니다.")
    cfg = json.loads(path.read_text(encoding="utf-8"))
    act = cfg.get("hidden_act", "gelu")
    if act != "gelu":
        raise ValueError(f"hidden_act={act!r} 은(는) 지원하지 않습니다: 실습실의 순전파는 erf GELU('gelu')만 계산합니다.")
    keys = ["num_hidden_layers", "num_attention_heads", "hidden_size", "intermediate_size", "vocab_size",
            "max_position_embeddings", "type_vocab_size"]
    missing = [k for k in keys if k not in cfg]
    if missing:
        raise ValueError(f"config.json에 {missing} 이(가) 없습니다.")
    out = {k: int(cfg[k]) for k in keys}
    if out["hidden_size"] % out["num_attention_heads"]:
        raise ValueError("hidden_size가 num_attention_heads로 나누어떨어지지 않습니다.")
    out["layer_norm_eps"] = float(cfg.get("layer_norm_eps", 1e-12))
    out["hidden_act"] = act
    out["pad_token_id"] = int(cfg.get("pad_token_id") or 0)
    return out


def _tensor_names(cfg: dict) -> list[str]:
    names = ["bert.embeddings.word_embeddings.weight", "bert.embeddings.position_embeddings.weight",
             "bert.embeddings.token_type_embeddings.weight",
             "bert.embeddings.LayerNorm.weight", "bert.embeddings.LayerNorm.bias"]
    for layer in range(cfg["num_hidden_layers"]):
        p = f"bert.encoder.layer.{layer}."
        for part in ("attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense",
                     "attention.output.LayerNorm", "intermediate.dense", "output.dense", "output.LayerNorm"):
            names += [p + part + ".weight", p + part + ".bias"]
    names += ["cls.predictions.transform.dense.weight", "cls.predictions.transform.dense.bias",
              "cls.predictions.transform.LayerNorm.weight", "cls.predictions.transform.LayerNorm.bias",
              "cls.predictions.bias"]
    return names


def load_tensors(model_dir: str | Path, cfg: dict | None = None) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """순전파와 MLM 머리에 필요한 텐서를 float32로 읽습니다. ``(텐서, 원래 dtype)``.

    디코더 가중치가 단어 임베딩과 같으면(묶인 가중치) 싣지 않고, 다르면 ``cls.predictions.decoder.weight`` 로 함께 싣습니다.
    """
    from safetensors import safe_open

    model_dir = Path(model_dir)
    cfg = cfg or read_config(model_dir)
    path = model_dir / "model.safetensors"
    if not path.is_file():
        raise FileNotFoundError(f"{path} 가 없습니다.")
    tensors, dtypes = {}, {}
    with safe_open(str(path), framework="numpy") as f:
        keys = set(f.keys())
        wanted = _tensor_names(cfg)
        if "cls.predictions.bias" not in keys and "cls.predictions.decoder.bias" in keys:
            keys.add("cls.predictions.bias")
        missing = [k for k in wanted if k not in keys]
        if missing:
            raise ValueError(f"체크포인트에 {missing[:3]} 등 {len(missing)}개 텐서가 없습니다: "
                             "실습실은 transformers BertForPreTraining 체크포인트(bert.*, cls.predictions.*)를 씁니다.")
        for name in wanted:
            key = name if name in f.keys() else "cls.predictions.decoder.bias"
            arr = f.get_tensor(key)
            dtypes[name] = str(arr.dtype)
            tensors[name] = np.ascontiguousarray(arr, dtype=np.float32)
        if "cls.predictions.decoder.weight" in f.keys():
            dec = f.get_tensor("cls.predictions.decoder.weight")
            if not np.array_equal(dec.astype(np.float32), tensors["bert.embeddings.word_embeddings.weight"]):
                dtypes["cls.predictions.decoder.weight"] = str(dec.dtype)
                tensors["cls.predictions.decoder.weight"] = np.ascontiguousarray(dec, dtype=np.float32)
    expect = {
        "bert.embeddings.word_embeddings.weight": (cfg["vocab_size"], cfg["hidden_size"]),
        "bert.embeddings.position_embeddings.weight": (cfg["max_position_embeddings"], cfg["hidden_size"]),
        "bert.encoder.layer.0.intermediate.dense.weight": (cfg["intermediate_size"], cfg["hidden_size"]),
    }
    for name, shape in expect.items():
        if name in tensors and tensors[name].shape != shape:
            raise ValueError(f"{name} 의 모양 {tensors[name].shape} 이(가) config.json과 맞지 않습니다(기대 {shape}).")
    return tensors, dtypes


# --- 양자화와 허프만 부호 -------------------------------------------------------------------

def _is_exact(name: str, arr: np.ndarray) -> bool:
    return arr.ndim == 1 or name.endswith(EXACT_2D)


def _row_scales(w: np.ndarray, k: float) -> np.ndarray:
    std = w.astype(np.float64).std(axis=1)
    peak = np.abs(w).max(axis=1).astype(np.float64)
    base = np.where(std > 0, std, np.where(peak > 0, peak, 1.0))
    return (base / k).astype(np.float32)


def _quantize(w: np.ndarray, scales: np.ndarray) -> np.ndarray:
    q = np.rint(w.astype(np.float64) / scales.astype(np.float64)[:, None])
    return q.astype(np.int64)


def _code_lengths(counts: np.ndarray) -> np.ndarray:
    """심볼 빈도로 허프만 부호 길이를 만듭니다(길이 상한 MAX_CODE_LEN을 넘으면 빈도를 눌러 다시)."""
    counts = counts.astype(np.int64).copy()
    used = np.flatnonzero(counts)
    lengths = np.zeros(len(counts), dtype=np.int64)
    if len(used) == 1:
        lengths[used] = 1
        return lengths
    while True:
        heap = [(int(counts[s]), i, [int(s)]) for i, s in enumerate(used)]
        heapq.heapify(heap)
        tie = len(heap)
        depth = np.zeros(len(counts), dtype=np.int64)
        while len(heap) > 1:
            c1, _, a = heapq.heappop(heap)
            c2, _, b = heapq.heappop(heap)
            merged = a + b
            depth[merged] += 1
            heapq.heappush(heap, (c1 + c2, tie, merged))
            tie += 1
        if depth.max() <= MAX_CODE_LEN:
            return depth
        counts[used] = np.maximum(1, counts[used] >> 1)


def _canonical_codes(lengths: np.ndarray) -> np.ndarray:
    """정규 허프만 부호: (길이, 심볼) 순서로 부호를 차례로 매긴다."""
    codes = np.zeros(len(lengths), dtype=np.int64)
    order = sorted((int(l), s) for s, l in enumerate(lengths) if l > 0)
    code, prev = 0, order[0][0]
    for i, (length, sym) in enumerate(order):
        if i:
            code = (code + 1) << (length - prev)
        prev = length
        codes[sym] = code
    return codes


def _pack_bits(symbols: np.ndarray, codes: np.ndarray, lengths: np.ndarray) -> bytes:
    """심볼 배열을 MSB부터 비트열로 이어 붙여 바이트로(끝은 0으로 채움)."""
    out = []
    carry = np.zeros(0, dtype=np.uint8)
    for start in range(0, len(symbols), 1 << 20):
        s = symbols[start:start + (1 << 20)]
        ln, cd = lengths[s], codes[s]
        width = int(ln.max())
        shifts = ln[:, None] - 1 - np.arange(width)[None, :]
        valid = shifts >= 0
        bits = ((cd[:, None] >> np.where(valid, shifts, 0)) & 1).astype(np.uint8)
        bits = np.concatenate([carry, bits[valid]])
        whole = len(bits) // 8 * 8
        out.append(np.packbits(bits[:whole]).tobytes())
        carry = bits[whole:]
    if len(carry):
        out.append(np.packbits(carry).tobytes())
    return b"".join(out)


def _huffman_size_bits(counts: np.ndarray) -> int:
    return int((counts * _code_lengths(counts)).sum())


class _Buffer:
    def __init__(self):
        self.parts: list[bytes] = []
        self.size = 0

    def add(self, data: bytes, align: int = 4) -> int:
        pad = (-self.size) % align
        if pad:
            self.parts.append(b"\0" * pad)
            self.size += pad
        offset = self.size
        self.parts.append(data)
        self.size += len(data)
        return offset

    def bytes(self) -> bytes:
        return b"".join(self.parts)


def _exact_kind(name: str, arr: np.ndarray, dtypes: dict[str, str]) -> str:
    if dtypes.get(name) == "float16" or np.array_equal(arr.astype(np.float16).astype(np.float32), arr):
        return "f16"
    return "f32"


def _estimate_bytes(tensors, dtypes, k: float) -> int:
    """k로 양자화했을 때 가중치 파일의 크기(바이트, UTF-16 문자열로 담은 뒤)."""
    total, qs = 0, []
    for name, arr in tensors.items():
        if _is_exact(name, arr):
            total += arr.size * (2 if _exact_kind(name, arr, dtypes) == "f16" else 4) + 4
            continue
        scales = _row_scales(arr, k)
        qs.append(_quantize(arr, scales).ravel())
        total += scales.size * 4 + 4
    if qs:
        lo = min(int(q.min()) for q in qs)
        size = max(int(q.max()) for q in qs) - lo + 1
        counts = np.zeros(size, dtype=np.int64)
        for q in qs:
            counts += np.bincount(q - lo, minlength=size)
        total += len(counts) + _huffman_size_bits(counts) // 8 + 4 * len(tensors)
    return total * 16 // 15 + 2 + 8_000   # 15비트 문자로 담기 + BOM + 머리(JSON)


def _largest_fitting_step(tensors, dtypes, budget_bytes: int) -> float:
    """파일 크기는 k가 커질수록 커지므로 사다리(큰 것부터)에서 이분 탐색으로 예산에 드는 가장 큰 k를 찾는다."""
    lo, hi = 0, len(LADDER) - 1          # LADDER[hi]는 가장 작은 k
    if _estimate_bytes(tensors, dtypes, LADDER[hi]) > budget_bytes:
        raise ValueError(f"가장 거친 양자화로도 가중치가 예산 {budget_bytes:,}바이트를 넘습니다.")
    while lo < hi:                       # 불변식: LADDER[hi]는 예산에 든다
        mid = (lo + hi) // 2
        if _estimate_bytes(tensors, dtypes, LADDER[mid]) <= budget_bytes:
            hi = mid
        else:
            lo = mid + 1
    return LADDER[hi]


def _encode(tensors, dtypes, k: float):
    """가중치를 바이트 버퍼로. ``(버퍼, 텐서 목록, 허프만 표 정보, 되돌린 float32 값)``."""
    buf = _Buffer()
    meta, restored, quantized = [], {}, {}
    for name, arr in tensors.items():
        if _is_exact(name, arr):
            kind = _exact_kind(name, arr, dtypes)
            raw = arr.astype(np.float16 if kind == "f16" else np.float32)
            off = buf.add(raw.astype("<f2" if kind == "f16" else "<f4").tobytes())
            meta.append({"name": name, "shape": list(arr.shape), "kind": kind, "offset": off})
            restored[name] = raw.astype(np.float32)
        else:
            scales = _row_scales(arr, k)
            q = _quantize(arr, scales)
            quantized[name] = (scales, q)
            restored[name] = (q.astype(np.float32) * scales[:, None]).astype(np.float32)
    if quantized:
        lo = min(int(q.min()) for _, q in quantized.values())
        hi = max(int(q.max()) for _, q in quantized.values())
        counts = np.zeros(hi - lo + 1, dtype=np.int64)
        for _, q in quantized.values():
            counts += np.bincount((q - lo).ravel(), minlength=len(counts))
        lengths = _code_lengths(counts)
        codes = _canonical_codes(lengths)
        table = {"min": lo, "count": len(counts), "offset": buf.add(lengths.astype(np.uint8).tobytes(), 1)}
        for name, (scales, q) in quantized.items():
            s_off = buf.add(scales.astype("<f4").tobytes())
            d_off = buf.add(_pack_bits((q - lo).ravel(), codes, lengths), 1)
            meta.append({"name": name, "shape": list(q.shape), "kind": "q", "scales": s_off, "offset": d_off})
    else:
        table = None
    return buf.bytes(), meta, table, restored


def _to_chars(data: bytes) -> bytes:
    """바이트를 15비트씩 잘라 U+2100+값 문자들의 UTF-16LE 바이트로."""
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8))
    bits = np.concatenate([bits, np.zeros((-len(bits)) % 15, dtype=np.uint8)]).reshape(-1, 15)
    values = bits.astype(np.uint32) @ (1 << np.arange(14, -1, -1, dtype=np.uint32))
    return (values + CHAR_BASE).astype("<u2").tobytes()


# --- 토크나이저 -----------------------------------------------------------------------------

def _ranges(points) -> list[list[int]]:
    out: list[list[int]] = []
    for c in sorted(points):
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


def tokenizer_tables(tokenizer_json: str | Path) -> dict:
    """BertNormalizer와 BertPreTokenizer가 글자를 어떻게 다루는지, 설치된 ``tokenizers`` 에 모든 코드 포인트를
    넣어 보고 범위 목록으로 돌려줍니다: 지움(remove), 공백으로(space), 앞뒤 공백(chinese), 문장 부호(punct).
    서로게이트(U+D800..DFFF)는 파이썬 문자열로 보낼 수 없으므로 브라우저 쪽에서 지웁니다(유니코드 범주 Cs는
    clean_text가 지우는 'other'에 속합니다)."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(tokenizer_json))
    norm, pre = tok.normalizer, tok.pre_tokenizer
    markers = (ord("x"), ord("a"))
    points = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF and c not in markers]
    remove, space, chinese, other = [], [], [], []
    chunk = 50_000
    for i in range(0, len(points), chunk):
        part = points[i:i + chunk]
        out = norm.normalize_str("x" + "x".join(map(chr, part)) + "x").split("x")[1:-1]
        if len(out) != len(part):
            raise ValueError("정규화기가 표지 글자 'x'를 바꿉니다: 이 실습실은 lowercase=False인 BertNormalizer만 지원합니다.")
        for c, o in zip(part, out):
            ch = chr(c)
            if o == ch:
                continue
            if o == "":
                remove.append(c)
            elif o == " ":
                space.append(c)
            elif o == f" {ch} ":
                chinese.append(c)
            else:
                other.append(c)
    if other:
        raise ValueError(f"정규화기가 {len(other)}개 글자를 다른 글자로 바꿉니다(예: U+{other[0]:04X}): 이 실습실은 "
                         "lowercase=False, strip_accents=False인 BertNormalizer만 지원합니다.")
    changed = set(remove) | set(space) | set(chinese)
    kept = [c for c in points if c not in changed]
    punct, blank = [], []
    for i in range(0, len(kept), chunk):
        part = kept[i:i + chunk]
        pieces = pre.pre_tokenize_str("a" + "a".join(map(chr, part)) + "a")
        single = {start for piece, (start, end) in pieces if end == start + 1}
        covered = np.zeros(2 * len(part) + 1, dtype=bool)
        for _, (start, end) in pieces:
            covered[start:end] = True
        for j, c in enumerate(part):
            pos = 2 * j + 1
            if not covered[pos]:
                blank.append(c)
            elif pos in single:
                punct.append(c)
    return {"remove": _ranges(remove), "space": _ranges(space), "chinese": _ranges(chinese),
            "punct": _ranges(punct), "whitespace": _ranges(blank)}


def _tokenizer_payload(model_dir: Path, cfg: dict) -> dict:
    spec = json.loads((model_dir / "tokenizer.json").read_text(encoding="utf-8"))
    model, normalizer, pre = spec.get("model") or {}, spec.get("normalizer") or {}, spec.get("pre_tokenizer") or {}
    if model.get("type") != "WordPiece":
        raise ValueError(f"토크나이저 모델 {model.get('type')!r}: 실습실은 WordPiece만 지원합니다.")
    if normalizer.get("type") != "BertNormalizer" or normalizer.get("lowercase") or normalizer.get("strip_accents"):
        raise ValueError("실습실은 lowercase=False, strip_accents=False인 BertNormalizer만 지원합니다.")
    if pre.get("type") != "BertPreTokenizer":
        raise ValueError(f"사전 토큰화기 {pre.get('type')!r}: 실습실은 BertPreTokenizer만 지원합니다.")
    vocab_map = model["vocab"]
    vocab = [None] * len(vocab_map)
    for token, idx in vocab_map.items():
        vocab[idx] = token
    if None in vocab:
        raise ValueError("어휘의 id가 0부터 빈틈없이 이어지지 않습니다.")
    if len(vocab) != cfg["vocab_size"]:
        raise ValueError(f"어휘 크기 {len(vocab)} 이(가) config.json의 vocab_size {cfg['vocab_size']} 와 다릅니다.")
    specials = []
    for added in spec.get("added_tokens") or []:
        if added.get("single_word") or added.get("lstrip") or added.get("rstrip") or added.get("normalized"):
            raise ValueError(f"추가 토큰 {added['content']!r}: single_word/lstrip/rstrip/normalized 가 켜진 토큰은 지원하지 않습니다.")
        specials.append({"content": added["content"], "id": int(added["id"]), "special": bool(added.get("special"))})
    single = ((spec.get("post_processor") or {}).get("single")) or []
    template = []
    for item in single:
        if "SpecialToken" in item:
            template.append(item["SpecialToken"]["id"])
        elif "Sequence" in item:
            template.append("$A")
    if template != ["[CLS]", "$A", "[SEP]"]:
        raise ValueError(f"후처리 틀 {template}: 실습실은 [CLS] 문장 [SEP] 만 지원합니다.")
    unk = model.get("unk_token", "[UNK]")
    return {
        "vocab": vocab,
        "unk_token": unk,
        "continuing_subword_prefix": model.get("continuing_subword_prefix", "##"),
        "max_input_chars_per_word": int(model.get("max_input_chars_per_word", 100)),
        "special_tokens": specials,
        "cls_token": "[CLS]", "sep_token": "[SEP]", "mask_token": "[MASK]", "pad_token": "[PAD]",
        "max_length": cfg["max_position_embeddings"],
        "chars": tokenizer_tables(model_dir / "tokenizer.json"),
    }


# --- 변환 -----------------------------------------------------------------------------------

def _js_json(obj) -> str:
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def convert(model_dir: str | Path, out_dir: str | Path, *, budget_bytes: int = WEIGHTS_BUDGET_BYTES,
            step_divisor: float | None = None, return_weights: bool = False) -> dict:
    """``model_dir`` 의 BertForPreTraining 체크포인트를 ``out_dir/model-weights.js`` 와
    ``out_dir/tokenizer-vocab.js`` 로 바꿉니다.

    ``step_divisor`` (위의 ``k``)를 주지 않으면 가중치 파일이 ``budget_bytes`` 에 들어가는 가장 큰 값을 고릅니다.
    돌려주는 사전에는 파일 경로와 크기, ``k``, 가중치당 비트 수가 있고, ``return_weights=True`` 면 브라우저가
    되돌릴 float32 값(``"weights"``: 이름 → 배열)도 있어 시험이 같은 값으로 파이썬 모델을 만들 수 있습니다.
    """
    model_dir, out_dir = Path(model_dir), Path(out_dir)
    cfg = read_config(model_dir)
    tensors, dtypes = load_tensors(model_dir, cfg)
    if step_divisor is None:
        step_divisor = _largest_fitting_step(tensors, dtypes, budget_bytes)
    data, meta, table, restored = _encode(tensors, dtypes, step_divisor)
    n_quant = sum(int(np.prod(m["shape"])) for m in meta if m["kind"] == "q")
    n_total = sum(int(np.prod(m["shape"])) for m in meta)
    digest = hashlib.sha256((model_dir / "model.safetensors").read_bytes()).hexdigest()
    header = {
        "format": FORMAT,
        "source": {"model": model_dir.name, "sha256": digest},
        "config": cfg,
        "quantization": {"step_divisor": step_divisor, "char_base": CHAR_BASE,
                         "exact": [m["name"] for m in meta if m["kind"] != "q"],
                         "quantized_weights": n_quant, "weights": n_total,
                         "bits_per_weight": round(8 * len(data) / max(n_total, 1), 3)},
        "bytes": len(data),
        "huffman": table,
        "tensors": meta,
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    weights_path = out_dir / WEIGHTS_FILE
    prefix = ("/* 실습실 가중치: book/_ext/lab_assets.py 가 빌드할 때 만든 파일입니다. 고치지 마세요. */\n"
              f"window.BERTLAB_LAB_WEIGHTS = {_js_json(header)};\n"
              "window.BERTLAB_LAB_WEIGHTS.data = \"")
    suffix = "\";\n"
    tmp = weights_path.with_suffix(".js.tmp")
    with open(tmp, "wb") as fh:
        fh.write(b"\xff\xfe")  # UTF-16LE BOM: 브라우저가 이 파일을 UTF-16으로 읽게 한다
        fh.write(prefix.encode("utf-16-le"))
        fh.write(_to_chars(data))
        fh.write(suffix.encode("utf-16-le"))
    tmp.replace(weights_path)

    tok_path = out_dir / TOKENIZER_FILE
    payload = _tokenizer_payload(model_dir, cfg)
    tok_tmp = tok_path.with_suffix(".js.tmp")
    tok_tmp.write_text("/* 실습실 토크나이저: book/_ext/lab_assets.py 가 tokenizer.json 에서 만든 파일입니다. */\n"
                       f"window.BERTLAB_LAB_TOKENIZER = {_js_json(payload)};\n", encoding="utf-8")
    tok_tmp.replace(tok_path)

    result = {"weights_path": weights_path, "tokenizer_path": tok_path,
              "weights_bytes": weights_path.stat().st_size, "tokenizer_bytes": tok_path.stat().st_size,
              "step_divisor": step_divisor, "bits_per_weight": header["quantization"]["bits_per_weight"],
              "quantized_weights": n_quant, "weights_count": n_total, "config": cfg}
    if return_weights:
        result["weights"] = restored
    return result


def needs_update(model_dir: str | Path, out_dir: str | Path) -> bool:
    """출력 두 파일이 입력(체크포인트 파일들과 이 변환기)보다 오래되었거나 없으면 True."""
    model_dir, out_dir = Path(model_dir), Path(out_dir)
    outputs = [out_dir / WEIGHTS_FILE, out_dir / TOKENIZER_FILE]
    if not all(p.is_file() for p in outputs):
        return True
    inputs = [model_dir / n for n in SOURCE_FILES if (model_dir / n).exists()] + [Path(__file__)]
    newest_input = max(p.stat().st_mtime for p in inputs)
    return min(p.stat().st_mtime for p in outputs) < newest_input


# --- Sphinx 확장 ----------------------------------------------------------------------------

def _static_source(app) -> Path:
    return Path(app.srcdir) / app.config.lab_static_dir


def _bundled_model() -> Path:
    """실습실이 싣는 모델: 설치된 bertlab의 번들 미니 BERT(책 원본을 다른 폴더에 복사해 빌드하는 학생판도 같은 모델)."""
    from bertlab.models import MINI_DIR

    return Path(MINI_DIR)


def _build_lab(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    from sphinx.util import logging

    log = logging.getLogger(__name__)
    out_dir = Path(app.outdir) / "_static" / "lab"
    out_dir.mkdir(parents=True, exist_ok=True)
    src = _static_source(app)
    for path in sorted(src.glob("*")):
        if path.suffix in STATIC_SUFFIXES and path.is_file():
            shutil.copy2(path, out_dir / path.name)
    model_dir = Path(app.config.lab_model_dir) if app.config.lab_model_dir else _bundled_model()
    if needs_update(model_dir, out_dir):
        info = convert(model_dir, out_dir)
        log.info(f"실습실: 가중치 {info['weights_bytes'] / 1e6:.2f} MB (k={info['step_divisor']:.1f}, "
                 f"가중치당 {info['bits_per_weight']}비트), 어휘 {info['tokenizer_bytes'] / 1e3:.0f} kB")
    else:
        log.info("실습실: 가중치 파일이 최신이라 변환을 건너뜁니다.")


def setup(app):
    app.add_config_value("lab_model_dir", "", "env")  # 비어 있으면 설치된 bertlab의 번들 미니 BERT
    app.add_config_value("lab_static_dir", "book/_static/lab", "env")
    app.connect("build-finished", _build_lab)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
