"""The keeper page's forms as a browser without the page's script posts them: each button's
fields in the form's order (the HTML form's data set, for the fields the page uses), so a
test can press every button of a rendered page without a browser."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Field:
    tag: str  # input, select, button
    attrs: dict[str, str]
    options: list[list[object]] = field(default_factory=list)  # a select's: value, selected
    text: str = ""  # a button's

    @property
    def name(self) -> str:
        return self.attrs.get("name", "")

    @property
    def disabled(self) -> bool:
        return "disabled" in self.attrs

    @property
    def label(self) -> str:
        """A button's accessible name: its aria-label, else its text."""
        return self.attrs.get("aria-label") or " ".join(self.text.split())


@dataclass
class Form:
    attrs: dict[str, str]
    fields: list[Field] = field(default_factory=list)

    @property
    def key(self) -> str:
        return self.attrs.get("data-form", "")

    def buttons(self) -> list[Field]:
        return [f for f in self.fields if f.tag == "button"]

    def pressed(
        self, button: Field, typed: dict[str, str | list[str]] | None = None
    ) -> list[tuple[str, str]]:
        """The fields posted when ``button`` is pressed. ``typed`` gives what is typed in
        (or picked from) the fields of a name: a value for each, or a list of values, one
        for each field of that name in order; ``check``: the values of the boxes checked."""
        typed = typed or {}
        checks = set(str(typed.get("check", "")).split())
        count: dict[str, int] = {}
        pairs = []
        for one in self.fields:
            if not one.name or (one.disabled and one is not button):
                continue  # (a disabled button's words: what it would post, enabled)
            kind = one.attrs.get("type", "text")
            if one.tag == "button":
                if one is button:
                    pairs.append((one.name, one.attrs.get("value", "")))
                continue
            if kind == "checkbox":
                if one.attrs.get("value") in checks:
                    pairs.append((one.name, one.attrs["value"]))
                continue
            if kind == "hidden":
                pairs.append((one.name, one.attrs.get("value", "")))
                continue
            if one.tag == "select":
                chosen = [v for v, selected in one.options if selected] or [one.options[0][0]]
                default = str(chosen[0])
            else:
                default = one.attrs.get("value", "")
            at = count[one.name] = count.get(one.name, -1) + 1
            given = typed.get(one.name)
            value = given[at] if isinstance(given, list) else given
            pairs.append((one.name, default if value is None else value))
        return pairs


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: Field | None = None
        self.option: list[object] | None = None  # value (None: its text), selected
        self.button: Field | None = None

    def handle_starttag(self, tag: str, given: list[tuple[str, str | None]]) -> None:
        attrs = {k: v or "" for k, v in given}
        if tag == "form":
            self.form = Form(attrs)
            self.forms.append(self.form)
        elif self.form is None:
            return
        elif tag in ("input", "select", "button"):
            found = Field(tag, attrs)
            self.form.fields.append(found)
            self.select = found if tag == "select" else self.select
            self.button = found if tag == "button" else None
        elif tag == "option" and self.select is not None:
            self.option = [attrs.get("value"), "selected" in attrs]
            self.select.options.append(self.option)

    def handle_data(self, data: str) -> None:
        if self.button is not None:
            self.button.text += data
        if self.option is not None and not isinstance(self.option[0], str):
            self.option[0] = data.strip()  # an option without a value: its text

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None
        elif tag == "option":
            self.option = None
        elif tag == "button":
            self.button = None


def forms(html: str) -> list[Form]:
    """The forms of a page, in its order."""
    found = _Forms()
    found.feed(html)
    return found.forms
