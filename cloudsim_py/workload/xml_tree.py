"""A small XML tree that remembers where each element is (line and path), read with expat in
bounded time and memory, and errors naming file, line, element path and attribute. Shared by
the cloud inputs written in XML: Haizea's lease files (:mod:`~cloudsim_py.workload.lwf`) and
Pegasus DAX workflows (:mod:`~cloudsim_py.workload.dax`)."""

from __future__ import annotations

from typing import Callable, TypeVar
from xml.parsers import expat

import attrs

from ..errors import TraceError

#: deepest nesting of elements read (an LWF file needs 7, a DAX file 3); deeper is an error
#: naming the line, before a recursion limit or memory is reached
MAX_XML_DEPTH = 64
T = TypeVar("T")


def shown(text: str, limit: int = 40) -> str:
    """``repr(text)`` cut to ``limit`` characters, so that a message never echoes a
    5,000-digit number or a megabyte attribute whole."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


@attrs.define(slots=True, eq=False)
class Element:
    """An element: its tag, attributes, line and path (``a/b[2]/c``), and its child elements."""

    tag: str
    attrib: dict[str, str]
    line: int
    path: str
    children: list["Element"] = attrs.field(factory=list)

    def findall(self, tag: str) -> list["Element"]:
        return [c for c in self.children if c.tag == tag]

    def find(self, tag: str) -> "Element | None":
        for c in self.children:
            if c.tag == tag:
                return c
        return None


def parse_xml(path: str, text: str, document: str = "an LWF file", needs: int = 7) -> Element:
    """Parse ``text`` (of ``path``, a ``document`` whose elements nest at most ``needs`` deep)
    with expat, keeping each element's line and path. O(size of the file): siblings are counted
    by tag as they come; elements nested deeper than :data:`MAX_XML_DEPTH` and entity
    declarations (``document`` has none; they are how a small file expands into a huge one) are
    TraceErrors naming the line."""
    stack: list[tuple[Element, dict[str, int]]] = []     # open elements, their children by tag
    root: list[Element] = []
    parser = expat.ParserCreate()

    def start(tag: str, attrib: dict[str, str]) -> None:
        line = parser.CurrentLineNumber
        if len(stack) >= MAX_XML_DEPTH:
            raise TraceError(f"{path}:{line}: <{tag}>: elements nested more than {MAX_XML_DEPTH} deep "
                             f"({document} needs at most {needs})")
        if stack:
            parent, seen = stack[-1]
            n = seen[tag] = seen.get(tag, 0) + 1
            el = Element(tag, attrib, line, f"{parent.path}/{tag}[{n}]")
            parent.children.append(el)
        else:
            el = Element(tag, attrib, line, tag)
            root.append(el)
        stack.append((el, {}))

    def end(tag: str) -> None:
        stack.pop()

    def entity(name: str, *_: object) -> None:
        raise TraceError(f"{path}:{parser.CurrentLineNumber}: entity declaration {name!r}: {document} "
                         "declares no entities")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.EntityDeclHandler = entity
    try:
        parser.Parse(text, True)
    except expat.ExpatError as err:
        raise TraceError(f"{path}:{err.lineno}: malformed XML: {expat.ErrorString(err.code)}") from None
    return root[0]


class Located:
    """Builds TraceErrors that name file, line, element path and attribute, and reads
    attributes through converters whose ValueError becomes such an error."""

    def __init__(self, path: str):
        self.path = path

    def error(self, el: Element, message: str) -> TraceError:
        return TraceError(f"{self.path}:{el.line}: <{el.path}>: {message}")

    def optional(self, el: Element, key: str, convert: Callable[[str], T]) -> T | None:
        text = el.attrib.get(key)
        if text is None:
            return None
        try:
            return convert(text)
        except ValueError as err:
            raise self.error(el, f"attribute {key!r} = {shown(text)} is invalid ({err})") from None

    def attr(self, el: Element, key: str, convert: Callable[[str], T]) -> T:
        value = self.optional(el, key, convert)
        if value is None:
            raise self.error(el, f"attribute {key!r} is missing")
        return value

    def child(self, el: Element, tag: str) -> Element:
        found = el.findall(tag)
        if len(found) != 1:
            raise self.error(el, f"expected one <{tag}> element, found {len(found)}")
        return found[0]
