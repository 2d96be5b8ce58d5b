"""The person behind a registration: a registration whose address is confirmed joins the
person of the earlier registrations confirmed under the same address (any case). Done as a
merge of people (``people.services``), recorded as a *match* and undoable like any merge."""

from __future__ import annotations

from people.models import PersonChange
from people.names import name_key
from people.services import person_merge

from ..models import Registration


def registration_person_match(*, registration: Registration) -> PersonChange | None:
    """Give a confirmed registration the person of the other confirmed registrations under
    its address. When an organiser has split those into several people (an address a family
    shares), the one of the same name is taken, and none if no name fits: the organisers'
    list of likely duplicates shows it then. Returns the match, or None."""
    if registration.email_confirmed_at is None or registration.anonymised_at is not None:
        return None
    others = (
        Registration.objects.filter(
            email__iexact=registration.email,
            email_confirmed_at__isnull=False,
            anonymised_at__isnull=True,
        )
        .exclude(pk=registration.pk)
        .select_related("person")
        .order_by("created_at", "pk")
    )
    persons = {r.person_id: r.person for r in others}
    if registration.person_id in persons or not persons:
        return None
    if len(persons) > 1:
        same = [p for p in persons.values() if name_key(p.name) == name_key(registration.name)]
        if len(same) != 1:
            return None
        target = same[0]
    else:
        target = next(iter(persons.values()))
    change = person_merge(kept=target, merged=registration.person, kind=PersonChange.Kind.MATCH)
    registration.refresh_from_db(fields=["person"])
    return change
