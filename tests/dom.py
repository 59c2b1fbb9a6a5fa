"""HTML read back by the standard library's parser: :func:`parse` gives a tree of
:class:`Node` to find elements in by tag, class and attributes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()

    def all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Node]:
        """Elements by tag, class and attributes (``data_cents`` for ``data-cents``)."""
        wanted = {k.replace("_", "-"): v for k, v in attrs.items()}
        return [
            n
            for n in self.walk()
            if (tag is None or n.tag == tag)
            and (cls is None or cls in n.attrs.get("class", "").split())
            and all(n.attrs.get(k) == v for k, v in wanted.items())
        ]

    def one(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Node:
        found = self.all(tag, cls, **attrs)
        assert len(found) == 1, f"{len(found)} elements match {tag} {cls} {attrs}"
        return found[0]


class Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if any(n.tag == tag for n in self.stack[1:]):
            while self.stack.pop().tag != tag:
                pass

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(page: str) -> Node:
    tree = Tree()
    tree.feed(page)
    tree.close()
    return tree.root


def points_of(polyline: Node) -> list[tuple[float, float]]:
    return [
        (float(x), float(y)) for x, y in (p.split(",") for p in polyline.attrs["points"].split())
    ]
