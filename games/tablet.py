"""The signed link of a board's tablet and its QR code.

A tablet at the board opens the game's clock and entry page with no account: its link carries
the game's id signed with the secret key (``django.core.signing`` with a salt of its own, so no
other signed value of the site passes for it). The link says which game it is for; whether it
still works (the round published and not closed, the game not finished) is checked at every
request (``selectors.tablet_refusal``)."""

from __future__ import annotations

import re

import qrcode
import qrcode.image.svg
from django.core import signing
from django.urls import reverse

from common.converters import posted_id

SALT = "games.tablet"


def token_for(game_id: int) -> str:
    return signing.Signer(salt=SALT).sign(str(game_id))


def game_of(token: str) -> int | None:
    """The game id the token was signed for (None: tampered or not a tablet's token)."""
    try:
        value = signing.Signer(salt=SALT).unsign(token)
    except signing.BadSignature:
        return None
    return posted_id(value)


def path_for(game_id: int) -> str:
    return reverse("games:tablet", kwargs={"pk": game_id, "token": token_for(game_id)})


def qr_svg(url: str) -> str:
    """The QR code of ``url`` as inline SVG (scaled by CSS; no id, so a page holds many)."""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(url)
    image = code.make_image(image_factory=qrcode.image.svg.SvgPathImage)
    svg: str = image.to_string(encoding="unicode")
    svg = svg.replace(' id="qr-path"', "")
    svg = re.sub(r'<svg width="[^"]*" height="[^"]*"', '<svg class="qr" role="img"', svg, count=1)
    return svg
