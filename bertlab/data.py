"""감성 분류 데이터 (6장 파인튜닝에서 처음 씁니다).

- ``"bundled"``: 이 프로젝트가 직접 쓴 한국어 리뷰 3천여 문장(영화·드라마, 상품, 음식점·배달, 앱, 장소; 긍정/부정 반반).
  train/validation/test가 고정되어 있고, 네트워크 없이 곧바로 열립니다. 만든 방법, 개수, 라벨 규칙은
  `bertlab/assets/sentiment/DATA_CARD.md`에 있습니다. 문장마다 붙은 분석용 열(분야, 말투, 현상, 그룹)은
  ``load_bundled(with_meta=True)``로 읽습니다.
- ``"nsmc"``: 네이버 영화 리뷰 말뭉치 NSMC(학습 15만, 평가 5만; Park 2016)를 공개 원본 파일에서 내려받습니다.
  닿지 않으면 한 줄로 알리고 번들 데이터로 돌아갑니다.
- ``"auto"`` (기본값, 환경 변수 `BERTLAB_DATA`로 바꿀 수 있음): GPU가 있고 NSMC에 닿으면(또는 캐시에 있으면)
  NSMC, 아니면 번들 데이터. NSMC 15만 문장은 CPU에서 몇 시간이 걸리기 때문입니다.

어느 쪽이든 돌려주는 모양은 같습니다: ``{"train", "validation", "test"}`` → ``text``(str), ``label``(int;
1 = 긍정, 0 = 부정) 두 열의 pandas DataFrame.

번들 한국어 글(`bertlab/assets/text/`)도 여기서 읽습니다: 동음이의어 문장 표(`read_senses`, 2장·5장)와
한 줄 한 문장·빈 줄로 문서를 나눈 텍스트(`read_documents`, 7장).
"""

from __future__ import annotations

import os
import urllib.request
from pathlib import Path

import pandas as pd

from . import models

SENTIMENT_DIR = Path(__file__).resolve().parent / "assets" / "sentiment"
TEXT_DIR = Path(__file__).resolve().parent / "assets" / "text"
SPLITS = ("train", "validation", "test")
LABEL_NAMES = ("부정", "긍정")  # label 0, 1
NSMC_URLS = {
    "train": "https://raw.githubusercontent.com/e9t/nsmc/master/ratings_train.txt",
    "test": "https://raw.githubusercontent.com/e9t/nsmc/master/ratings_test.txt",
}
NSMC_VALIDATION_SIZE = 10_000  # NSMC에는 검증 세트가 없어 학습 세트에서 떼어 낸다 (시드 고정)
PROBE_TIMEOUT_S = 3.0
NAMES = ("auto", "bundled", "nsmc")


def nsmc_cache_dir() -> Path:
    """NSMC 원본 파일을 저장할 곳 (`BERTLAB_CACHE` 또는 ~/.cache/bertlab/nsmc)."""
    root = os.environ.get("BERTLAB_CACHE") or Path.home() / ".cache" / "bertlab"
    return Path(root).expanduser() / "nsmc"


def nsmc_cached() -> bool:
    """NSMC의 두 원본 파일이 이미 내려받아져 있으면 True."""
    return all((nsmc_cache_dir() / Path(url).name).is_file() for url in NSMC_URLS.values())


def _check_name(name) -> str:
    if name is None:
        return "auto"
    if not isinstance(name, str):
        raise TypeError(f"데이터 이름은 문자열이어야 합니다 (받은 값: {name!r}). 'auto', 'bundled', 'nsmc' 중 하나를 쓰세요.")
    key = name.strip().lower()
    if key not in NAMES:
        raise ValueError(f"'{name}'은(는) 알 수 없는 데이터 이름입니다. 'auto', 'bundled', 'nsmc' 중 하나를 쓰세요.")
    return key


def decide_dataset(name: str = "auto") -> tuple[str, str]:
    """어떤 데이터를 쓸지 정합니다(아직 읽지는 않음). ``(데이터 이름, 이유 한 줄)``을 돌려줍니다."""
    key = _check_name(name)
    if key == "auto":
        env = os.environ.get("BERTLAB_DATA", "").strip()
        if env and env.lower() != "auto":
            chosen, reason = decide_dataset(env)
            return chosen, f"BERTLAB_DATA={env} 설정을 따름. {reason}"
        import torch

        if not torch.cuda.is_available():
            return "bundled", "GPU가 없어 NSMC(15만 문장) 대신 번들 감성 데이터를 씁니다."
        key = "nsmc"
    if key == "bundled":
        return "bundled", "번들 감성 데이터 (네트워크 불필요)."
    if nsmc_cached():
        return "nsmc", f"NSMC를 캐시({nsmc_cache_dir()})에서 엽니다."
    if models.url_reachable(NSMC_URLS["test"], PROBE_TIMEOUT_S, ok_below=400):
        return "nsmc", "NSMC 원본 파일을 GitHub에서 내려받습니다."
    return "bundled", f"NSMC({NSMC_URLS['test'].rsplit('/', 1)[0]})에 {PROBE_TIMEOUT_S:.0f}초 안에 닿지 않아 번들 감성 데이터를 씁니다."


META_COLUMNS = ("domain", "source", "register", "phenomenon", "group")


def load_bundled(with_meta: bool = False) -> dict[str, pd.DataFrame]:
    """번들 감성 데이터의 세 분할을 읽습니다 (``text``, ``label`` 열).

    ``with_meta=True``면 분석용 열도 함께 돌려줍니다(6장의 현상별 정확도에 씁니다):

    - ``domain``: ``movie``(영화·드라마), ``product``(상품), ``food``(음식점·배달), ``app``(앱·서비스), ``place``(장소)
    - ``source``: ``hand``(사람이 직접 쓴 문장). 지금은 모두 ``hand``이고, 템플릿 문장은 없습니다.
    - ``register``(말투): ``formal``(합쇼체), ``polite``(해요체), ``plain``(해라체·반말), ``noun``(명사형으로 끝맺음), ``net``(인터넷 말투)
    - ``phenomenon``(현상): ``plain``, ``negation``(부정), ``double_negation``(이중 부정), ``contrast``(기대와 반대),
      ``aspect_flip``(측면에 따라 뒤집히는 말), ``sarcasm``(반어), ``faint``(미지근한 칭찬·사소한 흠), ``mixed``(장단점)
    - ``group``: 거의 같은 문장과 짝 문장을 묶은 그룹 id. 한 그룹은 한 분할에만 있습니다.

    `load_sentiment`는 언제나 ``text``, ``label`` 두 열만 돌려줍니다.
    """
    out = {}
    for split in SPLITS:
        path = SENTIMENT_DIR / f"{split}.tsv"
        if not path.is_file():
            raise FileNotFoundError(
                f"번들 감성 데이터 파일이 없습니다: {path}\n"
                "bertlab을 저장소에서 다시 설치하거나(`pip install -e .`), "
                "`python bertlab/assets/sentiment/build.py`로 다시 만드세요."
            )
        dtypes = {"text": str, "label": "int64", **{c: str for c in META_COLUMNS}}
        df = pd.read_csv(path, sep="\t", quoting=3, dtype=dtypes, keep_default_na=False)
        columns = ["text", "label", *META_COLUMNS] if with_meta else ["text", "label"]
        out[split] = df[columns].reset_index(drop=True)
    return out


def _download(url: str, dest: Path, timeout: float = 60.0) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_suffix(dest.suffix + ".part")
    with urllib.request.urlopen(url, timeout=timeout) as resp, open(tmp, "wb") as f:
        while chunk := resp.read(1 << 20):
            f.write(chunk)
    tmp.replace(dest)


def load_nsmc(validation_size: int = NSMC_VALIDATION_SIZE, seed: int = 0) -> dict[str, pd.DataFrame]:
    """NSMC를 (필요하면 내려받아) 읽습니다. 비어 있는 리뷰는 버리고, 학습 세트에서 검증 세트를 떼어 냅니다."""
    frames = {}
    for split, url in NSMC_URLS.items():
        path = nsmc_cache_dir() / Path(url).name
        if not path.is_file():
            try:
                _download(url, path)
            except OSError as err:
                raise ConnectionError(
                    f"NSMC 파일을 내려받지 못했습니다 ({url}): {err}. "
                    "인터넷 연결을 확인하거나 load_sentiment('bundled')를 쓰세요."
                ) from None
        df = pd.read_csv(path, sep="\t", quoting=3, dtype={"document": str}, keep_default_na=False)
        df = df.rename(columns={"document": "text"})
        df["text"] = df["text"].str.strip()
        df = df[df["text"] != ""]
        frames[split] = df[["text", "label"]].astype({"label": "int64"}).reset_index(drop=True)
    train = frames["train"].sample(frac=1.0, random_state=seed).reset_index(drop=True)
    return {
        "train": train.iloc[validation_size:].reset_index(drop=True),
        "validation": train.iloc[:validation_size].reset_index(drop=True),
        "test": frames["test"],
    }


def load_sentiment(name: str = "auto", *, quiet: bool = False) -> dict[str, pd.DataFrame]:
    """감성 분류 데이터: ``{"train", "validation", "test"}`` → ``text``, ``label``(1 긍정, 0 부정) DataFrame.

    ``name``: ``"auto"``(기본값), ``"bundled"``, ``"nsmc"``. 어떤 데이터를 쓰는지 한 줄로 출력합니다
    (``quiet=True``면 출력하지 않음). NSMC에 닿지 않으면 번들 데이터로 돌아갑니다.
    """
    chosen, reason = decide_dataset(name)
    if chosen == "nsmc":
        try:
            data = load_nsmc()
        except ConnectionError as err:
            chosen, reason = "bundled", f"{err} 번들 감성 데이터로 돌아갑니다."
    if chosen == "bundled":
        data = load_bundled()
    if not quiet:
        sizes = " / ".join(f"{split} {len(data[split]):,}" for split in SPLITS)
        label = "번들 감성 데이터" if chosen == "bundled" else "NSMC"
        print(f"데이터: {label} ({sizes}) — {reason}")
    return data


# ---------------------------------------------------------------- 번들 한국어 글


def read_documents(path: Path) -> list[list[str]]:
    """한 줄 한 문장, 빈 줄로 문서를 나눈 텍스트 파일을 읽습니다."""
    docs, cur = [], []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line:
            cur.append(line)
        elif cur:
            docs.append(cur)
            cur = []
    if cur:
        docs.append(cur)
    return docs




SENSE_SPLITS = ("train", "eval", "eval_particle")


def read_senses(split: str | None = None) -> list[dict]:
    """동음이의어 문장 표(`senses_ko.tsv`)를 dict 목록으로 읽습니다. `split`으로 거를 수 있습니다.

    - ``"train"``: 학습 말뭉치에 들어가는 문장
    - ``"eval"``: 평가 문장(뜻마다 6개, 단어 뒤 조사는 제각각)
    - ``"eval_particle"``: 조사를 고정한 평가 문장. 한 단어의 문장은 모두 목적격 조사(을/를)가 바로 뒤에 붙어서,
      같은 뜻 쌍과 다른 뜻 쌍의 차이가 조사가 아니라 문장의 나머지에서만 나옵니다.
    """
    path = TEXT_DIR / "senses_ko.tsv"
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    rows = [dict(zip(header, ln.split("\t"))) for ln in lines[1:] if ln.strip()]
    if split is not None:
        if split not in SENSE_SPLITS:
            raise ValueError(f"split은 {', '.join(map(repr, SENSE_SPLITS))} 중 하나여야 합니다 (받은 값: {split!r}).")
        rows = [r for r in rows if r["split"] == split]
    return rows
