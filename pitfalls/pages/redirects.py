"""The alias redirects as an nginx `map`, written next to the site by every build.

deploy/nginx.conf includes site/nginx-redirects.map into `map $uri $pitfall_redirect`, so
nginx answers a former id with a real 301 instead of the meta-refresh page the build also
writes for servers without configuration (python -m http.server, the offline bundle).
"""

from __future__ import annotations

from ..records.model import LANGUAGES, KnowledgeBase

REDIRECT_MAP = "nginx-redirects.map"
"""File name of the map, at the root of the built site."""


def redirect_map(base: KnowledgeBase) -> str:
    """One `<old path> <new path>;` line per alias, language and spelling of the old path."""
    lines = ["# Written by `python -m pitfalls build`: former entry ids -> their entry (deploy/nginx.conf)."]
    for record in base.records:
        for alias in record.aliases:
            for lang in LANGUAGES:
                target = f"/{lang}/{record.id}/"
                # ids are slugs ([a-z0-9-]), so the paths need no quoting in nginx syntax
                lines += [f"/{lang}/{alias} {target};", f"/{lang}/{alias}/ {target};",
                          f"/{lang}/{alias}/index.html {target};"]
    return "\n".join(lines) + "\n"
