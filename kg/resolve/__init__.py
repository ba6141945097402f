"""The resolution stage: mentions of every paper → the corpus's entities, typed and named.

:class:`Resolver` merges mentions across papers (:mod:`kg.resolve.resolver`), deciding each
entity's type by how its phrase reads — as a name (:mod:`kg.resolve.names`), a technical term
(:mod:`kg.resolve.terms`) or a kind of thing (:mod:`kg.resolve.kinds`) — and the shipped word
lists (:mod:`kg.resolve.words`); :mod:`kg.resolve.naming` then names each paper's contribution.
"""

from kg.resolve.resolver import Resolver, by_key, resolve_entities
from kg.resolve.words import resolution_version

__all__ = ["Resolver", "by_key", "resolve_entities", "resolution_version"]
