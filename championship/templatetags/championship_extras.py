from typing import Any

from django import template

register = template.Library()


@register.filter
def get_item(mapping: Any, key: str) -> Any:
    try:
        return mapping.get(key, "")
    except AttributeError:
        return ""
