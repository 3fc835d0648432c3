"""The one XML parser of every file read (rosters, data files, the cards' markup): lxml, made safe.

Entities are never resolved, no DTD is loaded, nothing is fetched from the network and trees past
libxml2's default depth and size are refused. A document declaring a DTD or entities is refused
outright, with the line it does so on, before it is parsed: a roster or catalogue never needs one.

May import: the standard library and lxml only; nothing else of `lists/`.
"""

from __future__ import annotations

import re

from lxml import etree

DTD_DECLARATION = re.compile(rb"<!(DOCTYPE|ENTITY)")


class XmlRefused(ValueError):
    """The XML cannot be used; the message says why, for the person who sent it."""


def parser() -> etree.XMLParser:
    """An XML parser that resolves no entities, loads no DTD, reaches no network and keeps trees small."""
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        huge_tree=False,
        load_dtd=False,
        remove_comments=True,
        remove_pis=True,
    )


def parse_xml(xml: bytes) -> etree._Element:
    """The root element of an XML document; XmlRefused names the line of a DTD or what is not well-formed."""
    declaration = DTD_DECLARATION.search(xml)
    if declaration:
        line = xml.count(b"\n", 0, declaration.start()) + 1
        raise XmlRefused(f"line {line}: declares a DTD or entities (<!{declaration[1].decode()}): refused for safety")
    try:
        root = etree.fromstring(xml, parser())
    except etree.XMLSyntaxError as error:
        raise XmlRefused(f"not well-formed XML: {error}") from None
    if root.getroottree().docinfo.doctype:  # one the pattern missed (another encoding than UTF-8)
        raise XmlRefused("declares a DTD or entities: refused for safety")
    return root
