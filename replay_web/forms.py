"""The viewer's form base, typed: Flask-WTF ships no type information (no
``py.typed``, no stubs package) while WTForms has its stubs
(``types-WTForms``, in the test extra).

At run time :class:`FlaskForm` is Flask-WTF's own. For the type check it is
a WTForms :class:`~wtforms.Form` (Flask-WTF's base) with the one method of
Flask-WTF's that the viewer calls, so the forms and their fields are typed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from wtforms import Form

    class FlaskForm(Form):
        def validate_on_submit(self, extra_validators: Mapping[str, Sequence[Any]] | None = None) -> bool:
            """The request is a submit (POST, PUT, PATCH, DELETE) and the form validates."""
            ...

else:
    from flask_wtf import FlaskForm

__all__ = ["FlaskForm"]
