"""Help pages: the project's docs (docs/*.md) served as pages of the site, rendered from the same files."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

DOCS_DIR = Path(settings.BASE_DIR) / "docs"
_DOC_LINK = re.compile(r'href="([a-z0-9-]+)\.md(#[^"]*)?"')


@lru_cache(maxsize=16)
def _rendered(name: str, modified: float) -> tuple[str, str]:
    """A doc's title and HTML; keyed on the file's time too, so an edited doc is rendered again."""
    text = (DOCS_DIR / f"{name}.md").read_text(encoding="utf-8")
    html = markdown.markdown(text, extensions=["fenced_code", "tables", "toc"], output_format="html")
    # Links between docs ("rules.md#...") point at their help pages.
    html = _DOC_LINK.sub(lambda m: f'href="../{m.group(1)}/{m.group(2) or ""}"', html)
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), name)
    return title, html


@require_GET
def doc_page(request: HttpRequest, name: str) -> HttpResponse:
    path = DOCS_DIR / f"{name}.md"
    if not re.fullmatch(r"[a-z0-9-]+", name) or not path.is_file():
        raise Http404("No such help page")
    title, html = _rendered(name, path.stat().st_mtime)
    # The docs are the project's own files, not anyone's input: their HTML is shown as written.
    return render(request, "lists/help.html", {"title": title, "body": mark_safe(html)})  # noqa: S308
