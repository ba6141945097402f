"""The extraction stage: kg's spaCy pipeline over abstracts → mentions.

:mod:`kg.extract.pipeline` loads the pipeline (the base model, then kg's registered components,
:mod:`kg.extract.components`); :mod:`kg.extract.extractor` runs it over texts, in worker
processes for big inputs; :mod:`kg.extract.rows` is the form its results travel and are cached
in. :mod:`kg.extract.fast` holds the only code that knows spaCy's and thinc's internals.
"""
