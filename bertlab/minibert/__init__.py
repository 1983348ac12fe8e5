"""번들 한국어 미니 BERT를 만든 공장 (부록 '번들 한국어 미니 BERT'와 재현 명령이 씁니다. 장(chapter)은 쓰지 않습니다).

모듈 지도 (만드는 순서대로):

- `corpus`: 말뭉치 모으기. Debian 한국어 문서(`apt-get download` + `dpkg -x`)와 프로젝트가 쓴 글을 정제하고
  중복을 없앤 뒤 학습/held-out으로 나눕니다.
- `templates`: 손으로 쓴 재료(`assets/text/templates_ko.json`)를 일상 문단으로 불려 주는 생성기.
- `tokenizer`: WordPiece 어휘 학습(한글 2,350자와 동음이의어를 어휘에 지키는 규칙 포함).
- `pretrain`: MLM + NSP 사전학습 루프(체크포인트에서 이어 하기)와 내보내기. ``python -m bertlab.minibert.pretrain all``.
- `acceptance`: 일상 문장의 어절 하나를 가린 fill-mask 수용 시험(이슈 20; 재학습 전에 쓴 `assets/text/fillmask_acceptance_ko.tsv`).
- `modelcard`: 내보낸 모델을 다시 재서 `metrics.json`과 모델 카드(README.md)를 씁니다. ``python -m bertlab.minibert.modelcard``.

동음이의어의 뜻 통계는 장들도 쓰므로 가르치는 쪽(`bertlab.senses`)에, 번들 글 읽기는 `bertlab.data`에 있습니다.
"""

from .. import lazy_submodules

_SUBMODULES = {"corpus", "templates", "tokenizer", "pretrain", "modelcard", "acceptance"}
__getattr__ = lazy_submodules(__name__, _SUBMODULES, globals())
