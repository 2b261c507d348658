"""Reads back what the replay page shows, from Chromium's dump of its DOM (tests only)."""

from html.parser import HTMLParser
from typing import Dict, List, Optional


class Element:
    """A tag with its attributes and the text directly or indirectly inside it."""

    def __init__(self, tag: str, attrs: Dict[str, str]) -> None:
        self.tag, self.attrs, self.text = tag, attrs, ""

    @property
    def classes(self) -> List[str]:
        return self.attrs.get("class", "").split()


class PageDom(HTMLParser):
    """All elements of a dumped page, in document order, with their text."""

    VOID = {"meta", "br", "input", "img", "link", "hr"}

    def __init__(self, text: str) -> None:
        super().__init__()
        self.elements: List[Element] = []
        self._open: List[Element] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        el = Element(tag, {k: v or "" for k, v in attrs})
        self.elements.append(el)
        if tag not in self.VOID:
            self._open.append(el)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.elements.append(Element(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            if self._open.pop().tag == tag:
                break

    def handle_data(self, data: str) -> None:
        for el in self._open:
            el.text += data

    def by_id(self, ident: str) -> Optional[Element]:
        return next((e for e in self.elements if e.attrs.get("id") == ident), None)

    def body(self) -> Element:
        return next(e for e in self.elements if e.tag == "body")

    def board_cells(self) -> Dict[tuple, Element]:
        """(x, y) -> the element drawn for that cell of the board."""
        return {(int(e.attrs["data-x"]), int(e.attrs["data-y"])): e
                for e in self.elements if "data-x" in e.attrs}
