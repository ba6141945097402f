"""Reproducing kg's shipped models: the SciERC recogniser (:mod:`kg.train.recogniser`), its
span re-typer and noun-phrase model (:mod:`kg.train.retyper`) and the small tagger
(:mod:`kg.train.tagger`). Scoring them is :mod:`kg.evaluate`'s job.

Training needs packages that building a graph does not, in the ``train`` extra.
"""

from __future__ import annotations

import importlib.util

from kg.errors import MissingExtraError

#: Import name -> the name pip installs it under.
_PIP_NAMES = {"sklearn": "scikit-learn", "gensim": "gensim"}


def require_train_extra(*modules: str) -> None:
    """Raise a :class:`MissingExtraError` that says how to install what is missing.

    >>> require_train_extra("json")
    >>> require_train_extra("no_such_module_kg")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    kg.errors.MissingExtraError: this needs no_such_module_kg, from kg's train extra: pip ...
    """
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        names = ", ".join(_PIP_NAMES.get(m, m) for m in missing)
        raise MissingExtraError(
            f"this needs {names}, from kg's train extra: pip install \"kg[train]\" "
            '(in a checkout: pip install -e ".[train]")'
        )
