"""Small responses every app's pages use."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse, JsonResponse


def text_download(text: str, name: str) -> HttpResponse:
    """A UTF-8 text file to save (TRF, game records)."""
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def version_json(rows: Any) -> JsonResponse:
    """``{"version": n}`` of the one row of ``rows`` (a queryset), or 404: what a live page
    polls to know when to reload."""
    value = rows.values_list("version", flat=True).first()
    if value is None:
        raise Http404
    return JsonResponse({"version": value})
