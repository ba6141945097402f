"""kg's exceptions. Everything the library raises on purpose derives from :class:`KgError`;
the CLI turns any KgError into one readable line and a non-zero exit."""

from __future__ import annotations


class KgError(Exception):
    """Base class of every error kg raises on purpose."""


class InputError(KgError):
    """An input file or record could not be used."""


class NoUsableInputError(InputError):
    """Nothing usable was read from the inputs."""


class ModelError(KgError):
    """The spaCy model (or kg's shipped model) could not be loaded."""


class GraphFileError(KgError):
    """A graph file is missing, unreadable or not a kg graph."""


class NotFoundError(KgError):
    """A paper or entity named by the user is not in the graph."""


class AmbiguousError(KgError):
    """A name matches several papers or entities equally well."""


class Neo4jError(KgError):
    """Neo4j is unreachable, rejected the credentials, or failed a query."""


class QueryError(KgError):
    """A canned Cypher query is unknown or malformed, or was given bad parameters."""


class MissingExtraError(KgError):
    """A command needs packages of an optional extra that is not installed."""


class CacheError(KgError):
    """The cache folder cannot be changed as asked."""
