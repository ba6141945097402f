"""kg: research-paper abstracts into a knowledge graph of methods, tasks, datasets and more."""

__version__ = "0.1.0"
