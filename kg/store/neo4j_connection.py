"""How kg reaches Neo4j: a connection (:class:`Neo4jConnection`: where, which user, which
database; :meth:`~Neo4jConnection.open` checks all three at once), its managed read and write
transactions, and one readable :class:`kg.errors.Neo4jError` line for every driver failure
(:func:`neo4j_error`): the server down, the credentials refused, the database missing, the
connection lost mid-load.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kg.errors import Neo4jError

DEFAULT_URI = "bolt://localhost:7687"
DEFAULT_USER = "neo4j"
URI_SCHEMES = ("bolt", "neo4j", "bolt+s", "bolt+ssc", "neo4j+s", "neo4j+ssc")


@dataclass
class Neo4jConnection:
    """Where and how to reach Neo4j. Open the driver with :meth:`open` (or ``with conn:``)."""

    uri: str = DEFAULT_URI
    user: str = DEFAULT_USER
    password: str | None = None
    database: str | None = None  # None: the server's default database
    #: How long the driver keeps retrying a transaction that failed transiently.
    max_retry_time: float = 15.0
    connection_timeout: float = 5.0
    _driver: Any = field(default=None, repr=False, compare=False)
    #: True while a load runs: a dropped connection then reads "lost ... mid-load".
    loading: bool = field(default=False, repr=False, compare=False)

    @classmethod
    def from_env(
        cls,
        uri: str | None = None,
        user: str | None = None,
        password: str | None = None,
        database: str | None = None,
        **kwargs: Any,
    ) -> Neo4jConnection:
        """Explicit arguments first, then NEO4J_URI / NEO4J_USERNAME / NEO4J_PASSWORD /
        NEO4J_DATABASE, then the defaults (bolt://localhost:7687, user neo4j, no password).
        KG_NEO4J_RETRY_SECONDS bounds how long transient failures are retried."""
        retry = os.environ.get("KG_NEO4J_RETRY_SECONDS")
        if retry and "max_retry_time" not in kwargs:
            kwargs["max_retry_time"] = float(retry)
        return cls(
            uri=uri or os.environ.get("NEO4J_URI") or DEFAULT_URI,
            user=user or os.environ.get("NEO4J_USERNAME") or DEFAULT_USER,
            password=password if password is not None else os.environ.get("NEO4J_PASSWORD"),
            database=database or os.environ.get("NEO4J_DATABASE") or None,
            **kwargs,
        )

    @property
    def where(self) -> str:
        db = f" (database {self.database!r})" if self.database else ""
        return f"{self.uri}{db}"

    def open(self) -> Neo4jConnection:
        """Create the driver and check that the server answers, accepts the credentials and
        has the database. Raises :class:`Neo4jError` with one line otherwise."""
        if self._driver is not None:
            return self
        import neo4j

        scheme = self.uri.partition("://")[0].lower()
        if scheme not in URI_SCHEMES:
            raise Neo4jError(
                f"cannot use Neo4j URI {self.uri!r}: it must start with "
                + ", ".join(f"{s}://" for s in URI_SCHEMES[:2]) + " (Bolt)"
            )
        # Without a password, send no credentials: a server with auth disabled accepts that,
        # and one with auth enabled answers with a clear authentication error.
        auth = (self.user, self.password) if self.password is not None else None
        try:
            self._driver = neo4j.GraphDatabase.driver(
                self.uri,
                auth=auth,
                connection_timeout=self.connection_timeout,
                max_transaction_retry_time=self.max_retry_time,
                user_agent="kg",
            )
            self._driver.verify_connectivity()
            # verify_connectivity does not look at the database: ask it something cheap.
            self._driver.execute_query("RETURN 1", database_=self.database)
        except Exception as exc:
            self.close()
            raise neo4j_error(exc, self) from None
        return self

    @property
    def driver(self) -> Any:
        return self.open()._driver

    def close(self) -> None:
        if self._driver is not None:
            try:
                self._driver.close()
            finally:
                self._driver = None

    def __enter__(self) -> Neo4jConnection:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- running Cypher -------------------------------------------------------------------

    def write(self, query: str, **params: Any) -> Any:
        """Run ``query`` in a managed write transaction (retried on transient errors) and
        return the records as dicts."""
        def work(tx: Any) -> list[dict[str, Any]]:
            return [r.data() for r in tx.run(query, params)]

        return self._session_call("execute_write", work)

    def read(self, query: str, **params: Any) -> list[dict[str, Any]]:
        """Run ``query`` in a managed read transaction; the records as dicts."""
        def work(tx: Any) -> list[dict[str, Any]]:
            return [r.data() for r in tx.run(query, params)]

        return self._session_call("execute_read", work)

    def read_records(self, query: str, **params: Any) -> tuple[list[str], list[Any]]:
        """Run ``query`` and return (column names, raw records) – nodes and paths kept whole."""
        def work(tx: Any) -> tuple[list[str], list[Any]]:
            result = tx.run(query, params)
            records = list(result)
            return list(result.keys()), records

        return self._session_call("execute_read", work)

    def _session_call(self, method: str, work: Callable[[Any], Any]) -> Any:
        try:
            with self.driver.session(database=self.database) as session:
                return getattr(session, method)(work)
        except Neo4jError:
            raise
        except Exception as exc:
            if _is_driver_error(exc):
                raise neo4j_error(exc, self) from None
            raise


def _is_driver_error(exc: BaseException) -> bool:
    import neo4j.exceptions as ne

    return isinstance(exc, (ne.Neo4jError, ne.DriverError, OSError, ValueError))


def _first_line(text: str) -> str:
    line = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    return line if len(line) <= 200 else line[:197] + "..."


def neo4j_error(exc: BaseException, conn: Neo4jConnection) -> Neo4jError:
    """Translate a driver exception into one readable line."""
    import neo4j.exceptions as ne

    where = conn.where
    code = getattr(exc, "code", None) or ""
    message = _first_line(getattr(exc, "message", None) or str(exc))
    if isinstance(exc, ne.AuthError) or code.startswith("Neo.ClientError.Security"):
        return Neo4jError(
            f"Neo4j at {conn.uri} rejected the credentials of user {conn.user!r} "
            "(set --user/--password or NEO4J_USERNAME/NEO4J_PASSWORD)"
        )
    if code == "Neo.ClientError.Database.DatabaseNotFound":
        return Neo4jError(f"Neo4j at {conn.uri} has no database {conn.database!r}")
    if isinstance(exc, (ne.SessionExpired, ne.IncompleteCommit)) or (
        isinstance(exc, ne.ServiceUnavailable) and conn.loading
    ):
        return Neo4jError(
            f"lost the connection to Neo4j at {where} ({message}); "
            "run the command again: loading is idempotent"
        )
    if isinstance(exc, (ne.ServiceUnavailable, OSError)):
        return Neo4jError(
            f"cannot reach Neo4j at {conn.uri}: is it running? "
            "(`docker compose up -d --wait`, or set --uri / NEO4J_URI)"
        )
    if isinstance(exc, (ne.ConfigurationError, ValueError)) and not code:
        return Neo4jError(f"cannot use Neo4j URI {conn.uri!r}: {message}")
    if isinstance(exc, ne.TransientError):
        return Neo4jError(f"Neo4j at {where} kept failing transiently ({code}): {message}")
    if code:
        return Neo4jError(f"Neo4j at {where} failed: {code}: {message}")
    return Neo4jError(f"Neo4j at {where} failed: {type(exc).__name__}: {message}")
