"""Extraction: kg's spaCy pipeline (registered components, data files) and entity resolution."""

from kg.extract.pipeline import Extractor, load_pipeline

__all__ = ["Extractor", "load_pipeline"]
