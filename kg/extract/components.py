"""kg's registered spaCy components, in pipeline order. Importing this module registers their
factories; each lives in a module of its own:

* ``kg_acronyms``    (:mod:`kg.extract.acronyms`)   "long form (ACR)" → ``doc._.kg_acronyms``
* ``kg_gazetteer``   (:mod:`kg.extract.gazetteer`)  known names from the shipped lists
* ``kg_rules``       (:mod:`kg.extract.rules`)      coined names, "X benchmark", task phrases
* ``kg_trained_ner`` (:mod:`kg.extract.recogniser`) the SciERC recogniser and its re-typer
* ``kg_mentions``    (:mod:`kg.extract.mentions`)   the final mentions → ``doc._.kg_mentions``
* ``kg_roles``       (:mod:`kg.extract.roles`)      PROPOSES or the type's default role
* ``kg_relations``   (:mod:`kg.extract.relations`)  USED_FOR, IS_A, ... → ``doc._.kg_relations``
* ``kg_results``     (:mod:`kg.extract.results`)    "85.3% accuracy on X" → ``doc._.kg_results``

The first four add candidate spans to ``doc.spans["kg_candidates"]``
(:mod:`kg.extract.spans`); ``kg_mentions`` picks among them.
"""

from kg.extract import (
    acronyms,
    gazetteer,
    mentions,
    recogniser,
    relations,
    results,
    roles,
    rules,
)

__all__ = [
    "acronyms", "gazetteer", "rules", "recogniser", "mentions", "roles", "relations", "results",
]  # fmt: skip
