"""kg: research-paper abstracts → a knowledge graph of methods, tasks, datasets, metrics and concepts."""

__version__ = "0.1.0"
