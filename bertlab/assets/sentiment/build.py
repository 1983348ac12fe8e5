"""번들 한국어 감성 데이터(긍정/부정 리뷰)를 다시 만드는 스크립트.

    python bertlab/assets/sentiment/build.py

입력은 이 폴더의 ``handwritten.tsv``(사람이 직접 쓴 문장)와 아래의 템플릿 표이고,
출력은 ``train.tsv``, ``validation.tsv``, ``test.tsv``입니다. 시드가 고정되어 있어
몇 번을 돌려도 같은 파일이 나옵니다. 만든 방법과 규칙은 ``DATA_CARD.md``에 적었습니다.

템플릿 문장은 ``[여는 말] [대상] 측면+조사 [강조어] 서술어(문체) [맺는 말]``의 꼴입니다.
측면(스토리, 배송, 음질 ...)마다 그 측면에 자연스럽게 붙는 서술어만 골라 두었으므로
'배송이 탄탄했어요' 같은 어색한 조합은 나오지 않습니다. 같은 (측면, 서술어) 쌍에서 나온
문장들은 한 그룹으로 묶어 train/validation/test 가운데 한 곳에만 들어가게 합니다
(끝말만 다른 거의 같은 문장이 학습과 평가에 나뉘어 들어가 점수가 부풀려지는 일을 막습니다).
"""

from __future__ import annotations

import csv
import random
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 20240601
PER_LABEL = 800  # 라벨마다 문장 수 (긍정 800, 부정 800)
FRACTIONS = {"train": 0.70, "validation": 0.15, "test": 0.15}

# ---------------------------------------------------------------------------
# 서술어 표: 활용형 7가지
#   yo 해요체 현재 · yo_past 해요체 과거 · da_past 해라체 과거 · eum 명사형(-음, 현재)
#   formal 합쇼체 현재 · go 연결형(-고) · ne 감탄형(-네요)
# 과거 명사형(-었음)과 합쇼체 과거(-었습니다)는 da_past에서 만든다.
# deg: 앞에 붙일 수 있는 강조어의 종류 ("full": 정말/진짜/너무/꽤..., "strong": 정말/진짜, None: 없음)
# ---------------------------------------------------------------------------


def hada(stem: str, deg: str | None = "full") -> dict:
    """'X하다' 꼴 형용사의 활용형."""
    return dict(
        yo=f"{stem}해요", yo_past=f"{stem}했어요", da_past=f"{stem}했다", eum=f"{stem}함",
        formal=f"{stem}합니다", go=f"{stem}하고", ne=f"{stem}하네요", deg=deg,
    )


def forms(spec: str, deg: str | None = "full") -> dict:
    """'해요|했어요|했다|함|합니다|하고|하네요' 꼴로 적은 불규칙 활용형."""
    keys = ["yo", "yo_past", "da_past", "eum", "formal", "go", "ne"]
    values = spec.split("|")
    assert len(values) == len(keys), spec
    out = dict(zip(keys, values))
    out["deg"] = deg
    return out


P = {
    # --- 긍정 서술어 ---
    "좋다": forms("좋아요|좋았어요|좋았다|좋음|좋습니다|좋고|좋네요"),
    "훌륭하다": hada("훌륭"),
    "탄탄하다": hada("탄탄"),
    "자연스럽다": forms("자연스러워요|자연스러웠어요|자연스러웠다|자연스러움|자연스럽습니다|자연스럽고|자연스럽네요"),
    "인상적이다": forms("인상적이에요|인상적이었어요|인상적이었다|인상적임|인상적입니다|인상적이고|인상적이네요"),
    "최고다": forms("최고예요|최고였어요|최고였다|최고임|최고입니다|최고고|최고네요", "strong"),
    "완벽하다": hada("완벽", "strong"),
    "아름답다": forms("아름다워요|아름다웠어요|아름다웠다|아름다움|아름답습니다|아름답고|아름답네요"),
    "멋지다": forms("멋져요|멋졌어요|멋졌다|멋짐|멋집니다|멋지고|멋지네요"),
    "신선하다": hada("신선"),
    "감동적이다": forms("감동적이에요|감동적이었어요|감동적이었다|감동적임|감동적입니다|감동적이고|감동적이네요"),
    "시원시원하다": hada("시원시원", None),
    "시원하다": hada("시원"),
    "깔끔하다": hada("깔끔"),
    "마음에 들다": forms("마음에 들어요|마음에 들었어요|마음에 들었다|마음에 쏙 듦|마음에 듭니다|마음에 들고|마음에 드네요", "strong"),
    "섬세하다": hada("섬세"),
    "재미있다": forms("재미있어요|재미있었어요|재미있었다|재미있음|재미있습니다|재미있고|재미있네요"),
    "빠르다": forms("빨라요|빨랐어요|빨랐다|빠름|빠릅니다|빠르고|빠르네요"),
    "착하다": hada("착"),
    "저렴하다": hada("저렴"),
    "합리적이다": forms("합리적이에요|합리적이었어요|합리적이었다|합리적임|합리적입니다|합리적이고|합리적이네요"),
    "튼튼하다": hada("튼튼"),
    "예쁘다": forms("예뻐요|예뻤어요|예뻤다|예쁨|예쁩니다|예쁘고|예쁘네요"),
    "편하다": hada("편"),
    "맛있다": forms("맛있어요|맛있었어요|맛있었다|맛있음|맛있습니다|맛있고|맛있네요"),
    "넉넉하다": hada("넉넉"),
    "푸짐하다": hada("푸짐"),
    "꼼꼼하다": hada("꼼꼼"),
    "조용하다": hada("조용"),
    "오래가다": forms("오래가요|오래갔어요|오래갔다|오래감|오래갑니다|오래가고|오래가네요", "strong"),
    "선명하다": hada("선명"),
    "깨끗하다": hada("깨끗"),
    "은은하다": hada("은은"),
    "딱 맞다": forms("딱 맞아요|딱 맞았어요|딱 맞았다|딱 맞음|딱 맞습니다|딱 맞고|딱 맞네요", None),
    "친절하다": hada("친절"),
    "부드럽다": forms("부드러워요|부드러웠어요|부드러웠다|부드러움|부드럽습니다|부드럽고|부드럽네요"),
    "가볍다": forms("가벼워요|가벼웠어요|가벼웠다|가벼움|가볍습니다|가볍고|가볍네요"),
    "고급스럽다": forms("고급스러워요|고급스러웠어요|고급스러웠다|고급스러움|고급스럽습니다|고급스럽고|고급스럽네요"),
    "만족스럽다": forms("만족스러워요|만족스러웠어요|만족스러웠다|만족스러움|만족스럽습니다|만족스럽고|만족스럽네요"),
    "신나다": forms("신나요|신났어요|신났다|신남|신납니다|신나고|신나네요"),
    "뛰어나다": forms("뛰어나요|뛰어났어요|뛰어났다|뛰어남|뛰어납니다|뛰어나고|뛰어나네요"),
    "강력하다": hada("강력"),
    "화려하다": hada("화려"),
    "따뜻하다": hada("따뜻"),
    "매력적이다": forms("매력적이에요|매력적이었어요|매력적이었다|매력적임|매력적입니다|매력적이고|매력적이네요"),
    "쉽다": forms("쉬워요|쉬웠어요|쉬웠다|쉬움|쉽습니다|쉽고|쉽네요"),
    "간단하다": hada("간단"),
    "간편하다": hada("간편"),
    "안정적이다": forms("안정적이에요|안정적이었어요|안정적이었다|안정적임|안정적입니다|안정적이고|안정적이네요"),
    "잘 되다": forms("잘 돼요|잘 됐어요|잘 됐다|잘 됨|잘 됩니다|잘 되고|잘 되네요", None),
    "적다(소음)": forms("적어요|적었어요|적었다|적음|적습니다|적고|적네요"),
    "바삭하다": hada("바삭"),
    "신선하다(식품)": hada("신선"),
    "사진이랑 똑같다": forms("사진이랑 똑같아요|사진이랑 똑같았어요|사진이랑 똑같았다|사진이랑 똑같음|사진이랑 똑같습니다|사진이랑 똑같고|사진이랑 똑같네요", None),
    "기대 이상이다": forms("기대 이상이에요|기대 이상이었어요|기대 이상이었다|기대 이상임|기대 이상입니다|기대 이상이고|기대 이상이네요", None),
    "빵빵하다": hada("빵빵"),
    # --- 부정 서술어 ---
    "별로다": forms("별로예요|별로였어요|별로였다|별로임|별로입니다|별로고|별로네요", "strong"),
    "아쉽다": forms("아쉬워요|아쉬웠어요|아쉬웠다|아쉬움|아쉽습니다|아쉽고|아쉽네요"),
    "엉성하다": hada("엉성"),
    "어색하다": hada("어색"),
    "지루하다": hada("지루"),
    "뻔하다": hada("뻔"),
    "유치하다": hada("유치"),
    "실망스럽다": forms("실망스러워요|실망스러웠어요|실망스러웠다|실망스러움|실망스럽습니다|실망스럽고|실망스럽네요"),
    "최악이다": forms("최악이에요|최악이었어요|최악이었다|최악임|최악입니다|최악이고|최악이네요", "strong"),
    "허무하다": hada("허무"),
    "시끄럽다": forms("시끄러워요|시끄러웠어요|시끄러웠다|시끄러움|시끄럽습니다|시끄럽고|시끄럽네요"),
    "오글거리다": forms("오글거려요|오글거렸어요|오글거렸다|오글거림|오글거립니다|오글거리고|오글거리네요"),
    "느리다": forms("느려요|느렸어요|느렸다|느림|느립니다|느리고|느리네요"),
    "늦다": forms("늦어요|늦었어요|늦었다|늦음|늦습니다|늦고|늦네요"),
    "비싸다": forms("비싸요|비쌌어요|비쌌다|비쌈|비쌉니다|비싸고|비싸네요"),
    "약하다": hada("약"),
    "조잡하다": hada("조잡"),
    "싸구려 같다": forms("싸구려 같아요|싸구려 같았어요|싸구려 같았다|싸구려 같음|싸구려 같습니다|싸구려 같고|싸구려 같네요"),
    "불편하다": hada("불편"),
    "맛없다": forms("맛없어요|맛없었어요|맛없었다|맛없음|맛없습니다|맛없고|맛없네요"),
    "짜다": forms("짜요|짰어요|짰다|짜요|짭니다|짜고|짜네요"),
    "싱겁다": forms("싱거워요|싱거웠어요|싱거웠다|싱거움|싱겁습니다|싱겁고|싱겁네요"),
    "느끼하다": hada("느끼"),
    "적다(양)": forms("적어요|적었어요|적었다|적음|적습니다|적고|적네요"),
    "엉망이다": forms("엉망이에요|엉망이었어요|엉망이었다|엉망임|엉망입니다|엉망이고|엉망이네요", "strong"),
    "흐릿하다": hada("흐릿"),
    "자꾸 끊기다": forms("자꾸 끊겨요|자꾸 끊겼어요|자꾸 끊겼다|자꾸 끊김|자꾸 끊깁니다|자꾸 끊기고|자꾸 끊기네요", None),
    "금방 닳다": forms("금방 닳아요|금방 닳았어요|금방 닳았다|금방 닳음|금방 닳습니다|금방 닳고|금방 닳네요", None),
    "독하다": hada("독"),
    "안 맞다": forms("안 맞아요|안 맞았어요|안 맞았다|안 맞음|안 맞습니다|안 맞고|안 맞네요", None),
    "불친절하다": hada("불친절"),
    "무겁다": forms("무거워요|무거웠어요|무거웠다|무거움|무겁습니다|무겁고|무겁네요"),
    "질기다": forms("질겨요|질겼어요|질겼다|질김|질깁니다|질기고|질기네요"),
    "밋밋하다": hada("밋밋"),
    "답답하다": hada("답답"),
    "억지스럽다": forms("억지스러워요|억지스러웠어요|억지스러웠다|억지스러움|억지스럽습니다|억지스럽고|억지스럽네요"),
    "허술하다": hada("허술"),
    "산만하다": hada("산만"),
    "부실하다": hada("부실"),
    "어설프다": forms("어설퍼요|어설펐어요|어설펐다|어설픔|어설픕니다|어설프고|어설프네요"),
    "촌스럽다": forms("촌스러워요|촌스러웠어요|촌스러웠다|촌스러움|촌스럽습니다|촌스럽고|촌스럽네요"),
    "형편없다": forms("형편없어요|형편없었어요|형편없었다|형편없음|형편없습니다|형편없고|형편없네요", "strong"),
    "미지근하다": hada("미지근"),
    "눅눅하다": hada("눅눅"),
    "재미없다": forms("재미없어요|재미없었어요|재미없었다|재미없음|재미없습니다|재미없고|재미없네요"),
    "평면적이다": forms("평면적이에요|평면적이었어요|평면적이었다|평면적임|평면적입니다|평면적이고|평면적이네요"),
    "심하다": hada("심"),
    "크다(소음)": forms("커요|컸어요|컸다|큼|큽니다|크고|크네요"),
    "칙칙하다": hada("칙칙"),
    "사진이랑 다르다": forms("사진이랑 달라요|사진이랑 달랐어요|사진이랑 달랐다|사진이랑 다름|사진이랑 다릅니다|사진이랑 다르고|사진이랑 다르네요", None),
    "투박하다": hada("투박"),
    "까슬까슬하다": hada("까슬까슬", None),
    "어렵다": forms("어려워요|어려웠어요|어려웠다|어려움|어렵습니다|어렵고|어렵네요"),
    "복잡하다": hada("복잡"),
    "불안정하다": hada("불안정"),
    "역하다": hada("역"),
    "뻑뻑하다": hada("뻑뻑"),
    "안 되다": forms("잘 안 돼요|잘 안 됐어요|잘 안 됐다|잘 안 됨|잘 안 됩니다|잘 안 되고|잘 안 되네요", None),
    "안 좋다": forms("안 좋아요|안 좋았어요|안 좋았다|안 좋음|안 좋습니다|안 좋고|안 좋네요", None),
}

# 부정 표현으로 뒤집은 서술어: "~지루하다"는 '하나도/전혀 안 지루하다'(긍정),
# "~시원하다"는 '하나도/별로 안 시원하다'(부정). 뒤집히는 쪽 라벨은 측면 표에서 정한다.
NEGATORS = {1: ["하나도 안 ", "전혀 안 "], 0: ["하나도 안 ", "별로 안 "]}
# 'X지 않다' 꼴: '전혀 지루하지 않았어요'처럼 긴 부정문도 조금 섞는다 (-하다 형용사만).
LONG_NEG = {
    "yo": "지 않아요", "yo_past": "지 않았어요", "da_past": "지 않았다", "eum": "지 않음",
    "formal": "지 않습니다", "go": "지 않고", "ne": "지 않네요",
}

# ---------------------------------------------------------------------------
# 측면 표: (분야, 측면 명사, 앞에 붙을 수 있는 대상 명사들, 긍정 서술어, 부정 서술어)
# ---------------------------------------------------------------------------
MOVIE_OBJECTS = ["", "", "", "이 영화 ", "영화 ", "드라마 ", "이 드라마 ", "이번 작품 "]
ASPECTS = [
    ("movie", "스토리", MOVIE_OBJECTS, ["탄탄하다", "신선하다", "재미있다", "감동적이다", "훌륭하다", "~뻔하다"],
     ["뻔하다", "허술하다", "엉성하다", "지루하다", "유치하다", "억지스럽다", "밋밋하다", "재미없다", "~재미있다"]),
    ("movie", "줄거리", MOVIE_OBJECTS, ["탄탄하다", "신선하다", "~뻔하다"],
     ["뻔하다", "허술하다", "억지스럽다", "~신선하다"]),
    ("movie", "연기", MOVIE_OBJECTS + ["배우들 ", "주연 배우 ", "조연들 "],
     ["자연스럽다", "훌륭하다", "뛰어나다", "인상적이다", "좋다", "최고다", "완벽하다", "~어색하다"],
     ["어색하다", "어설프다", "별로다", "아쉽다", "형편없다", "오글거리다", "~자연스럽다"]),
    ("movie", "연출", MOVIE_OBJECTS, ["섬세하다", "깔끔하다", "훌륭하다", "인상적이다", "뛰어나다"],
     ["산만하다", "촌스럽다", "엉성하다", "어설프다", "아쉽다"]),
    ("movie", "음악", MOVIE_OBJECTS, ["좋다", "아름답다", "신나다", "감동적이다", "최고다"],
     ["시끄럽다", "별로다", "촌스럽다", "아쉽다"]),
    ("movie", "OST", MOVIE_OBJECTS, ["좋다", "아름답다", "최고다", "마음에 들다"], ["별로다", "촌스럽다", "아쉽다"]),
    ("movie", "영상미", MOVIE_OBJECTS, ["아름답다", "훌륭하다", "멋지다", "최고다", "인상적이다"], ["아쉽다", "별로다", "촌스럽다"]),
    ("movie", "결말", MOVIE_OBJECTS, ["완벽하다", "감동적이다", "인상적이다", "훌륭하다", "마음에 들다", "~허무하다"],
     ["허무하다", "뻔하다", "실망스럽다", "엉망이다", "억지스럽다", "아쉽다", "허술하다"]),
    ("movie", "대사", MOVIE_OBJECTS, ["좋다", "인상적이다", "재미있다", "섬세하다", "~오글거리다"],
     ["오글거리다", "유치하다", "어색하다", "촌스럽다"]),
    ("movie", "액션", MOVIE_OBJECTS, ["시원시원하다", "멋지다", "화려하다", "최고다"], ["어설프다", "밋밋하다", "지루하다", "별로다"]),
    ("movie", "캐릭터", MOVIE_OBJECTS, ["매력적이다", "멋지다", "신선하다"], ["평면적이다", "밋밋하다", "뻔하다", "유치하다"]),
    ("movie", "주인공", MOVIE_OBJECTS, ["매력적이다", "멋지다", "~답답하다"], ["답답하다", "밋밋하다", "평면적이다"]),
    ("movie", "전개", MOVIE_OBJECTS, ["빠르다", "시원시원하다", "탄탄하다", "~지루하다", "~느리다"],
     ["느리다", "답답하다", "지루하다", "뻔하다", "억지스럽다", "산만하다"]),
    ("movie", "분위기", MOVIE_OBJECTS, ["따뜻하다", "좋다", "인상적이다"], ["산만하다", "지루하다", "유치하다"]),
    ("movie", "CG", MOVIE_OBJECTS, ["훌륭하다", "자연스럽다", "멋지다", "화려하다"], ["조잡하다", "어색하다", "싸구려 같다", "촌스럽다"]),
    ("movie", "편집", MOVIE_OBJECTS, ["깔끔하다", "훌륭하다"], ["산만하다", "엉성하다", "엉망이다"]),
    ("movie", "웃음 포인트", MOVIE_OBJECTS, ["재미있다", "신선하다", "~유치하다"], ["유치하다", "억지스럽다", "뻔하다", "~재미있다"]),
    # 상품
    ("product", "배송", [""], ["빠르다", "~느리다", "~늦다"], ["느리다", "늦다", "~빠르다"]),
    ("product", "가격", ["", "", "이 제품 "], ["착하다", "저렴하다", "합리적이다", "~비싸다"], ["비싸다"]),
    ("product", "품질", ["", "", "제품 ", "이 제품 "], ["좋다", "훌륭하다", "뛰어나다", "만족스럽다", "기대 이상이다"],
     ["별로다", "형편없다", "실망스럽다", "엉망이다", "안 좋다"]),
    ("product", "디자인", ["", "이어폰 ", "가방 ", "의자 ", "시계 ", "텀블러 ", "운동화 "],
     ["예쁘다", "깔끔하다", "고급스럽다", "마음에 들다"], ["촌스럽다", "별로다", "싸구려 같다", "투박하다"]),
    ("product", "색상", ["", "원피스 ", "가방 ", "후드티 ", "커튼 "], ["예쁘다", "사진이랑 똑같다", "고급스럽다"],
     ["칙칙하다", "사진이랑 다르다", "촌스럽다"]),
    ("product", "사이즈", ["", "바지 ", "신발 ", "티셔츠 ", "원피스 ", "패딩 "], ["딱 맞다"], ["안 맞다"]),
    ("product", "착용감", ["", "운동화 ", "안경 ", "이어폰 ", "마스크 "], ["편하다", "좋다", "가볍다", "최고다", "~불편하다"],
     ["불편하다", "답답하다", "별로다", "~편하다"]),
    ("product", "치킨", [""], ["맛있다", "바삭하다", "최고다"], ["맛없다", "짜다", "느끼하다", "눅눅하다", "~맛있다"]),
    ("product", "떡볶이", [""], ["맛있다", "최고다"], ["맛없다", "짜다", "싱겁다", "~맛있다"]),
    ("product", "김치", [""], ["맛있다", "신선하다(식품)", "~짜다"], ["짜다", "싱겁다", "맛없다"]),
    ("product", "빵", [""], ["맛있다", "부드럽다", "신선하다(식품)"], ["맛없다", "눅눅하다", "~부드럽다"]),
    ("product", "국물", [""], ["맛있다", "시원하다", "~짜다"], ["짜다", "싱겁다", "느끼하다", "미지근하다"]),
    ("product", "고기", [""], ["부드럽다", "맛있다", "신선하다(식품)"], ["질기다", "맛없다", "느끼하다"]),
    ("product", "반찬", [""], ["맛있다", "깔끔하다", "푸짐하다"], ["짜다", "부실하다", "맛없다"]),
    ("product", "커피", [""], ["부드럽다", "맛있다", "최고다"], ["맛없다", "싱겁다", "밋밋하다"]),
    ("product", "양", ["", "음식 ", "도시락 ", "반찬 "], ["넉넉하다", "푸짐하다"], ["적다(양)", "부실하다"]),
    ("product", "포장", ["", "", "택배 "], ["꼼꼼하다", "깔끔하다", "튼튼하다"], ["엉망이다", "부실하다", "허술하다"]),
    ("product", "소음", ["", "청소기 ", "냉장고 ", "선풍기 ", "에어컨 ", "공기청정기 ", "세탁기 "],
     ["적다(소음)"], ["심하다", "크다(소음)"]),
    ("product", "작동 소리", ["", "청소기 ", "선풍기 ", "제습기 "], ["조용하다", "~시끄럽다"], ["시끄럽다"]),
    ("product", "배터리", ["", "노트북 ", "이어폰 ", "휴대폰 ", "무선 청소기 ", "스마트워치 "], ["오래가다"], ["금방 닳다"]),
    ("product", "화질", ["", "TV ", "모니터 ", "카메라 ", "휴대폰 ", "노트북 "], ["선명하다", "좋다", "깨끗하다", "최고다"],
     ["흐릿하다", "별로다", "안 좋다", "실망스럽다", "~선명하다"]),
    ("product", "음질", ["", "이어폰 ", "스피커 ", "헤드폰 "], ["깨끗하다", "좋다", "훌륭하다", "선명하다"],
     ["별로다", "안 좋다", "실망스럽다", "~깨끗하다"]),
    ("product", "소리", ["", "이어폰 ", "스피커 ", "헤드폰 "], ["깨끗하다", "선명하다", "빵빵하다"], ["자꾸 끊기다", "~깨끗하다"]),
    ("product", "블루투스 연결", [""], ["안정적이다"], ["자꾸 끊기다", "불안정하다"]),
    ("product", "향", ["", "샴푸 ", "향수 ", "섬유유연제 ", "바디워시 ", "핸드크림 ", "디퓨저 "],
     ["은은하다", "좋다", "고급스럽다", "~독하다"], ["독하다", "역하다"]),
    ("product", "보습력", ["", "크림 ", "로션 ", "립밤 "], ["좋다", "뛰어나다", "훌륭하다"], ["약하다", "아쉽다", "별로다"]),
    ("product", "발림성", ["", "크림 ", "선크림 ", "로션 "], ["좋다", "부드럽다"], ["별로다", "뻑뻑하다"]),
    ("product", "흡입력", ["", "청소기 ", "무선 청소기 ", "로봇청소기 "], ["강력하다", "좋다", "훌륭하다"], ["약하다", "아쉽다", "형편없다"]),
    ("product", "마감", ["", "의자 ", "책상 ", "가방 ", "옷장 "], ["깔끔하다", "꼼꼼하다", "훌륭하다"], ["조잡하다", "엉성하다", "허술하다", "엉망이다"]),
    ("product", "재질", ["", "이불 ", "티셔츠 ", "가방 ", "수건 "], ["부드럽다", "고급스럽다", "튼튼하다"],
     ["싸구려 같다", "까슬까슬하다", "~부드럽다"]),
    ("product", "조립", ["", "책상 ", "의자 ", "선반 "], ["쉽다", "간단하다"], ["어렵다", "복잡하다"]),
    ("product", "사용법", ["", "", "리모컨 "], ["쉽다", "간단하다", "~복잡하다"], ["어렵다", "복잡하다"]),
    ("product", "응대", ["", "판매자 ", "고객센터 ", "판매자분 "], ["친절하다", "빠르다", "~불친절하다"], ["불친절하다", "느리다"]),
    ("product", "무게", ["", "노트북 ", "유모차 ", "캐리어 ", "우산 "], ["가볍다", "~무겁다"], ["무겁다", "~가볍다"]),
    ("product", "보온", ["", "텀블러 ", "보온병 ", "도시락통 "], ["잘 되다"], ["안 되다"]),
    ("product", "세척", ["", "텀블러 ", "믹서기 ", "에어프라이어 "], ["쉽다", "간편하다", "~불편하다"], ["불편하다", "어렵다"]),
    ("product", "바람", ["", "선풍기 ", "에어컨 ", "드라이기 "], ["시원하다", "강력하다"], ["약하다", "미지근하다", "~시원하다"]),
    ("product", "충전 속도", ["", "휴대폰 ", "보조배터리 "], ["빠르다", "~느리다"], ["느리다"]),
    ("product", "반응 속도", ["", "노트북 ", "모니터 ", "마우스 "], ["빠르다", "~느리다"], ["느리다", "~빠르다"]),
]

OPENERS = {
    "movie": ["", "", "", "", "솔직히 ", "전체적으로 ", "개인적으로 ", "생각보다 ", "기대보다 "],
    "product": ["", "", "", "", "솔직히 ", "일단 ", "생각보다 "],
}
# 측면에 따라 더 붙일 수 있는 여는 말 ('써 보니 배송이 빨라요'처럼 어긋난 문장을 막는다)
USE_OPENERS = {
    "먹어 보니 ": {"치킨", "떡볶이", "김치", "빵", "국물", "고기", "반찬", "커피", "양"},
    "입어 보니 ": {"사이즈", "착용감", "재질", "색상"},
    "써 보니 ": {"품질", "착용감", "소음", "작동 소리", "배터리", "화질", "음질", "소리", "블루투스 연결",
                 "향", "보습력", "발림성", "흡입력", "사용법", "무게", "보온", "세척", "바람", "충전 속도", "반응 속도"},
    "받아 보니 ": {"포장", "품질", "마감", "색상", "디자인", "재질"},
}
# 두 측면 문장에서 앞에 올 수 있는 상품 측면: 어느 상품 리뷰에나 나오는 것들
GENERAL = {"배송", "가격", "품질", "포장", "응대", "디자인"}
FOOD = {"치킨", "떡볶이", "김치", "빵", "국물", "고기", "반찬", "커피", "양"}
FOOD_GENERAL = {"배송", "가격", "포장", "양"}  # 음식과 짝지을 수 있는 측면 ('품질도 좋고 떡볶이도'는 어색하다)
CLOSERS = {
    1: ["", "", "", " 추천해요", " 강추", " ㅎㅎ", " ㅋㅋ", " 만족합니다", " 좋아요"],
    0: ["", "", "", " 비추", " 실망이에요", " ㅠㅠ", " ㅡㅡ", " 후회돼요", " 별로예요"],
}
INTENSIFIERS = {
    ("full", 1): ["", "", "정말 ", "진짜 ", "너무 ", "꽤 ", "아주 "],
    ("full", 0): ["", "", "정말 ", "진짜 ", "너무 ", "꽤 ", "좀 "],
    ("strong", 1): ["", "정말 ", "진짜 "],
    ("strong", 0): ["", "정말 ", "진짜 "],
    (None, 1): [""],
    (None, 0): [""],
}
# 문체와 그 비율: 영화 리뷰는 과거형, 상품 리뷰는 현재형이 많다.
STYLES = {
    "movie": [("yo_past", 35), ("da_past", 20), ("eum_past", 15), ("formal_past", 10), ("yo", 10), ("ne", 10)],
    "product": [("yo", 40), ("formal", 12), ("eum", 15), ("yo_past", 13), ("ne", 20)],
}


def has_batchim(word: str) -> bool:
    """마지막 글자에 받침이 있으면 True (한글이 아니면 False: 'OST가', 'CG가')."""
    ch = word[-1]
    if "가" <= ch <= "힣":
        return (ord(ch) - 0xAC00) % 28 != 0
    return False


def subject(noun: str, particle: str) -> str:
    """명사에 조사를 붙인다. particle은 '이/가', '은/는', '도' 가운데 하나."""
    if particle == "도":
        return noun + "도"
    a, b = particle.split("/")
    return noun + (a if has_batchim(noun) else b)


def conjugate(pred: dict, style: str) -> str:
    if style == "eum_past":
        return pred["da_past"][:-1] + "음"
    if style == "formal_past":
        return pred["da_past"][:-1] + "습니다"
    return pred[style]


def resolve(key: str, rng: random.Random, label: int) -> tuple[dict, str] | None:
    """측면 표의 서술어 이름을 활용형 사전으로 바꾼다. '~X'는 부정으로 뒤집은 X."""
    if not key.startswith("~"):
        return (P[key], key) if key in P else None
    base = P.get(key[1:])
    if base is None:
        return None
    if rng.random() < 0.25 and base["yo"].endswith("해요") and " " not in base["yo"]:
        stem = base["go"][:-1]  # '지루하'
        out = {k: stem + v for k, v in LONG_NEG.items()}
        out["deg"] = None
        lead = "전혀 " if label == 1 else "별로 "
        out = {k: (lead + v if k != "deg" else v) for k, v in out.items()}
        return out, key
    neg = rng.choice(NEGATORS[label])
    out = {k: (neg + v if k != "deg" else None) for k, v in base.items()}
    return out, key


def sentence(rng: random.Random, domain: str, noun: str, objects: list[str], label: int, key: str) -> str | None:
    got = resolve(key, rng, label)
    if got is None:
        return None
    pred, _ = got
    styles, weights = zip(*STYLES[domain])
    style = rng.choices(styles, weights=weights)[0]
    verb = conjugate(pred, style)
    intens = rng.choice(INTENSIFIERS[(pred["deg"], label)])
    obj = rng.choice(objects)
    openers = OPENERS[domain] + [o for o, nouns in USE_OPENERS.items() if noun in nouns]
    opener = rng.choice(openers)
    if opener == "생각보다 " and intens in ("너무 ", "아주 "):
        intens = ""
    particle = "은/는" if rng.random() < 0.2 else "이/가"
    text = f"{opener}{obj}{subject(noun, particle)} {intens}{verb}"
    return add_closer(rng, text, label)


def add_closer(rng: random.Random, text: str, label: int) -> str:
    """맺는 말(추천/비추, ㅎㅎ/ㅠㅠ ...)을 붙인다. 같은 말이 되풀이되면 붙이지 않는다."""
    closer = rng.choice(CLOSERS[label])
    if closer and closer.strip()[:2] in text:
        closer = ""
    if closer.strip() in ("ㅎㅎ", "ㅋㅋ", "ㅠㅠ", "ㅡㅡ", "강추", "비추"):
        text += closer
    elif closer:
        text += "." + closer
    elif rng.random() < 0.4:
        text += "."
    return " ".join(text.split())


def pair_sentence(rng: random.Random, domain: str, a: tuple, b: tuple, label: int) -> str | None:
    """'스토리도 탄탄하고 연기도 자연스러웠어요'처럼 두 측면을 같은 극성으로 잇는 문장."""
    (noun_a, key_a), (noun_b, key_b) = a, b
    ga, gb = resolve(key_a, rng, label), resolve(key_b, rng, label)
    if ga is None or gb is None:
        return None
    styles, weights = zip(*STYLES[domain])
    style = rng.choices(styles, weights=weights)[0]
    text = f"{noun_a}도 {ga[0]['go']} {noun_b}도 {conjugate(gb[0], style)}"
    return add_closer(rng, text, label)


def normalize(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def read_handwritten() -> list[dict]:
    with open(HERE / "handwritten.tsv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    return [dict(text=normalize(r["text"]), label=int(r["label"]), domain=r["domain"], source="hand") for r in rows]


def generate_templates(rng: random.Random, quota: dict, seen: set) -> list[dict]:
    """(분야, 라벨)마다 quota만큼 템플릿 문장을 만든다. 그룹 = 측면+서술어."""
    out = []
    for (domain, label), n in sorted(quota.items()):
        combos = []
        for dom, noun, objects, pos, neg in ASPECTS:
            if dom != domain:
                continue
            for key in (pos if label == 1 else neg):
                if key.lstrip("~") in P:
                    combos.append((noun, objects, key))
        singles = []
        for noun, objects, key in combos:
            singles.append((noun, objects, key))
        made = 0
        n_pairs = n // 6
        tries = 0
        # 두 측면 문장
        while made < n_pairs and tries < 100_000:
            tries += 1
            (na, _, ka), (nb, _, kb) = rng.sample(combos, 2)
            if na == nb or ka.lstrip("~") == kb.lstrip("~"):
                continue
            if domain == "product" and (na not in GENERAL or (nb in FOOD and na not in FOOD_GENERAL)):
                if not (na in FOOD_GENERAL and nb in FOOD):
                    continue
            text = pair_sentence(rng, domain, (na, ka), (nb, kb), label)
            if text and text not in seen:
                seen.add(text)
                group = f"{domain}|{label}|{min(na, nb)}+{max(na, nb)}"
                out.append(dict(text=text, label=label, domain=domain, source="template", group=group))
                made += 1
        # 한 측면 문장: 조합을 돌아가며 고르게
        order = list(range(len(singles)))
        while made < n and tries < 200_000:
            rng.shuffle(order)
            for i in order:
                tries += 1
                noun, objects, key = singles[i]
                text = sentence(rng, domain, noun, objects, label, key)
                if text and text not in seen:
                    seen.add(text)
                    out.append(dict(text=text, label=label, domain=domain, source="template",
                                    group=f"{domain}|{label}|{noun}|{key}"))
                    made += 1
                if made >= n:
                    break
        assert made == n, (domain, label, made, n)
    return out


def grouped_split(rows: list[dict], rng: random.Random) -> dict[str, list[dict]]:
    """라벨·출처별로 그룹을 섞어 test, validation을 먼저 채우고 나머지를 train에 둔다."""
    split = {name: [] for name in FRACTIONS}
    strata = defaultdict(lambda: defaultdict(list))
    for r in rows:
        strata[(r["label"], r["source"], r["domain"])][r["group"]].append(r)
    for key in sorted(strata):
        groups = strata[key]
        names = sorted(groups)
        rng.shuffle(names)
        total = sum(len(groups[g]) for g in names)
        targets = {"test": round(total * FRACTIONS["test"]), "validation": round(total * FRACTIONS["validation"])}
        filled = {"test": 0, "validation": 0}
        for g in names:
            dest = "train"
            for name in ("test", "validation"):
                if filled[name] + len(groups[g]) <= targets[name] + 1 and filled[name] < targets[name]:
                    dest = name
                    break
            if dest != "train":
                filled[dest] += len(groups[g])
            split[dest].extend(groups[g])
    for name in split:
        rng.shuffle(split[name])
    return split


def build() -> dict[str, list[dict]]:
    """손으로 쓴 문장 + 템플릿 문장을 모아 중복을 없애고 세 분할로 나눕니다 (파일은 쓰지 않음)."""
    rng = random.Random(SEED)
    hand = read_handwritten()
    texts = [r["text"] for r in hand]
    assert len(texts) == len(set(texts)), "handwritten.tsv에 중복 문장이 있습니다"
    for i, r in enumerate(hand):
        r["group"] = f"hand{i}"
    seen = set(texts)
    count = Counter((r["domain"], r["label"]) for r in hand)
    quota = {}
    for label in (0, 1):
        need = PER_LABEL - count[("movie", label)] - count[("product", label)]
        quota[("movie", label)] = need // 2
        quota[("product", label)] = need - need // 2
    rows = hand + generate_templates(rng, quota, seen)
    assert Counter(r["label"] for r in rows) == {0: PER_LABEL, 1: PER_LABEL}
    assert len({r["text"] for r in rows}) == len(rows)
    return grouped_split(rows, rng)


COLUMNS = ["text", "label", "domain", "source"]


def main() -> None:
    split = build()
    for name, part in split.items():
        with open(HERE / f"{name}.tsv", "w", encoding="utf-8", newline="") as f:
            w = csv.writer(f, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE)
            w.writerow(COLUMNS)
            for r in part:
                w.writerow([r[c] for c in COLUMNS])
        c = Counter((r["label"], r["source"]) for r in part)
        print(f"{name:>10}: {len(part):5d}  positive {sum(v for (l, _), v in c.items() if l == 1):4d}"
              f"  negative {sum(v for (l, _), v in c.items() if l == 0):4d}"
              f"  hand {sum(v for (_, s), v in c.items() if s == 'hand'):4d}"
              f"  template {sum(v for (_, s), v in c.items() if s == 'template'):4d}")


if __name__ == "__main__":
    main()
