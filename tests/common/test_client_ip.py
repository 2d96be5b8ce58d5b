"""The client's address (common/client_ip.py): REMOTE_ADDR unless a trusted proxy's header is
configured; never a header a client can forge; malformed values fall back, never crash."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import reverse

from common.client_ip import UNKNOWN, client_ip, client_network, parse_address
from registrations.models import Registration
from tests.conftest import registration_form

PROXY = "127.0.0.1"  # nginx on the same machine: the peer of every request
MALFORMED = [
    "a, b",
    "1.2.3.4, 5.6.7.8",
    "unknown",
    "",
    " ",
    "1.2.3.4\x00",
    "\x00",
    "1.2.3.4:8080",
    "[2001:db8::1]",
    "999.1.1.1",
    "1.2.3.4/24",
    "x" * 5000,
    "<script>",
]


def request_with(**meta: str):  # type: ignore[no-untyped-def]
    request = RequestFactory().get("/")
    request.META.update(meta)
    return request


@pytest.mark.parametrize(
    "value, expected",
    [
        ("203.0.113.5", "203.0.113.5"),
        (" 203.0.113.5 ", "203.0.113.5"),
        ("2001:DB8::1", "2001:db8::1"),
        ("::ffff:203.0.113.5", "203.0.113.5"),
        ("fe80::1%eth0", "fe80::1"),
        *((value, None) for value in MALFORMED),
        (None, None),
    ],
)
def test_parse_address(value, expected):
    assert parse_address(value) == expected


def test_without_a_trusted_proxy_headers_are_ignored(settings):
    settings.TRUSTED_PROXY_HEADER = ""
    request = request_with(
        REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR="10.0.0.1", HTTP_X_REAL_IP="10.0.0.2"
    )
    assert client_ip(request) == "198.51.100.7"


@pytest.mark.parametrize("name", ["HTTP_X_REAL_IP", "X-Real-IP", "x_real_ip"])
def test_the_trusted_proxy_header_is_read(settings, name):
    settings.TRUSTED_PROXY_HEADER = name
    request = request_with(
        REMOTE_ADDR=PROXY, HTTP_X_REAL_IP="203.0.113.5", HTTP_X_FORWARDED_FOR="10.0.0.1"
    )
    assert client_ip(request) == "203.0.113.5"


@pytest.mark.parametrize("value", MALFORMED)
def test_a_malformed_trusted_header_falls_back_to_remote_addr(settings, value):
    settings.TRUSTED_PROXY_HEADER = "HTTP_X_REAL_IP"
    assert client_ip(request_with(REMOTE_ADDR=PROXY, HTTP_X_REAL_IP=value)) == PROXY


def test_a_missing_trusted_header_falls_back_to_remote_addr(settings):
    settings.TRUSTED_PROXY_HEADER = "HTTP_X_REAL_IP"
    request = request_with(REMOTE_ADDR=PROXY)
    request.META.pop("HTTP_X_REAL_IP", None)
    assert client_ip(request) == PROXY


@pytest.mark.parametrize("remote", ["", "unknown", None])
def test_no_usable_address_at_all_is_one_shared_bucket(settings, remote):
    settings.TRUSTED_PROXY_HEADER = ""
    request = request_with()
    if remote is None:
        del request.META["REMOTE_ADDR"]
    else:
        request.META["REMOTE_ADDR"] = remote
    assert client_ip(request) == UNKNOWN


def test_ipv6_clients_are_keyed_by_their_64_network(settings):
    settings.TRUSTED_PROXY_HEADER = ""
    one = request_with(REMOTE_ADDR="2001:db8:1:2:aaaa::1")
    other = request_with(REMOTE_ADDR="2001:db8:1:2:bbbb::9")
    assert client_network(one) == client_network(other) == "2001:db8:1:2::"
    assert client_network(request_with(REMOTE_ADDR="203.0.113.5")) == "203.0.113.5"


# --- Through the rate limiter of a public form -----------------------------------------------
@pytest.fixture
def limited(settings):  # type: ignore[no-untyped-def]
    settings.RATELIMIT_ENABLE = True
    settings.REGISTRATIONS_PER_ADDRESS = "3/m"  # registrations made, per address


def post_registration(client, tournament, i: int, **meta: str):  # type: ignore[no-untyped-def]
    url = reverse("registrations:register", args=[tournament.slug])
    return client.post(url, registration_form(email=f"p{i}@example.org"), **meta)


@pytest.mark.django_db
@pytest.mark.parametrize("trusted", ["", "HTTP_X_REAL_IP"])
@pytest.mark.parametrize("value", MALFORMED)
def test_malformed_headers_never_give_a_server_error(
    client, tournament, limited, settings, trusted, value
):
    settings.TRUSTED_PROXY_HEADER = trusted
    response = post_registration(
        client, tournament, 0, HTTP_X_FORWARDED_FOR=value, HTTP_X_REAL_IP=value
    )
    assert response.status_code == 302
    assert Registration.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("trusted", ["", "HTTP_X_REAL_IP"])
def test_a_new_forwarded_for_per_request_does_not_reset_the_limit(
    client, tournament, limited, settings, trusted
):
    """The bypass of the README's former advice: behind nginx (X-Real-IP set by the proxy)
    or without a proxy, the client's X-Forwarded-For changes nothing."""
    settings.TRUSTED_PROXY_HEADER = trusted
    meta = {"REMOTE_ADDR": PROXY if trusted else "203.0.113.5"}
    if trusted:
        meta["HTTP_X_REAL_IP"] = "203.0.113.5"  # what nginx writes, whatever the client sent
    codes = [
        post_registration(
            client, tournament, i, HTTP_X_FORWARDED_FOR=f"10.0.{i}.1", **meta
        ).status_code
        for i in range(6)
    ]
    assert codes == [302, 302, 302, 429, 429, 429]
    assert Registration.objects.count() == 3


@pytest.mark.django_db
def test_behind_the_proxy_each_visitor_has_their_own_limit(client, tournament, limited, settings):
    settings.TRUSTED_PROXY_HEADER = "HTTP_X_REAL_IP"
    first = [
        post_registration(
            client, tournament, i, REMOTE_ADDR=PROXY, HTTP_X_REAL_IP="203.0.113.5"
        ).status_code
        for i in range(4)
    ]
    other = post_registration(
        client, tournament, 9, REMOTE_ADDR=PROXY, HTTP_X_REAL_IP="198.51.100.7"
    )
    assert first == [302, 302, 302, 429] and other.status_code == 302
