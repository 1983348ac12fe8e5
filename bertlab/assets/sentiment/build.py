"""번들 한국어 감성 데이터(긍정/부정 리뷰)를 다시 만드는 스크립트.

    python bertlab/assets/sentiment/build.py

입력은 이 폴더에서 사람이 직접 쓴 리뷰 파일들(``handwritten.tsv``, ``reviews/*.tsv``)뿐이고, 출력은
``train.tsv``, ``validation.tsv``, ``test.tsv``와 ``DATA_CARD.md``의 개수 표(표시 사이)입니다. 템플릿으로 찍어 낸
문장은 쓰지 않습니다: 손으로 쓴 문장이 3천 개를 넘어 템플릿이 보탤 것이 없고, 템플릿 문장은 외우기 쉬워 점수만 부풀립니다.

단계:

1. 읽기: 유니코드 NFC, 공백 정리, 열 값 검사.
2. 중복 없애기: 공백·문장부호·기호·한글 낱자(ㅋ, ㅎ, ㅠ, ㄹㅇ …)를 지우고 소문자로 바꾼 꼴(`squash`)이 같으면
   먼저 나온 것 하나만 남긴다.
3. 거의 같은 문장 묶기: `squash` 꼴의 유사도(difflib `SequenceMatcher.ratio`)가 ``NEAR`` 이상인 두 문장은
   그룹을 하나로 합친다. 그래서 '배송이 너무 늦어요.'와 '배송이 늦엇어요'가 학습 세트와 테스트 세트에 나뉘어 들어가지 않는다.
4. 라벨 맞추기: 분야(domain)마다 긍정과 부정의 수가 같도록 많은 쪽에서 시드로 골라 뺀다.
5. 나누기: (분야, 라벨 구성, 현상)별로 그룹을 섞어 70/15/15로 나눈다. 한 그룹은 한 분할에만 들어간다.
6. 검사: 그룹도, 거의 같은 문장 쌍도 분할을 가로지르지 않는다(``check``가 assert).

시드가 고정되어 있어 몇 번을 돌려도 같은 파일이 바이트 단위로 똑같이 나옵니다(`tests/test_data.py`가 확인).
"""

from __future__ import annotations

import csv
import difflib
import random
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 20240601
INPUTS = ["handwritten.tsv", "reviews/movie.tsv", "reviews/product.tsv", "reviews/food.tsv",
          "reviews/app.tsv", "reviews/place.tsv", "reviews/movie_hard.tsv", "reviews/product_hard.tsv",
          "reviews/food_hard.tsv", "reviews/app_hard.tsv", "reviews/place_hard.tsv"]
SPLITS = ("train", "validation", "test")
FRACTIONS = {"train": 0.70, "validation": 0.15, "test": 0.15}
NEAR = 0.75  # squash 꼴의 SequenceMatcher 유사도가 이 이상이면 '거의 같은 문장'
COLUMNS = ["text", "label", "domain", "source", "register", "phenomenon", "group"]
DOMAINS = ("movie", "product", "food", "app", "place")
REGISTERS = ("formal", "polite", "plain", "noun", "net")
PHENOMENA = ("plain", "negation", "double_negation", "contrast", "aspect_flip", "sarcasm", "faint", "mixed")
CARD = HERE / "DATA_CARD.md"
CARD_START = "<!-- 개수 표 시작: build.py가 만듭니다. 손으로 고치지 마세요. -->"
CARD_END = "<!-- 개수 표 끝 -->"


# --------------------------------------------------------------------------- 읽기와 정규화


def normalize(text: str) -> str:
    """NFC로 맞추고 공백을 하나로 줄인 문장."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def squash(text: str) -> str:
    """비교용 꼴: 공백·문장부호·기호·제어 문자와 한글 낱자(U+3131–U+318E: ㅋ, ㅎ, ㅠ, ㄹㅇ …)를 지우고 소문자로."""
    text = unicodedata.normalize("NFC", text)
    return "".join(
        ch for ch in text if unicodedata.category(ch)[0] not in "PSZC" and not 0x3131 <= ord(ch) <= 0x318E
    ).lower()


def read_inputs() -> list[dict]:
    """손으로 쓴 리뷰 파일들을 읽어 한 목록으로. 열 값이 정해진 것 밖이면 멈춘다."""
    rows = []
    for name in INPUTS:
        with open(HERE / name, encoding="utf-8", newline="") as f:
            for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
                row = dict(text=normalize(r["text"]), label=int(r["label"]), domain=r["domain"], source="hand",
                           register=r["register"], phenomenon=r["phenomenon"], group=r["group"])
                assert row["text"] and row["label"] in (0, 1), (name, r)
                assert row["domain"] in DOMAINS and row["register"] in REGISTERS, (name, r)
                assert row["phenomenon"] in PHENOMENA and row["group"], (name, r)
                rows.append(row)
    return rows


def deduplicate(rows: list[dict]) -> tuple[list[dict], list[dict]]:
    """`squash` 꼴이 같은 문장은 먼저 나온 것만 남긴다. (남긴 것, 뺀 것)."""
    kept, dropped, seen = [], [], set()
    for r in rows:
        key = squash(r["text"])
        (dropped if key in seen else kept).append(r)
        seen.add(key)
    return kept, dropped


# --------------------------------------------------------------------------- 거의 같은 문장


def near_pairs(texts: list[str], threshold: float = NEAR) -> list[tuple[int, int]]:
    """`squash` 꼴의 `SequenceMatcher.ratio()`가 ``threshold`` 이상인 모든 쌍 (i < j).

    모든 쌍(수백만 개)에 ratio를 계산하면 느리므로, 먼저 그 상한인 글자 다중집합 유사도
    2·|공통 글자| / (두 길이의 합)(`SequenceMatcher.quick_ratio`와 같은 값)를 희소 행렬 곱 한 번으로 모든 쌍에 계산하고,
    상한이 ``threshold`` 이상인 쌍에만 ratio를 계산한다. 상한으로 거르므로 빠뜨리는 쌍은 없다.
    """
    import numpy as np
    from scipy import sparse

    keys = [squash(t) for t in texts]
    index: dict[tuple[str, int], int] = {}
    rows, cols = [], []
    for i, key in enumerate(keys):
        seen: Counter = Counter()
        for ch in key:  # 같은 글자의 k번째 등장을 따로 세면, 두 행의 내적이 sum(min(개수))가 된다
            seen[ch] += 1
            rows.append(i)
            cols.append(index.setdefault((ch, seen[ch]), len(index)))
    x = sparse.csr_matrix((np.ones(len(rows), dtype=np.int32), (rows, cols)), shape=(len(keys), max(1, len(index))))
    common = sparse.triu(x @ x.T, k=1).tocoo()
    lengths = np.array([len(k) for k in keys])
    bound = 2 * common.data / np.maximum(1, lengths[common.row] + lengths[common.col])
    pairs = []
    for i, j in zip(common.row[bound >= threshold].tolist(), common.col[bound >= threshold].tolist()):
        if difflib.SequenceMatcher(None, keys[i], keys[j], autojunk=False).ratio() >= threshold:
            pairs.append((i, j))
    return sorted(pairs)


def merge_groups(rows: list[dict], pairs: list[tuple[int, int]]) -> None:
    """거의 같은 두 문장의 그룹을 하나로 합친다(합친 그룹의 이름은 가장 앞선 그룹 id). 제자리에서 고친다."""
    parent = {r["group"]: r["group"] for r in rows}

    def find(g: str) -> str:
        while parent[g] != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g

    for i, j in pairs:
        a, b = find(rows[i]["group"]), find(rows[j]["group"])
        if a != b:
            parent[max(a, b)] = min(a, b)
    for r in rows:
        r["group"] = find(r["group"])


# --------------------------------------------------------------------------- 균형과 분할


def balance(rows: list[dict], rng: random.Random) -> tuple[list[dict], list[dict]]:
    """분야마다 긍정과 부정의 수를 같게: 많은 쪽에서 (되도록 phenomenon=plain인 문장을) 시드로 골라 뺀다."""
    dropped = set()
    for domain in DOMAINS:
        by_label = {y: [i for i, r in enumerate(rows) if r["domain"] == domain and r["label"] == y] for y in (0, 1)}
        extra = len(by_label[1]) - len(by_label[0])
        if extra == 0:
            continue
        many = by_label[1] if extra > 0 else by_label[0]
        plain = [i for i in many if rows[i]["phenomenon"] == "plain"]
        rest = [i for i in many if rows[i]["phenomenon"] != "plain"]
        rng.shuffle(plain)
        rng.shuffle(rest)
        dropped.update((plain + rest)[: abs(extra)])
    return [r for i, r in enumerate(rows) if i not in dropped], [r for i, r in enumerate(rows) if i in dropped]


def grouped_split(rows: list[dict], rng: random.Random) -> dict[str, list[dict]]:
    """그룹 단위로 나눈다. 층은 (첫 문장의 분야, 그룹의 라벨 구성: 0, 1, 둘 다, 첫 문장의 현상)이고, 층마다 그룹을 섞은 뒤
    test와 validation을 목표 문장 수까지 채우고 나머지를 train에 둔다."""
    groups = defaultdict(list)
    for r in rows:
        groups[r["group"]].append(r)
    strata = defaultdict(list)
    for name, members in groups.items():
        labels = "".join(sorted({str(m["label"]) for m in members}))
        strata[(members[0]["domain"], labels, members[0]["phenomenon"])].append(name)
    split = {name: [] for name in SPLITS}
    for key in sorted(strata):
        names = sorted(strata[key])
        rng.shuffle(names)
        total = sum(len(groups[g]) for g in names)
        targets = {s: round(total * FRACTIONS[s]) for s in ("test", "validation")}
        filled = {"test": 0, "validation": 0}
        for g in names:
            dest = next((s for s in ("test", "validation") if filled[s] + len(groups[g]) <= targets[s]), "train")
            if dest != "train":
                filled[dest] += len(groups[g])
            split[dest].extend(groups[g])
    for name in SPLITS:
        split[name].sort(key=lambda r: (r["group"], r["text"]))
        rng.shuffle(split[name])
    return split


def check(split: dict[str, list[dict]]) -> None:
    """분할의 약속을 확인한다: 중복 없음, 그룹과 거의 같은 문장 쌍이 분할을 가로지르지 않음, 라벨 균형."""
    rows = [r for name in SPLITS for r in split[name]]
    where = {id(r): name for name in SPLITS for r in split[name]}
    assert len({squash(r["text"]) for r in rows}) == len(rows), "squash 꼴이 같은 문장이 남아 있습니다"
    homes = defaultdict(set)
    for r in rows:
        homes[r["group"]].add(where[id(r)])
    crossing = [g for g, s in homes.items() if len(s) > 1]
    assert not crossing, f"여러 분할에 걸친 그룹: {crossing[:5]}"
    leaks = [(rows[i]["text"], rows[j]["text"]) for i, j in near_pairs([r["text"] for r in rows])
             if where[id(rows[i])] != where[id(rows[j])]]
    assert not leaks, f"분할을 가로지르는 거의 같은 문장: {leaks[:5]}"
    labels = Counter(r["label"] for r in rows)
    assert labels[0] == labels[1], labels
    for name in SPLITS:
        share = sum(r["label"] for r in split[name]) / len(split[name])
        assert abs(share - 0.5) < 0.03, (name, share)
        assert abs(len(split[name]) / len(rows) - FRACTIONS[name]) < 0.02, name


def build(info: dict | None = None) -> dict[str, list[dict]]:
    """입력을 읽어 정리하고 세 분할로 나눕니다(파일은 쓰지 않음). ``info``를 주면 중간 결과를 담아 준다."""
    rng = random.Random(SEED)
    raw = read_inputs()
    rows, duplicates = deduplicate(raw)
    pairs = near_pairs([r["text"] for r in rows])
    near = [(rows[i]["text"], rows[j]["text"]) for i, j in pairs]
    merge_groups(rows, pairs)
    rows, extra = balance(rows, rng)
    split = grouped_split(rows, rng)
    check(split)
    if info is not None:
        info.update(raw=raw, duplicates=duplicates, near=near, extra=extra)
    return split


# --------------------------------------------------------------------------- 파일 쓰기


def render_tsv(rows: list[dict]) -> str:
    """한 분할의 TSV 내용(머리줄 + 한 줄에 한 문장, 따옴표 없음)."""
    lines = ["\t".join(COLUMNS)]
    for r in rows:
        assert not any("\t" in str(r[c]) or "\n" in str(r[c]) for c in COLUMNS), r
        lines.append("\t".join(str(r[c]) for c in COLUMNS))
    return "\n".join(lines) + "\n"


def _table(split: dict[str, list[dict]], column: str, values: tuple, title: str, names: dict | None = None) -> list[str]:
    names = names or {}
    head = f"| {title} | " + " | ".join(SPLITS) + " | 합계 | 긍정 | 부정 |"
    out = [head, "| --- |" + " ---: |" * (len(SPLITS) + 3)]
    for v in values:
        per = [sum(r[column] == v for r in split[s]) for s in SPLITS]
        pos = sum(r[column] == v and r["label"] == 1 for s in SPLITS for r in split[s])
        out.append(f"| {names.get(v, f'`{v}`')} | " + " | ".join(f"{n:,}" for n in per)
                   + f" | {sum(per):,} | {pos:,} | {sum(per) - pos:,} |")
    return out


def render_counts(split: dict[str, list[dict]]) -> str:
    """DATA_CARD.md의 표시 사이에 들어갈 개수 표들."""
    rows = [r for s in SPLITS for r in split[s]]
    out = ["| 분할 | 문장 수 | 긍정 | 부정 | 그룹 수 |", "| --- | ---: | ---: | ---: | ---: |"]
    for s in SPLITS + ("합계",):
        part = rows if s == "합계" else split[s]
        pos = sum(r["label"] for r in part)
        out.append(f"| {s} | {len(part):,} | {pos:,} | {len(part) - pos:,} | {len({r['group'] for r in part}):,} |")
    lengths = sorted(len(r["text"]) for r in rows)
    hand = sum(r["source"] == "hand" for r in rows)
    out += ["", f"손으로 쓴 문장 {hand:,}개({100 * hand / len(rows):.0f} %), 템플릿 문장 {len(rows) - hand:,}개."
            f" 길이(공백 포함 글자 수)는 {lengths[0]}~{lengths[-1]}자, 중앙값 {lengths[len(lengths) // 2]}자입니다."]
    out += ["", "분야별:", ""] + _table(split, "domain", DOMAINS, "분야")
    out += ["", "말투(register)별:", ""] + _table(split, "register", REGISTERS, "말투")
    out += ["", "현상(phenomenon)별:", ""] + _table(split, "phenomenon", PHENOMENA, "현상")
    return "\n".join(out)


def render_card(split: dict[str, list[dict]], card: str) -> str:
    """카드 글에서 두 표시 사이를 새 개수 표로 바꾼 글."""
    start, end = card.index(CARD_START) + len(CARD_START), card.index(CARD_END)
    return card[:start] + "\n\n" + render_counts(split) + "\n\n" + card[end:]


def main() -> None:
    info: dict = {}
    split = build(info)
    for name in SPLITS:
        (HERE / f"{name}.tsv").write_text(render_tsv(split[name]), encoding="utf-8", newline="\n")
    CARD.write_text(render_card(split, CARD.read_text(encoding="utf-8")), encoding="utf-8", newline="\n")
    print(f"입력 {len(info['raw']):,}문장 · 중복으로 뺀 문장 {len(info['duplicates'])}"
          f" · 거의 같은 쌍 {len(info['near'])} · 라벨을 맞추려고 뺀 문장 {len(info['extra'])}")
    for r in info["duplicates"]:
        print(f"  중복: {r['text']}")
    for a, b in info["near"]:
        print(f"  거의 같음: {a} / {b}")
    for name in SPLITS:
        part = split[name]
        print(f"{name:>10}: {len(part):5,}  긍정 {sum(r['label'] for r in part):5,}  그룹 {len({r['group'] for r in part}):5,}")


if __name__ == "__main__":
    main()
