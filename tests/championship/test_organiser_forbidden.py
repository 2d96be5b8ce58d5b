"""Issue 11, point 6: forbidden pairs (family, same club, other) edited on the organisers'
pages and obeyed by the pairing."""

from __future__ import annotations

import pytest

from championship import services
from championship.models import ForbiddenPair
from tests.championship.organiser import make
from tests.games.helpers import organiser_client

pytestmark = pytest.mark.django_db


def test_forbidden_pairs_are_added_with_a_reason_obeyed_and_removed() -> None:
    t = make(n=4, rounds=3)
    org, _user = organiser_client()
    url = f"/t/{t.slug}/manage/forbidden-pairs/"
    p1, p3 = t.entrants.get(name="P1"), t.entrants.get(name="P3")
    response = org.post(
        url,
        {"action": "add", "first": p1.pk, "second": p3.pk, "kind": "family", "reason": "brothers"},
        follow=True,
    )
    assert "P1 and P3 will not be paired" in response.content.decode()
    pair = ForbiddenPair.objects.get()
    assert (pair.kind, pair.reason) == ("family", "brothers")
    assert "family" in org.get(url).content.decode()
    # Round 1 would pair 1-3 (top half against bottom half): not any more.
    rnd = services.round_pair_next(tournament=t)
    met = {frozenset((b.white_id, b.black_id)) for b in rnd.boards.all()}
    assert frozenset((p1.pk, p3.pk)) not in met
    response = org.post(url, {"action": "remove", "pair": pair.pk}, follow=True)
    assert "may meet again" in response.content.decode()
    assert not ForbiddenPair.objects.exists()


@pytest.mark.parametrize(
    "changes",
    [
        {"second": "SAME"},
        {"kind": "enemies"},
        {"first": "abc"},
        {"second": "99999"},
        {"reason": "x" * 101},
    ],
)
def test_a_wrong_pair_is_refused(changes: dict[str, str]) -> None:
    t = make(n=4)
    org, _user = organiser_client()
    p1, p2 = t.entrants.get(name="P1"), t.entrants.get(name="P2")
    data = {"action": "add", "first": p1.pk, "second": p2.pk, "kind": "club", "reason": ""}
    data.update({k: (p1.pk if v == "SAME" else v) for k, v in changes.items()})
    response = org.post(f"/t/{t.slug}/manage/forbidden-pairs/", data)
    assert response.status_code == 400
    assert not ForbiddenPair.objects.exists()


def test_the_same_pair_twice_is_refused() -> None:
    t = make(n=4)
    p1, p2 = t.entrants.get(name="P1"), t.entrants.get(name="P2")
    services.forbidden_pair_add(tournament=t, first=p1, second=p2, kind="club")
    with pytest.raises(services.ChampionshipError, match="already"):
        services.forbidden_pair_add(tournament=t, first=p2, second=p1, kind="family")
