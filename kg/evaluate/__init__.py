"""Measuring extraction quality (SciERC scorer) and training kg's supervised entity model."""
