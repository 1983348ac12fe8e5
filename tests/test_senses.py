"""bertlab.senses: 문장을 묶어(batch_size) 계산한 뜻 벡터가 한 문장씩 계산한 것과 같고, 순열 p값도 같다(5장이 묶어서 씀)."""
from __future__ import annotations

import bertlab as bl


def test_sense_vectors_batched_equals_one_by_one():
    tok, model = bl.load_bert("mini", quiet=True)
    rows = bl.data.read_senses("eval")[:40]
    a = bl.senses.sense_vectors(model, tok, rows)
    b = bl.senses.sense_vectors(model, tok, rows, batch_size=16)
    assert [(x.word, x.sense, x.next_id) for x in a] == [(y.word, y.sense, y.next_id) for y in b]
    assert max(float((x.layers - y.layers).abs().max()) for x, y in zip(a, b)) < 1e-5
    assert bl.senses.sense_gap_p_values(a) == bl.senses.sense_gap_p_values(b)
