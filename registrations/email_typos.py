"""A likely typo in an e-mail address's domain ("elena@gmial.com"): the address the person
probably meant ("elena@gmail.com"), for the forms to ask about. Pure: no Django, no network.
An unknown domain is never refused; only one a letter or two from a common one is asked about.
"""

from __future__ import annotations

#: The common mail domains of the club's players (Toronto; Russian- and English-speaking):
#: a domain one or two edits from one of these is probably a typo of it.
COMMON = (
    "gmail.com",
    "yahoo.com",
    "yahoo.ca",
    "hotmail.com",
    "hotmail.ca",
    "outlook.com",
    "live.com",
    "live.ca",
    "icloud.com",
    "rogers.com",
    "sympatico.ca",
    "bell.net",
    "shaw.ca",
    "telus.net",
    "yandex.ru",
    "yandex.com",
    "mail.ru",
    "inbox.ru",
    "list.ru",
    "rambler.ru",
    "protonmail.com",
)

#: Real domains close to a common one, never "corrected" (ya.ru is Yandex's, mail.com a
#: provider of its own…).
KNOWN = frozenset(
    {
        *COMMON,
        "ya.ru",
        "bk.ru",
        "me.com",
        "mac.com",
        "mail.com",
        "gmx.com",
        "gmx.net",
        "aol.com",
        "msn.com",
        "live.ru",
        "yahoo.co.uk",
        "yahoo.fr",
        "hotmail.fr",
        "inbox.com",
        "hotmail.co.uk",
        "yandex.ua",
        "yandex.by",
        "yandex.kz",
        "proton.me",
        "pm.me",
        "googlemail.com",
        "cogeco.ca",
        "utoronto.ca",
        "mail.utoronto.ca",
    }
)


def distance(a: str, b: str) -> int:
    """The edits (a letter inserted, removed, replaced, or two neighbours swapped) from ``a``
    to ``b``: the optimal string alignment distance."""
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, start=1):
        row = [i]
        for j, cb in enumerate(b, start=1):
            cost = 0 if ca == cb else 1
            best = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                best = min(best, rows[i - 2][j - 2] + 1)
            row.append(best)
        rows.append(row)
    return rows[-1][-1]


def suggestion(email: str) -> str | None:
    """The address meant if ``email``'s domain looks like a typo of a common one (one edit
    away, or two for a domain of more than six letters); None otherwise (a known or an unknown
    domain, an address without a domain)."""
    local, at, domain = email.strip().rpartition("@")
    domain = domain.lower()
    if not at or not local or not domain or domain in KNOWN:
        return None
    allowed = 1 if len(domain) <= 6 else 2
    found = min(COMMON, key=lambda common: (distance(domain, common), COMMON.index(common)))
    if distance(domain, found) > allowed:
        return None
    return f"{local}@{found}"
