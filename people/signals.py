"""What the people app tells the apps above it (it imports none of them)."""

from django.dispatch import Signal

#: Sent after the commit of a merge, a split or their undoing, with ``person_ids``: the
#: people whose rows changed. The championship recomputes the ratings (they follow people).
people_changed = Signal()
