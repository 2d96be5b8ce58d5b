"""common.html.json_script gives exactly what Django's json_script filter gives."""

from __future__ import annotations

from typing import Any

from django.utils.html import json_script as django_json_script
from hypothesis import given
from hypothesis import strategies as st

from common.html import json_script

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(values, st.text(min_size=1, max_size=20))
def test_the_same_as_djangos(value: Any, element_id: str) -> None:
    assert json_script(value, element_id) == django_json_script(value, element_id)


def test_markup_in_values_cannot_close_the_script() -> None:
    out = json_script({"name": "</script><script>alert(1)</script> & <!--"}, "x")
    assert out.count("</script>") == 1
    assert "<!--" not in out and "&" not in out.replace("&quot;", "")
